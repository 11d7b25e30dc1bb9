// GET and PUT of a declared subresource (/status, /scale, /finalize). The installer
// routes here when the URL names a subresource the definition declares; what the
// subresource reads and writes is the registry's (store/subresource.ts). Bodies and
// answers have the subresource's kind: the parent's, or responseKind (autoscaling/v1
// Scale). PATCH is subresource-patch.ts: the generic patch handler over this view.
// In-process callers that patch call the store's write with the subresource named
// and a transform, which applies the change to the current view inside the same
// optimistic write as PUT.
import { Readable } from 'node:stream';
import type { KubeObject } from '../../schema/object.js';
import { internal } from '../../errors/status-error.js';
import type { ResourceDefinition } from '../../registry/define-resource.js';
import type { SubresourceStore } from '../../registry/store/types.js';
import { builtinSchema, definitionNameForGvk } from '../../schema/definitions.js';
import type { ResourceVersionMatch } from '../../storage/storage.js';
import { decodeObjectBody } from '../body.js';
import { parseWriteOptions } from './options.js';
import { addWarnings, respond, userOf, writeScopeOf, type Handler, type HandlerScope } from './scope.js';

/** The store of the subresource the URL names; the installer only routes declared ones here. */
export function subresourceOf(scope: HandlerScope): SubresourceStore {
  const sub = scope.store.subresource(scope.info.subresource);
  if (sub === undefined) throw internal(new Error(`subresource ${scope.info.subresource} of ${scope.definition.plural} is not declared`));
  return sub;
}

/** apiVersion and kind of what the subresource answers (the installer negotiates with it before any work). */
export function subresourceType(def: ResourceDefinition, name: string): { apiVersion: string; kind: string } {
  const k = def.subresources[name]?.responseKind ?? def;
  return { apiVersion: k.group === '' ? k.version : `${k.group}/${k.version}`, kind: k.kind };
}

/**
 * The definition a body is decoded and checked against: the parent's, or the
 * response kind's type fields and schema (Scale), so apiVersion/kind checks and
 * fieldValidation see the Scale schema.
 */
export function subresourceBodyDefinition(scope: HandlerScope, sub: SubresourceStore): ResourceDefinition {
  const def = scope.definition;
  const k = sub.kind;
  if (k.group === def.group && k.version === def.version && k.kind === def.kind) return def;
  const name = definitionNameForGvk(k);
  return { ...def, group: k.group, version: k.version, kind: k.kind, schema: name === undefined ? def.schema : builtinSchema(name) };
}

export const subresourceGetHandler: Handler = async (request, reply, scope) => {
  const object = await subresourceOf(scope).get({
    user: userOf(request),
    namespace: scope.namespace,
    name: scope.info.name,
    resourceVersion: scope.query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: (scope.query.get('resourceVersionMatch') ?? undefined) as ResourceVersionMatch | undefined,
  });
  return respond(request, reply, { code: 200, object, scope });
};

export const subresourceUpdateHandler: Handler = async (request, reply, scope) => {
  const options = parseWriteOptions(scope.query, 'UpdateOptions');
  const sub = subresourceOf(scope);
  const body = decodeObjectBody(request, { scope: { ...scope, definition: subresourceBodyDefinition(scope, sub) }, fieldValidation: options.fieldValidation });
  addWarnings(request, body.warnings);
  const result = await sub.update(body.object, { ...writeScopeOf(request, scope, options), name: scope.info.name });
  addWarnings(request, result.warnings);
  return respond(request, reply, { code: 200, object: result.object, scope });
};

/** POST of a computing subresource (serviceaccounts/token): 201 with what it computed. */
export const subresourceCreateHandler: Handler = async (request, reply, scope) => {
  const options = parseWriteOptions(scope.query, 'CreateOptions');
  const sub = subresourceOf(scope);
  // The verbs gate dispatch; a declared `create` verb without the hook is a definition bug.
  if (sub.create === undefined) throw internal(new Error(`subresource ${sub.name} declares create without computing it`));
  const body = decodeObjectBody(request, { scope: { ...scope, definition: subresourceBodyDefinition(scope, sub) }, fieldValidation: options.fieldValidation });
  addWarnings(request, body.warnings);
  const result = await sub.create(body.object, { ...writeScopeOf(request, scope, options), name: scope.info.name });
  addWarnings(request, result.warnings);
  return respond(request, reply, { code: statusCodeOf(result.object) ?? 201, object: result.object, scope });
};

/**
 * A Status the subresource answered with its own code (a failed eviction's 500)
 * is sent with that code, as kube's create handler does; anything else is 201.
 */
function statusCodeOf(object: KubeObject): number | undefined {
  const code = (object as { code?: unknown }).code;
  return object.kind === 'Status' && typeof code === 'number' && Number.isInteger(code) && code >= 200 && code <= 599 ? code : undefined;
}

/**
 * GET of a streaming subresource (pods/log): 200 with the bytes its hook answers, as
 * they come, in the hook's content type (kube writes a ResourceStreamer's answer
 * as is), or 204 when there is nothing to stream. The hook's stream is cancelled
 * when the client goes away.
 */
export const subresourceConnectHandler: Handler = async (request, reply, scope) => {
  const sub = subresourceOf(scope);
  if (sub.connect === undefined) throw internal(new Error(`subresource ${sub.name} declares connect without a stream`));
  const controller = new AbortController();
  reply.raw.once('close', () => controller.abort());
  const answer = await sub.connect({ user: userOf(request), namespace: scope.namespace, name: scope.info.name, query: scope.query, signal: controller.signal });
  if ('noContent' in answer) return reply.code(204).send();
  return reply.code(200).header('content-type', answer.contentType).header('cache-control', 'no-cache, private').send(Readable.from(answer.body, { objectMode: false }));
};
