// RFC 6902 JSON patch (application/json-patch+json) over fast-json-patch, with
// kube-apiserver's error tiers: a body that is not a list of operations is 400
// with the decoder's text; an operation that cannot apply (failed `test`, missing
// path, unknown op) is "the server rejected our request ..." with a detail in the
// wording of evanphx/json-patch, the library kube uses; more than 10000
// operations is 413, kube's maxJSONPatchOperations.
import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { requestEntityTooLarge } from '../errors/status-error.js';
import { patchRejected, patchUndecodable } from './errors.js';
import { goJsonType, isJsonMap, parseJson, type Json } from './json.js';

export const MAX_JSON_PATCH_OPERATIONS = 10000;

/** Decodes the body into operations; only the shape Go's decoder checks is checked here. */
export function decodeJsonPatch(body: Buffer | string): readonly Operation[] {
  const parsed = parseJson(body);
  if (!parsed.ok) throw patchUndecodable(parsed.message);
  const ops = parsed.value;
  if (!Array.isArray(ops)) throw patchUndecodable(`json: cannot unmarshal ${goJsonType(ops)} into Go value of type jsonpatch.Patch`);
  const bad = ops.find((op) => !isJsonMap(op));
  if (bad !== undefined) throw patchUndecodable(`json: cannot unmarshal ${goJsonType(bad)} into Go value of type jsonpatch.Operation`);
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
  }
  return ops as unknown as Operation[];
}

interface FailedOperation {
  readonly op?: unknown;
  readonly path?: unknown;
  readonly from?: unknown;
}

/** evanphx/json-patch's texts for fast-json-patch's error names. */
function detailFor(err: InstanceType<typeof jsonpatch.JsonPatchError>): string {
  const op = (err.operation ?? {}) as FailedOperation;
  const name = typeof op.op === 'string' ? op.op : '';
  const where = typeof op.path === 'string' ? op.path : '';
  switch (err.name) {
    case 'TEST_OPERATION_FAILED':
      return `testing value ${where} failed: test failed`;
    case 'OPERATION_OP_INVALID':
      return `Unexpected kind: ${name}`;
    case 'OPERATION_FROM_UNRESOLVABLE':
    case 'OPERATION_FROM_REQUIRED':
      return `${name} operation does not apply: doc is missing from path: ${JSON.stringify(op.from ?? '')}: missing value`;
    case 'OPERATION_VALUE_REQUIRED':
    case 'OPERATION_VALUE_CANNOT_CONTAIN_UNDEFINED':
      return `${name} operation does not apply: missing value`;
    case 'OPERATION_VALUE_OUT_OF_BOUNDS':
    case 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX':
      return `Unable to access invalid index: ${where.split('/').pop() ?? ''}: invalid index referenced`;
    default:
      return `${name} operation does not apply: doc is missing path: ${JSON.stringify(where)}: missing value`;
  }
}

/** Applies the operations to a copy of `doc`; `doc` itself is never changed. */
export function applyJsonPatch(doc: Json, ops: readonly Operation[]): Json {
  try {
    return jsonpatch.applyPatch(doc, ops as Operation[], true, false).newDocument;
  } catch (err) {
    if (err instanceof jsonpatch.JsonPatchError) throw patchRejected(detailFor(err));
    throw err;
  }
}
