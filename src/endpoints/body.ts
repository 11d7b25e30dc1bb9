// Request bodies: raw bytes (the installer's content-type parser) -> the codec the
// Content-Type names -> a JSON-shaped object checked the way kube's decoder checks
// it (an object, the endpoint's apiVersion and kind, metadata an object) -> the
// typed walk of the schema (wrong JSON types are the decoder's 400) with
// fieldValidation: Strict refuses unknown and duplicate fields, Warn reports them
// as warnings, and every mode drops unknown fields, as decoding into Go structs does.
import type { FastifyRequest } from 'fastify';
import type { DecodeOptions } from '../codecs/codec.js';
import { PROTOBUF_MEDIA_TYPE } from '../codecs/registry.js';
import { badRequest, isStatusError, type StatusError } from '../errors/status-error.js';
import type { ResourceDefinition } from '../registry/define-resource.js';
import { isRenderedPathWithin } from '../schema/field-path.js';
import { apiVersionOf, goJsonType, type KubeObject } from '../schema/object.js';
import { isSchemaTypeError, type TypedCheck } from '../schema/typed.js';
import type { FieldValidation } from './handlers/options.js';
import type { HandlerScope } from './handlers/scope.js';
import { negotiateInput } from './negotiation.js';

export function rawBody(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Decodes the body with the codec its Content-Type names (415 for others). */
export function decodeBody(request: FastifyRequest, scope: Pick<HandlerScope, 'codecs'>, opts: DecodeOptions = {}): unknown {
  const codec = negotiateInput({ contentType: header(request, 'content-type'), codecs: scope.codecs });
  return codec.decode(rawBody(request), opts);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What kube's decoder reads first, before it knows the kind: the body is an object
 * whose apiVersion and kind, when present, are strings. Its failures are answered
 * as "unrecognized" (see unrecognized()).
 */
function checkTypeMetaTypes(obj: unknown): asserts obj is Record<string, unknown> {
  if (!isObject(obj)) {
    throw badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonType(obj)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  for (const field of ['apiVersion', 'kind'] as const) {
    const v = obj[field];
    if (v !== undefined && typeof v !== 'string') {
      throw badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonType(v)} into Go struct field .${field} of type string`);
    }
  }
}

/**
 * The apiVersion/kind checks of kube's create/update handlers, once the types are
 * known good (checkTypeMetaTypes); missing fields default to the endpoint's.
 */
function checkTypeMeta(obj: Record<string, unknown>, def: ResourceDefinition): KubeObject {
  const expected = apiVersionOf(def);
  const apiVersion = (obj.apiVersion as string | undefined) ?? '';
  const kind = (obj.kind as string | undefined) ?? '';
  if (apiVersion !== '' && apiVersion !== expected) {
    throw badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expected})`);
  }
  if (kind !== '' && kind !== def.kind) {
    throw badRequest(`${kind} in version ${JSON.stringify(def.version)} cannot be handled as a ${def.kind}: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(expected)}`);
  }
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  if (!isObject(obj.metadata)) {
    throw undecodable(def, `json: cannot unmarshal ${goJsonType(obj.metadata)} into Go struct field ${def.kind}.metadata of type v1.ObjectMeta`);
  }
  return obj as KubeObject;
}

/** apiserver's summarizeData: a JSON body's first 30 bytes as text, anything else in hex. */
function summarizeBody(body: Buffer): string {
  if (body.length === 0) return '<empty>';
  const more = body.length > 30 ? ' ...' : '';
  const head = body.subarray(0, 30);
  return body[0] === 0x7b ? `${head.toString('utf8')}${more}` : `${head.toString('hex')}${more}`;
}

/** sigs.k8s.io/yaml adds this for clients; the server's YAML decoder answers goyaml's text alone. */
const YAML_CLIENT_PREFIX = 'error converting YAML to JSON: ';

/**
 * kube's answer for a body its decoder could not read far enough to know the kind
 * (create.go's transformDecodeError without a GVK): the decoder's text and a
 * summary of the body.
 */
function unrecognized(def: Pick<ResourceDefinition, 'kind'>, err: StatusError, body: Buffer): StatusError {
  const detail = err.message.startsWith(YAML_CLIENT_PREFIX) ? err.message.slice(YAML_CLIENT_PREFIX.length) : err.message;
  return badRequest(`the object provided is unrecognized (must be of type ${def.kind}): ${detail} (${summarizeBody(body)})`);
}

/** kube's strict decoder stops collecting at 100 errors. */
const MAX_STRICT_ERRORS = 100;
const DUPLICATE_FIELD = /^duplicate field "((?:[^"\\]|\\.)*)"$/;

