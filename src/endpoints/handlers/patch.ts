// PATCH, as kube-apiserver's patch handler does it: Content-Type picks the patch
// type (415 otherwise) -> PatchOptions -> the registry's write with a transform
// that applies the patch to the current object's JSON (404 when missing, before the
// body is even decoded) and decodes the result as the kind (apiVersion/kind may not
// change, fieldValidation). Strategy, validation, admission, dry run and the
// resourceVersion precondition are the write's. A patch that sets
// metadata.resourceVersion is a precondition (409 when stale); otherwise a write
// that loses a race re-applies the patch to the newer object inside the registry
// (registry/write/pipeline.ts), as kube's GuaranteedUpdate re-runs it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbiddenField, path } from '../../schema/field-errors.js';
import { unsupportedMediaType } from '../../errors/status-error.js';
import type { Transform } from '../../registry/store/types.js';
import type { ResourceDefinition } from '../../registry/define-resource.js';
import { decodePatch, hasPatchMeta, isJsonMap, PATCH_MEDIA_TYPES, patchTypeForMediaType, type Json, type JsonMap, type Patch, type PatchType } from '../../patch/index.js';
import { patchedObjectInvalid } from '../../patch/errors.js';
import { goJsonType } from '../../patch/json.js';
import { builtinDefinitions } from '../../schema/definitions.js';
import { apiVersionOf, type KubeObject } from '../../schema/object.js';
import { checkSchema, rawBody } from '../body.js';
import { invalidOptions, parseWriteOptions, type FieldValidation } from './options.js';
import { addWarnings, respond, writeScopeOf, type Handler, type HandlerScope } from './scope.js';

/**
 * Strategic merge needs the kind's Go patch metadata: built-in kinds only, whose
 * schema is in the built-in table. A kind that brings its own schema table (custom
 * kinds, the test group) gets 415, as kube answers for custom resources.
 */
export function acceptedPatchTypes(def: ResourceDefinition): PatchType[] {
  return def.schema.definitions === builtinDefinitions && hasPatchMeta(def.schema) ? ['json', 'merge', 'strategic'] : ['json', 'merge'];
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

/**
 * PATCH of the main resource or, with `subresource`, of a declared subresource
 * (kubectl scale, kubectl patch --subresource=status): `scope.definition` is then
 * the view's (the parent's, or Scale's type fields and schema), so the body is
 * checked against what the subresource answers.
 */
export async function patchResource(request: FastifyRequest, reply: FastifyReply, scope: HandlerScope, subresource: string): Promise<FastifyReply> {
  const def = scope.definition;
  const type = negotiatePatchType({ contentType: header(request, 'content-type'), accepted: acceptedPatchTypes(def) });
  rejectForce(scope.query);
  const options = parseWriteOptions(scope.query, 'PatchOptions');
  const body = rawBody(request);
  let patch: Patch | undefined;
  const transform: Transform = (current) => {
    // Storage answers 404 before calling a patch (no create on patch), so current is there.
    // Decoded only then: kube answers 404 before looking at the body.
    patch ??= decodePatch({ type, body, strict: options.fieldValidation !== 'Ignore', schema: def.schema });
    const patched = patch.apply(current as unknown as JsonMap);
    const object = decodePatched(patched, { patch, def });
    return { object, warnings: validateFields(object, { patched, patch, mode: options.fieldValidation, scope }) };
  };
  const result = await scope.store.write({ ...writeScopeOf(request, scope, options), verb: 'update', name: scope.info.name, subresource, allowCreate: false, transform });
  addWarnings(request, result.warnings);
  return respond(request, reply, { code: 200, object: result.object, scope });
}

export const patchHandler: Handler = (request, reply, scope) => patchResource(request, reply, scope, '');
