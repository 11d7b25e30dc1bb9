// PATCH, as kube-apiserver's patch handler does it: Content-Type picks the patch
// type (415 otherwise) -> PatchOptions -> read the current object (404 when
// missing, before the body is even decoded) -> apply the patch to its JSON ->
// decode the result as the kind (apiVersion/kind may not change, fieldValidation)
// -> store.update, so strategy, validation, admission, dry run and the
// resourceVersion precondition are the update's. A patch that sets
// metadata.resourceVersion is a precondition (409 when stale); otherwise a
// conflict means someone wrote in between, and the patch is re-applied to the
// newer object, as kube's GuaranteedUpdate re-runs it.
import type { FastifyRequest } from 'fastify';
import { forbiddenField, path } from '../../errors/field-errors.js';
import { isStatusError, unsupportedMediaType } from '../../errors/status-error.js';
import type { ResourceDefinition } from '../../registry/define-resource.js';
import { decodePatch, hasPatchMeta, isJsonMap, PATCH_MEDIA_TYPES, patchTypeForMediaType, type Json, type JsonMap, type Patch, type PatchType } from '../../patch/index.js';
import { patchedObjectInvalid } from '../../patch/errors.js';
import { goJsonType } from '../../patch/json.js';
import { apiVersionOf, type KubeObject } from '../../schema/object.js';
import { checkSchema, rawBody } from '../body.js';
import { invalidOptions, parseWriteOptions, type FieldValidation } from './options.js';
import { addWarnings, respond, userOf, writeScopeOf, type Handler, type HandlerScope } from './scope.js';

/** Re-applications after a write conflict before the conflict is the answer. */
const MAX_ATTEMPTS = 10;

/** Strategic merge needs the kind's patch metadata: built-in kinds only (custom kinds get 415, as in kube). */
export function acceptedPatchTypes(def: ResourceDefinition): PatchType[] {
  return hasPatchMeta(def.schemaName) ? ['json', 'merge', 'strategic'] : ['json', 'merge'];
}

/**
 * The patch type the Content-Type names (parameters such as charset ignored, as
 * kube does); anything else, a missing Content-Type included, is 415 listing the
 * accepted types. Server-side apply is not offered, so it is refused here too.
 */
export function negotiatePatchType(opts: { contentType: string | undefined; accepted: readonly PatchType[] }): PatchType {
  const raw = opts.contentType?.trim() ?? '';
  const type = patchTypeForMediaType(raw.split(';')[0]!.trim().toLowerCase());
  if (type === undefined || !opts.accepted.includes(type)) {
    throw unsupportedMediaType(raw, opts.accepted.map((t) => PATCH_MEDIA_TYPES[t]));
  }
  return type;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** metav1 ValidatePatchOptions: `force` belongs to apply patches only. */
function rejectForce(query: URLSearchParams): void {
  if (query.has('force')) invalidOptions('PatchOptions', [forbiddenField(path('force'), 'may not be specified for non-apply patch')]);
}

const SCHEME = 'k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30';
const TYPE_META_STRUCT = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * The patched JSON as an object of the kind. JSON and merge patches decode through
 * the codec, which refuses a changed or missing apiVersion/kind; strategic merge
 * converts typed objects, where the kind is the endpoint's whatever the map says.
 */
function decodePatched(patched: Json, opts: { patch: Patch; def: ResourceDefinition }): KubeObject {
  const { patch, def } = opts;
  const fail = (detail: string): never => {
    throw patchedObjectInvalid({ value: patch.invalidValue(patched), detail });
  };
  if (!isJsonMap(patched)) return fail(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonType(patched)} into Go value of type ${TYPE_META_STRUCT}`);
  const expected = apiVersionOf(def);
  if (patch.type === 'strategic') {
    patched.apiVersion = expected;
    patched.kind = def.kind;
  } else {
    const kind = typeof patched.kind === 'string' ? patched.kind : '';
    const apiVersion = typeof patched.apiVersion === 'string' ? patched.apiVersion : '';
    if (kind === '') fail(`Object 'Kind' is missing in '${JSON.stringify(patched)}'`);
    if (kind !== def.kind || apiVersion !== expected) fail(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(SCHEME)}`);
  }
  const metadata = patched.metadata;
  if (metadata === undefined || metadata === null) patched.metadata = {};
  else if (!isJsonMap(metadata)) fail(`json: cannot unmarshal ${goJsonType(metadata)} into Go struct field ${def.kind}.metadata of type v1.ObjectMeta`);
  return patched as unknown as KubeObject;
}

/**
 * Typed decoding and fieldValidation of the patched object. kube decodes the result
 * of a patch into the kind's Go type and reports what fails, a wrong type or (under
 * Strict) an unknown field, as 422 Invalid on `patch`; Warn and Ignore drop the
 * unknown fields as decoding into Go structs does.
 */
function validateFields(obj: KubeObject, opts: { patched: Json; patch: Patch; mode: FieldValidation; scope: HandlerScope }): string[] {
  const fail = (detail: string) => patchedObjectInvalid({ value: opts.patch.invalidValue(opts.patched), detail });
  return checkSchema(obj, { mode: opts.mode, scope: opts.scope, typeError: fail, strictError: fail });
}

/** Conflicts are retried only when the patch did not pin the resourceVersion itself. */
function isRetryableConflict(err: unknown, opts: { patched: KubeObject; current: KubeObject }): boolean {
  return isStatusError(err) && err.reason === 'Conflict' && opts.patched.metadata.resourceVersion === opts.current.metadata.resourceVersion;
}

export const patchHandler: Handler = async (request, reply, scope) => {
  const def = scope.definition;
  const type = negotiatePatchType({ contentType: header(request, 'content-type'), accepted: acceptedPatchTypes(def) });
  rejectForce(scope.query);
  const options = parseWriteOptions(scope.query, 'PatchOptions');
  const body = rawBody(request);
  const user = userOf(request);
  const name = scope.info.name;
  let patch: Patch | undefined;
  for (let attempt = 1; ; attempt++) {
    const current = await scope.store.get({ name, namespace: scope.namespace, ...(user === undefined ? {} : { user }) });
    // Decoded only once an object exists: kube answers 404 before looking at the body.
    patch ??= decodePatch({ type, body, strict: options.fieldValidation !== 'Ignore', schemaName: def.schemaName });
    const patched = patch.apply(current as unknown as JsonMap);
    const object = decodePatched(patched, { patch, def });
    const warnings = validateFields(object, { patched, patch, mode: options.fieldValidation, scope });
    try {
      const result = await scope.store.update(object, { ...writeScopeOf(request, scope, options), name });
      addWarnings(request, [...warnings, ...result.warnings]);
      return respond(request, reply, { code: 200, object: result.object, scope });
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS || !isRetryableConflict(err, { patched: object, current })) throw err;
    }
  }
};
