// How a bad patch is reported. kube-apiserver's patch handler sorts failures into
// three tiers, kept here so every patch type answers alike:
//   the body does not parse as the patch type        -> 400 BadRequest (decoder text)
//   the patch parses but cannot apply to the object  -> 422 Invalid "the server
//     rejected our request due to an error in our request", the detail as a cause
//   the patched document does not decode as the kind -> 422 Invalid on field `patch`
import { invalidValue, path } from '../schema/field-errors.js';
import { badRequest, invalid, rejected, type StatusError } from '../errors/status-error.js';
import { goFormat } from './json.js';

/**
 * A patch that could not be applied (a failed `test`, a missing path, a directive
 * in the wrong place): kube's NewGenericServerResponse(422).
 */
export function patchRejected(detail: string): StatusError {
  return rejected(detail);
}

/** The body is not a patch at all (apimachinery's decoder messages). */
export function patchUndecodable(message: string): StatusError {
  return badRequest(message);
}

/**
 * The patched document is not a valid object of the kind (apiVersion/kind changed,
 * strict field validation). kube reports the patched JSON (JSON and merge patch) or
 * the Go rendering of the patch map (strategic merge) as the invalid value.
 */
export function patchedObjectInvalid(opts: { value: unknown; detail: string }): StatusError {
  const value = typeof opts.value === 'string' ? opts.value : goFormat(opts.value);
  return invalid({ group: '', kind: '' }, '', [invalidValue(path('patch'), value, opts.detail)]);
}
