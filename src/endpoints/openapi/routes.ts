// GET routes for /openapi/v2 and /openapi/v3, behaving like kube-openapi's handler
// (v2) and handler3 (v3): ETag = quoted uppercase SHA-512 of the JSON, Vary: Accept,
// 304 on If-None-Match, 406 as a Status for media types we do not produce. Each
// request reads the documents of the catalog as it is now (openapi.ts), so a
// resource added or removed at run time changes the bodies, hashes and ETags. The
// server's filter chain and error handler wrap these routes; refusals throw.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notAcceptable } from '../../errors/status-error.js';
import { ifNoneMatchHits, negotiate, type MediaOffer } from './negotiation.js';
import { v3Url, type OpenApi, type ServedDocument } from './openapi.js';

export const JSON_MEDIA_TYPE = 'application/json';
/** What kubectl asks for; Go's mime parser rejects it in a response, so we never send it. */
export const GNOSTIC_V2_ACCEPT = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** The spelling kube-openapi answers with (and also accepts). */
export const GNOSTIC_V2_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

const V2_OFFERS: readonly MediaOffer<'json' | 'protobuf'>[] = [
  { types: [JSON_MEDIA_TYPE], value: 'json' },
  { types: [GNOSTIC_V2_ACCEPT, GNOSTIC_V2_CONTENT_TYPE], value: 'protobuf' },
];
// TODO(#3): gnostic protobuf for v3 (kubectl 1.29–1.33 ask for JSON); until then it is refused with 406.
const V3_OFFERS: readonly MediaOffer<'json'>[] = [{ types: [JSON_MEDIA_TYPE], value: 'json' }];

const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

interface SendInput {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly doc: ServedDocument;
  readonly body: Buffer;
  readonly contentType: string;
  readonly lastModified?: string;
}

function send(input: SendInput): FastifyReply {
  const { reply, doc } = input;
  reply.header('ETag', doc.etag).header('Vary', 'Accept');
  if (input.lastModified !== undefined) reply.header('Last-Modified', input.lastModified);
  if (ifNoneMatchHits(input.request.headers['if-none-match'], doc.etag)) return reply.code(304).send();
  return reply.code(200).header('Content-Type', input.contentType).send(input.body);
}

function hashParam(request: FastifyRequest): string | undefined {
  const hash = (request.query as Record<string, unknown> | undefined)?.hash;
  return typeof hash === 'string' ? hash : undefined;
}

export function registerOpenApiRoutes(app: FastifyInstance, openapi: OpenApi): void {
  app.get('/openapi/v2', async (request, reply) => {
    const format = negotiate(request.headers.accept, V2_OFFERS);
    if (format === undefined) throw notAcceptable([JSON_MEDIA_TYPE, GNOSTIC_V2_ACCEPT]);
    const protobuf = format === 'protobuf';
    const docs = openapi.current();
    return send({
      request,
      reply,
      doc: docs.v2,
      body: protobuf ? docs.v2Protobuf() : docs.v2.body,
      contentType: protobuf ? GNOSTIC_V2_CONTENT_TYPE : JSON_MEDIA_TYPE,
      lastModified: docs.lastModified,
    });
  });

  const serveIndex = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const { v3Index } = openapi.current();
    return send({ request, reply, doc: v3Index, body: v3Index.body, contentType: JSON_MEDIA_TYPE });
  };
  app.get('/openapi/v3', serveIndex);

  app.get('/openapi/v3/*', async (request, reply) => {
    const key = (request.params as { '*': string })['*'].replace(/\/+$/, '');
    if (key === '') return serveIndex(request, reply);
    const docs = openapi.current();
    const doc = docs.v3.get(key);
    if (doc === undefined) return reply.callNotFound();
    if (negotiate(request.headers.accept, V3_OFFERS) === undefined) throw notAcceptable([JSON_MEDIA_TYPE]);
    const hash = hashParam(request);
    if (hash !== undefined && hash !== '') {
      // A stale hash means the client's index is old: send it to the current document
      // rather than serving different bytes under a URL it will cache forever.
      if (hash !== doc.hash) return reply.redirect(v3Url(key, doc.hash), 301);
      reply.header('Cache-Control', 'public, immutable');
      reply.header('Expires', new Date(openapi.now().getTime() + ONE_YEAR_MS).toUTCString());
    }
    return send({ request, reply, doc, body: doc.body, contentType: JSON_MEDIA_TYPE, lastModified: docs.lastModified });
  });
}
