// Resource endpoints: two catch-all routes (/api/* and /apis/*) that dispatch on the
// RequestInfo the filter chain resolved (resolved here when absent, e.g. in tests)
// to the generic handler for the verb. Routes come from the definitions (STYLE §3),
// looked up in the registry's catalog on every request: Fastify cannot remove a
// route, and the catalog changes while the server runs. An unknown (or removed)
// group/version/resource, an undeclared subresource or a path shape the resource
// does not have is 404, a verb it (or its subresource) does not serve is 405.
// Bodies reach handlers as raw bytes; codecs decode them (body.ts). The discovery
// routes (/api/<v>, /apis/<g>, /apis/<g>/<v>) win over these wildcards in
// Fastify's router.
import { DEFAULT_FEATURE_GATES, type FeatureGates } from '../features/feature-gates.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { defaultCodecs, type CodecRegistry } from '../codecs/registry.js';
import { methodNotSupported, requestEntityTooLarge } from '../errors/status-error.js';
import type { ResourceDefinition } from '../registry/define-resource.js';
import type { Verb } from '../schema/api-resource.js';
import type { Registry } from '../registry/registry.js';
import { checkTyped } from '../schema/typed.js';
import type { RequestInfo } from './context.js';
import { createHandler } from './handlers/create.js';
import { deleteCollectionHandler, deleteHandler } from './handlers/delete.js';
import { getHandler } from './handlers/get.js';
import { listHandler } from './handlers/list.js';
import { acceptedPatchTypes, negotiatePatchType, patchHandler } from './handlers/patch.js';
import { subresourceConnectHandler, subresourceCreateHandler, subresourceGetHandler, subresourceType, subresourceUpdateHandler } from './handlers/subresource.js';
import { subresourcePatchHandler } from './handlers/subresource-patch.js';
import { addWarnings, type Handler, type SchemaChecker } from './handlers/scope.js';
import { updateHandler } from './handlers/update.js';
import { watchHandler } from './handlers/watch.js';
import { negotiateOutput, isPretty } from './negotiation.js';
import { installResponseCompression } from './compression.js';
import { pathProblem, resolveRequestInfo } from './request-info.js';

/** kube-apiserver's default --max-request-bytes for a request body. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export interface InstallOptions {
  /** Its catalog says what is served; its stores serve it. */
  readonly registry: Registry;
  readonly codecs?: CodecRegistry;
  /** Default: typed decoding against the definition's own schema (schema/typed.ts). */
  readonly checkSchema?: SchemaChecker;
  /** --min-request-timeout: watches without timeoutSeconds last this long times [1, 2). Default 1800. */
  readonly minRequestTimeoutSeconds?: number;
  /** --feature-gates; default kube 1.36's defaults. */
  readonly featureGates?: FeatureGates;
  /**
   * kube's APIResponseCompression feature gate (beta, on by default): answers over
   * 128 KiB are gzipped for clients that ask (compression.ts). Default true.
   */
  readonly responseCompression?: boolean;
}

/** Handlers by verb; a verb without one answers 405 even where a definition lists it. */
const HANDLERS: Partial<Record<Verb, Handler>> = {
  get: getHandler,
  list: listHandler,
  create: createHandler,
  update: updateHandler,
  delete: deleteHandler,
  deletecollection: deleteCollectionHandler,
  watch: watchHandler,
  // JSON, merge and strategic merge patches; server-side apply is refused with 415.
  patch: patchHandler,
};

/** Handlers of declared subresources (status, scale, finalize) by verb; the verbs a subresource declares still gate them. */
const SUBRESOURCE_HANDLERS: Partial<Record<Verb, Handler>> = {
  create: subresourceCreateHandler,
  get: subresourceGetHandler,
  update: subresourceUpdateHandler,
  patch: subresourcePatchHandler,
};

/** The query of a URL without one; handlers only read it. */
const NO_QUERY: URLSearchParams = new URLSearchParams();

/** Typed decoding against the schema the definition carries. */
export const checkDefinitionSchema: SchemaChecker = (def, obj) => checkTyped(def.schema.name, obj, def.schema.definitions);

/**
 * Reads the body ourselves so the 3 MiB limit is a StatusError like every other
 * failure. Plain 'data'/'end' listeners: an async iterator over the stream costs
 * more per request than the rest of reading a small body.
 */
function readLimited(payload: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer | string): void => {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buf.length;
      if (size > limit) {
        // Drain the rest so the connection stays usable for the answer.
        payload.off('data', onData);
        payload.resume();
        reject(requestEntityTooLarge(`limit is ${limit}`));
        return;
      }
      chunks.push(buf);
    };
    payload.on('data', onData);
    let ended = false;
    payload.once('end', () => {
      ended = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    payload.once('error', reject);
    // A client that goes away mid-body: nothing will answer, but the handler must not wait for ever.
    payload.once('close', () => {
      if (!ended) reject(new Error('request body closed before its end'));
    });
  });
}

/** An HTTP/2 request whose stream goes on after its headers and that Fastify left unread. */
function hasUnannouncedHttp2Body(request: FastifyRequest): boolean {
  const stream = (request.raw as { stream?: { endAfterHeaders?: boolean } }).stream;
  return request.raw.httpVersionMajor === 2 && stream?.endAfterHeaders === false && request.method !== 'GET' && request.method !== 'HEAD';
}

/**
 * Whether the URL's shape exists for this resource: namespaced kinds are addressed
 * inside a namespace (only list/watch span all of them), cluster-scoped kinds never
 * are — except a namespace itself (/api/v1/namespaces/<name>).
 */
