// Serves discovery. /api and /apis answer aggregated discovery (v2 or v2beta1,
// chosen by the Accept order, as client-go selects by the response Content-Type)
// or the legacy lists; /api/v1 and /apis/<g>/<v> always the legacy
// APIResourceList. Bodies and ETags are computed once; If-None-Match gets 304.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notAcceptable } from '../../errors/status-error.js';
import type { DiscoveryDocuments } from './documents.js';
import { parseAccept } from '../negotiation.js';

const AGGREGATED_VERSIONS = ['v2', 'v2beta1'] as const;
type AggregatedVersion = (typeof AGGREGATED_VERSIONS)[number];

interface Rendered {
  readonly body: Buffer;
  readonly etag: string;
  readonly contentType: string;
}

function render(doc: object, contentType: string): Rendered {
  const body = Buffer.from(`${JSON.stringify(doc)}\n`);
  const etag = `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"`;
  return { body, etag, contentType };
}

function aggregatedContentType(version: AggregatedVersion): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

function renderAggregated(list: { items: object[] }): Record<AggregatedVersion, Rendered> {
  const out = {} as Record<AggregatedVersion, Rendered>;
  for (const version of AGGREGATED_VERSIONS) {
    const doc = { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items: list.items };
    out[version] = render(doc, aggregatedContentType(version));
  }
  return out;
}

type Choice = { readonly kind: 'aggregated'; readonly version: AggregatedVersion } | { readonly kind: 'legacy' };

const LEGACY_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/** First acceptable entry wins: client-go lists its preference in order. */
function choose(accept: string | undefined, allowAggregated: boolean): Choice | undefined {
  // No Accept at all means anything, as in HTTP.
  const ranges = accept === undefined || accept.trim() === '' ? parseAccept('*/*') : parseAccept(accept);
  for (const range of ranges) {
    const type = `${range.type}/${range.subtype}`;
    const { params } = range;
    if (type === 'application/json' && params.g === 'apidiscovery.k8s.io' && params.as === 'APIGroupDiscoveryList') {
      const version = AGGREGATED_VERSIONS.find((v) => v === params.v);
      if (allowAggregated && version !== undefined) return { kind: 'aggregated', version };
      continue;
    }
    if (params.as !== undefined) continue;
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return { kind: 'legacy' };
  }
  return undefined;
}

function send(request: FastifyRequest, reply: FastifyReply, doc: Rendered): FastifyReply {
  reply.header('ETag', doc.etag).header('Vary', 'Accept').header('Content-Type', doc.contentType);
  if (request.headers['if-none-match'] === doc.etag) return reply.code(304).send();
  return reply.code(200).send(doc.body);
}

export function registerDiscoveryRoutes(app: FastifyInstance, docs: DiscoveryDocuments): void {
  const legacyApi = render(docs.apiVersions, 'application/json');
  const legacyApis = render(docs.apiGroupList, 'application/json');
  const aggregatedApi = renderAggregated(docs.aggregatedCore);
  const aggregatedApis = renderAggregated(docs.aggregatedGroups);

  const root =
    (legacy: Rendered, aggregated: Record<AggregatedVersion, Rendered>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const choice = choose(request.headers.accept, true);
      if (choice === undefined) throw notAcceptable(LEGACY_TYPES);
      return send(request, reply, choice.kind === 'aggregated' ? aggregated[choice.version] : legacy);
    };
  app.get('/api', root(legacyApi, aggregatedApi));
  app.get('/apis', root(legacyApis, aggregatedApis));

  const legacyOnly = (doc: Rendered) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (choose(request.headers.accept, false) === undefined) throw notAcceptable(LEGACY_TYPES);
    return send(request, reply, doc);
  };
  for (const [key, list] of docs.resourceLists) {
    const [group, version] = key.split('/') as [string, string];
    app.get(group === '' ? `/api/${version}` : `/apis/${group}/${version}`, legacyOnly(render(list, 'application/json')));
  }
  for (const [group, doc] of docs.apiGroups) {
    app.get(`/apis/${group}`, legacyOnly(render(doc, 'application/json')));
  }
}
