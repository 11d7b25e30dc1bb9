// Request bodies: raw bytes (the installer's content-type parser) -> the codec the
// Content-Type names -> a JSON-shaped object checked the way kube's decoder checks
// it (an object, the endpoint's apiVersion and kind, metadata an object) ->
// fieldValidation: Strict refuses unknown fields, Warn reports them as warnings,
// and every mode drops them, as decoding into Go structs does.
import type { FastifyRequest } from 'fastify';
import type { DecodeOptions } from '../codecs/codec.js';
import { badRequest } from '../errors/status-error.js';
import type { ResourceDefinition } from '../registry/define-resource.js';
import { apiVersionOf, type KubeObject } from '../schema/object.js';
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

function goTypeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'number' ? 'number' : typeof value === 'string' ? 'string' : typeof value === 'boolean' ? 'bool' : 'object';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The apiVersion/kind checks of kube's create/update handlers; missing fields default to the endpoint's. */
export function checkTypeMeta(obj: unknown, def: ResourceDefinition): KubeObject {
  if (!isObject(obj)) {
    throw badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goTypeName(obj)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  for (const field of ['apiVersion', 'kind'] as const) {
    const v = obj[field];
    if (v !== undefined && typeof v !== 'string') {
      throw badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goTypeName(v)} into Go struct field .${field} of type string`);
    }
  }
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
    throw badRequest(`${def.kind} in version ${JSON.stringify(def.version)} cannot be handled as a ${def.kind}: json: cannot unmarshal ${goTypeName(obj.metadata)} into Go struct field ${def.kind}.metadata of type v1.ObjectMeta`);
  }
  return obj as KubeObject;
}

/** `spec.containers[0].bar` -> ['spec', 'containers', 0, 'bar']. */
function pathSegments(p: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of p.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

function dropPath(obj: unknown, p: string): void {
  const segs = pathSegments(p);
  let cur: unknown = obj;
  for (const s of segs.slice(0, -1)) {
    if (cur === null || typeof cur !== 'object') return;
    cur = (cur as Record<string | number, unknown>)[s];
  }
  const last = segs[segs.length - 1];
  if (last !== undefined && cur !== null && typeof cur === 'object' && !Array.isArray(cur)) delete (cur as Record<string, unknown>)[last];
}

/** Applies fieldValidation; returns the warnings to send (Warn). */
export function applyFieldValidation(obj: KubeObject, opts: { mode: FieldValidation; scope: Pick<HandlerScope, 'unknownFields' | 'definition'> }): string[] {
  // Ignore still walks: typed decoding drops unknown fields in every mode, so they are never stored.
  const unknown = opts.scope.unknownFields(opts.scope.definition, obj);
  if (unknown.length === 0) return [];
  const texts = unknown.map((f) => `unknown field ${JSON.stringify(f)}`);
  if (opts.mode === 'Strict') throw badRequest(`strict decoding error: ${texts.join(', ')}`);
  for (const f of unknown) dropPath(obj, f);
  return opts.mode === 'Warn' ? texts : [];
}

/** The whole body pipeline for create and update. */
export function decodeObjectBody(request: FastifyRequest, opts: { scope: HandlerScope; fieldValidation: FieldValidation }): { object: KubeObject; warnings: string[] } {
  const def = opts.scope.definition;
  const decoded = decodeBody(request, opts.scope, { expected: { group: def.group, version: def.version, kind: def.kind } });
  const object = checkTypeMeta(decoded, def);
  const warnings = applyFieldValidation(object, { mode: opts.fieldValidation, scope: opts.scope });
  return { object, warnings };
}