/**
 * The strict errors in kube's order: unknown fields, then the codec's duplicates,
 * except duplicates inside an unknown field (kube decodes nothing under a field
 * it does not know, so it reports only the unknown field), at most 100.
 */
function strictTexts(unknown: readonly string[], fromCodec: readonly string[]): string[] {
  // Most writes: nothing unknown and no duplicates.
  if (unknown.length === 0 && fromCodec.length === 0) return [];
  const texts = unknown.map((f) => `unknown field ${JSON.stringify(f)}`);
  for (const text of fromCodec) {
    const m = DUPLICATE_FIELD.exec(text);
    const at = m === null ? undefined : m[1]!;
    const insideUnknown = at !== undefined && unknown.some((f) => isRenderedPathWithin(at, f));
    if (!insideUnknown) texts.push(text);
  }
  return texts.slice(0, MAX_STRICT_ERRORS);
}

export interface SchemaCheckOptions {
  readonly mode: FieldValidation;
  readonly scope: Pick<HandlerScope, 'checkSchema' | 'definition'>;
  /** What the codec found under strict decoding (duplicate fields), reported with the unknown fields. */
  readonly strictErrors?: readonly string[];
  /** How this verb reports a value of the wrong type (create/update: 400; patch: 422 on `patch`). */
  readonly typeError: (detail: string) => StatusError;
  /** How this verb reports a Strict failure. */
  readonly strictError: (detail: string) => StatusError;
}

/**
 * Typed decoding and fieldValidation in one walk of the schema: a wrong type is the
 * decoder's error whatever the mode (it trumps strict errors, as in kube); Strict
 * refuses unknown and duplicate fields; Warn reports them; every mode drops unknown
 * fields, as decoding into Go structs does. Answers the warnings to send.
 */
export function checkSchema(obj: KubeObject, opts: SchemaCheckOptions): string[] {
  let checked: TypedCheck;
  try {
    checked = opts.scope.checkSchema(opts.scope.definition, obj);
  } catch (err) {
    if (isSchemaTypeError(err)) throw opts.typeError(err.detail);
    throw err;
  }
  const texts = strictTexts(checked.unknownFields, opts.strictErrors ?? []);
  if (texts.length > 0 && opts.mode === 'Strict') throw opts.strictError(`strict decoding error: ${texts.join(', ')}`);
  checked.dropUnknownFields();
  return opts.mode === 'Ignore' ? [] : texts;
}

/** kube's create/update decode failure: `<Kind> in version "<v>" cannot be handled as a <Kind>: <why>`. */
export function undecodable(def: Pick<ResourceDefinition, 'kind' | 'version'>, detail: string): StatusError {
  return badRequest(`${def.kind} in version ${JSON.stringify(def.version)} cannot be handled as a ${def.kind}: ${detail}`);
}

/** The whole body pipeline for create and update. */
export function decodeObjectBody(request: FastifyRequest, opts: { scope: HandlerScope; fieldValidation: FieldValidation }): { object: KubeObject; warnings: string[] } {
  const def = opts.scope.definition;
  // Duplicate fields are only looked for when someone will hear of them.
  const strictErrors: string[] | undefined = opts.fieldValidation === 'Ignore' ? undefined : [];
  const codec = negotiateInput({ contentType: header(request, 'content-type'), codecs: opts.scope.codecs });
  const body = rawBody(request);
  let decoded: Record<string, unknown>;
  try {
    const value = codec.decode(body, { expected: { group: def.group, version: def.version, kind: def.kind }, ...(strictErrors === undefined ? {} : { strictErrors }) });
    checkTypeMetaTypes(value);
    decoded = value;
  } catch (err) {
    // Protobuf names its kind in the envelope; JSON and YAML failures come before any kind is known.
    if (isStatusError(err) && err.reason === 'BadRequest' && codec.mediaType !== PROTOBUF_MEDIA_TYPE) throw unrecognized(def, err, body);
    throw err;
  }
  const object = checkTypeMeta(decoded, def);
  const fail = (detail: string) => undecodable(def, detail);
  const warnings = checkSchema(object, {
    mode: opts.fieldValidation,
    scope: opts.scope,
    ...(strictErrors === undefined ? {} : { strictErrors }),
    typeError: fail,
    strictError: fail,
  });
  return { object, warnings };
}