function namespaceFor(info: RequestInfo, def: ResourceDefinition): string | undefined {
  if (def.scope === 'Namespaced') {
    if (info.namespace !== '') return info.namespace;
    // parts, not name: a metadata.name field selector also fills info.name.
    return info.parts.length < 2 && ['list', 'watch', 'create', 'deletecollection'].includes(info.verb) ? '' : undefined;
  }
  const isNamespaceItself = def.group === '' && def.plural === 'namespaces' && info.namespace === info.name;
  return info.namespace === '' || isNamespaceItself ? '' : undefined;
}

/** The server's own 404 (the not-found handler renders kube's "could not find the requested resource"). */
function notFound(reply: FastifyReply): FastifyReply {
  reply.callNotFound();
  return reply;
}

export function installResources(app: FastifyInstance, opts: InstallOptions): void {
  const codecs = opts.codecs ?? defaultCodecs;
  const minRequestTimeoutSeconds = opts.minRequestTimeoutSeconds ?? 1800;
  const checkSchema = opts.checkSchema ?? checkDefinitionSchema;
  const featureGates = opts.featureGates ?? DEFAULT_FEATURE_GATES;
  const responseCompression = opts.responseCompression ?? true;

  async function dispatch(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const info = request.kapi?.info ?? resolveRequestInfo(request.method, request.url);
    // The request-info filter refuses these first; without the chain (inject tests) this does.
    const problem = request.kapi === undefined ? pathProblem(request.url, info) : undefined;
    if (problem !== undefined) throw problem;
    // One catalog lookup: the store of what is served now, and the definition it serves.
    const store = info.isResourceRequest ? opts.registry.find({ group: info.apiGroup, version: info.apiVersion, resource: info.resource }) : undefined;
    if (store === undefined) return notFound(reply);
    const def = store.definition;
    // The core group lives under /api only, every other group under /apis only.
    if ((info.apiPrefix === 'api') !== (def.group === '')) return notFound(reply);
    // A subresource exists only where the definition declares it (discovery lists the same ones).
    const sub = info.subresource === '' ? undefined : Object.hasOwn(def.subresources, info.subresource) ? def.subresources[info.subresource] : undefined;
    if (info.subresource !== '' && sub === undefined) return notFound(reply);
    const namespace = namespaceFor(info, def);
    if (namespace === undefined) return notFound(reply);
    const verb = info.verb as Verb;
    const streams = sub?.connect !== undefined && verb === 'get';
    const handler = sub === undefined ? HANDLERS[verb] : streams ? subresourceConnectHandler : SUBRESOURCE_HANDLERS[verb];
    const gr = { group: def.group, resource: def.plural };
    if (handler === undefined || !(sub ?? def).verbs.includes(verb)) throw methodNotSupported(gr, verb);
    if (def.scope === 'Namespaced' && namespace === '' && (verb === 'create' || verb === 'deletecollection')) {
      throw methodNotSupported(gr, verb);
    }
    // kube's installer warns on every request a deprecated resource serves.
    if (def.deprecationWarning !== undefined) addWarnings(request, [def.deprecationWarning]);
    // Negotiate the answer before any work: a 406 must not follow a write.
    const type = sub === undefined ? { apiVersion: def.group === '' ? def.version : `${def.group}/${def.version}`, kind: def.kind } : subresourceType(def, info.subresource);
    // kube's patch handler refuses a patch type it does not take (415) before it negotiates the answer.
    if (verb === 'patch' && sub === undefined) {
      const contentType = request.headers['content-type'];
      negotiatePatchType({ contentType: Array.isArray(contentType) ? contentType[0] : contentType, accepted: acceptedPatchTypes(def) });
    }
    // A stream (pods/log) answers bytes of its own type, but kube negotiates as for the kind all the same.
    negotiateOutput({ accept: request.headers.accept, pretty: isPretty(request), codecs, type });
    const q = request.url.indexOf('?');
    const query = q < 0 ? NO_QUERY : new URLSearchParams(request.url.slice(q + 1));
    return handler(request, reply, { definition: def, store, codecs, checkSchema, info, query, namespace, minRequestTimeoutSeconds, featureGates, responseCompression });
  }

  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Here, not on the root: kube compresses only what its resource handlers serialize (not discovery, OpenAPI or /metrics).
    if (responseCompression) installResponseCompression(scope);
    scope.addContentTypeParser('*', async (request: FastifyRequest, payload: Readable) => {
      // A declared length far over the limit is answered at once: waiting for bytes
      // that would be refused anyway only holds the connection until the request
      // timeout. Nearer the limit the body is read (and refused once it passes the
      // limit), so a client still sending it receives the answer instead of a reset.
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > 2 * MAX_BODY_BYTES) throw requestEntityTooLarge(`limit is ${MAX_BODY_BYTES}`);
      return readLimited(payload, MAX_BODY_BYTES);
    });
    // Fastify reads a body only when the headers announce one (Content-Type,
    // Content-Length or Transfer-Encoding). An HTTP/2 request frames its body in DATA
    // frames and may say none of these (`kubectl create --raw -f` over HTTP/2):
    // kube reads the stream all the same and takes it as JSON, so a stream the client
    // did not end with its HEADERS frame is read here, within the same limit.
    scope.addHook('preValidation', async (request) => {
      if (request.body === undefined && hasUnannouncedHttp2Body(request)) request.body = await readLimited(request.raw, MAX_BODY_BYTES);
    });
    for (const url of ['/api/*', '/apis/*']) {
      scope.route({ method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url, bodyLimit: Number.MAX_SAFE_INTEGER, handler: dispatch });
    }
  });
}
