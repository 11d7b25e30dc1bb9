// Serves discovery. /api and /apis answer aggregated discovery (v2 or v2beta1,
// chosen by the Accept order, as client-go selects by the response Content-Type)
// or the legacy lists; /api/<v>, /apis/<g> and /apis/<g>/<v> always the legacy
// documents. They follow the catalog: bodies and ETags are computed once per
// catalog revision (on the first request after a change), so a resource added or
// removed at run time shows at once and changes every ETag it touches;
// If-None-Match gets 304.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notAcceptable } from '../../errors/status-error.js';
import type { Catalog } from '../../registry/catalog.js';
import { buildDiscovery, gvKey, type DiscoveryDocuments } from './documents.js';
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

/** Every discovery answer of one catalog revision, rendered. */
interface RenderedDiscovery {
  readonly revision: number;
  readonly legacyApi: Rendered;
  readonly legacyApis: Rendered;
  readonly aggregatedApi: Record<AggregatedVersion, Rendered>;
  readonly aggregatedApis: Record<AggregatedVersion, Rendered>;
  /** By "<g>/<v>" ("/v1" for core). */
  readonly resourceLists: ReadonlyMap<string, Rendered>;
  readonly apiGroups: ReadonlyMap<string, Rendered>;
}

function renderAll(docs: DiscoveryDocuments, revision: number): RenderedDiscovery {
  const mapValues = (m: ReadonlyMap<string, object>): Map<string, Rendered> => new Map([...m].map(([k, doc]) => [k, render(doc, 'application/json')]));
  return {
    revision,
    legacyApi: render(docs.apiVersions, 'application/json'),
    legacyApis: render(docs.apiGroupList, 'application/json'),
    aggregatedApi: renderAggregated(docs.aggregatedCore),
    aggregatedApis: renderAggregated(docs.aggregatedGroups),
    resourceLists: mapValues(docs.resourceLists),
    apiGroups: mapValues(docs.apiGroups),
  };
}

export interface DiscoveryRoutesOptions {
  readonly catalog: Pick<Catalog, 'list' | 'revision'>;
  /** host:port clients reach the server at (serverAddressByClientCIDRs). */
  readonly serverAddress: string;
}

export function registerDiscoveryRoutes(app: FastifyInstance, opts: DiscoveryRoutesOptions): void {
  let rendered: RenderedDiscovery | undefined;
  const current = (): RenderedDiscovery => {
    const revision = opts.catalog.revision;
    if (rendered?.revision !== revision) rendered = renderAll(buildDiscovery(opts.catalog.list(), opts.serverAddress), revision);
    return rendered;
  };

  const root =
    (pick: (r: RenderedDiscovery) => { legacy: Rendered; aggregated: Record<AggregatedVersion, Rendered> }) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const choice = choose(request.headers.accept, true);
      if (choice === undefined) throw notAcceptable(LEGACY_TYPES);
      const { legacy, aggregated } = pick(current());
      return send(request, reply, choice.kind === 'aggregated' ? aggregated[choice.version] : legacy);
    };
  app.get('/api', root((r) => ({ legacy: r.legacyApi, aggregated: r.aggregatedApi })));
  app.get('/apis', root((r) => ({ legacy: r.legacyApis, aggregated: r.aggregatedApis })));

  // Parametric, not one static route per group version: the set changes at run
  // time and Fastify routes cannot be removed. A group or version not served now
  // is the server's 404, as the resource wildcards answer it.
  const legacyOnly =
    (pick: (r: RenderedDiscovery, params: Record<string, string>) => Rendered | undefined) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const doc = pick(current(), request.params as Record<string, string>);
      if (doc === undefined) return reply.callNotFound();
      if (choose(request.headers.accept, false) === undefined) throw notAcceptable(LEGACY_TYPES);
      return send(request, reply, doc);
    };
  app.get('/api/:version', legacyOnly((r, p) => r.resourceLists.get(gvKey({ group: '', version: p.version ?? '' }))));
  app.get('/apis/:group', legacyOnly((r, p) => (p.group === '' ? undefined : r.apiGroups.get(p.group ?? ''))));
  app.get(
    '/apis/:group/:version',
    legacyOnly((r, p) => (p.group === '' ? undefined : r.resourceLists.get(gvKey({ group: p.group ?? '', version: p.version ?? '' })))),
  );
}
