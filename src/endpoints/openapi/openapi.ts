// OpenAPI for kapi: /openapi/v2 (JSON and gnostic protobuf) and /openapi/v3 (index
// plus one document per group version), generated from the served resource
// definitions and the schemas they carry. The documents follow the catalog: they
// are built on the first request after each change and kept until the next one,
// so bodies, hashes and ETags never change between two catalog changes, which is
// what lets kubectl cache a v3 document as immutable under its hash. routes.ts
// serves them.
import { createHash } from 'node:crypto';
import type { Catalog } from '../../registry/catalog.js';
import { encodeGnosticV2 } from './gnostic.js';
import { buildSwagger } from './spec-v2.js';
import { buildV3Documents } from './spec-v3.js';
import type { SwaggerDocument } from './swagger.js';

export interface OpenApiOptions {
  /** What is served; schemas come from each definition's own table. */
  readonly catalog: Pick<Catalog, 'list' | 'revision'>;
  /** info.version; kube-apiserver puts its gitVersion there. */
  readonly version?: string;
  /** The clock for Last-Modified and the one-year Expires of immutable v3 responses. */
  readonly now?: () => Date;
}

/** One prebuilt response body with its validators. */
export interface ServedDocument {
  readonly body: Buffer;
  /** Uppercase hex SHA-512 of the JSON, the `hash` of v3 URLs. */
  readonly hash: string;
  /** The quoted hash, as sent in ETag and compared with If-None-Match. */
  readonly etag: string;
}

/** The documents of one catalog revision. */
export interface OpenApiDocuments {
  readonly revision: number;
  readonly swagger: SwaggerDocument;
  readonly v2: ServedDocument;
  /**
   * The gnostic protobuf encoding of v2, encoded on first use and kept: only kubectl
   * 1.27/1.28 and client-side apply ask for it, and it is the slowest part to build.
   * Its validators are the JSON's (kube-openapi does the same).
   */
  readonly v2Protobuf: () => Buffer;
  readonly v3Index: ServedDocument;
  /** By index key: `api/v1`, `apis/apps/v1`, `api`, `apis`, `apis/apps`, `version`. */
  readonly v3: ReadonlyMap<string, ServedDocument>;
  /** HTTP date of when these documents were built. */
  readonly lastModified: string;
}

export interface OpenApi {
  /** The documents of the catalog as it is now; rebuilt once after each change. */
  current(): OpenApiDocuments;
  readonly now: () => Date;
}

export const DEFAULT_OPENAPI_VERSION = 'v1.36.0+kapi';

function served(json: string): ServedDocument {
  const hash = createHash('sha512').update(json).digest('hex').toUpperCase();
  return { body: Buffer.from(json), hash, etag: `"${hash}"` };
}

/** `/openapi/v3/<key>?hash=<hash>`: the URL the index hands to clients. */
export function v3Url(key: string, hash: string): string {
  return `/openapi/v3/${key}?hash=${hash}`;
}

function buildDocuments(opts: { catalog: OpenApiOptions['catalog']; version: string; now: () => Date }): OpenApiDocuments {
  const revision = opts.catalog.revision;
  const swagger = buildSwagger({ resources: opts.catalog.list(), version: opts.version });
  const v3 = new Map<string, ServedDocument>();
  for (const [key, doc] of buildV3Documents(swagger)) v3.set(key, served(JSON.stringify(doc)));
  let protobuf: Buffer | undefined;
  const index = { paths: Object.fromEntries([...v3].map(([key, doc]) => [key, { serverRelativeURL: v3Url(key, doc.hash) }])) };
  return {
    revision,
    swagger,
    v2: served(JSON.stringify(swagger)),
    v2Protobuf: () => (protobuf ??= Buffer.from(encodeGnosticV2(swagger))),
    v3Index: served(JSON.stringify(index)),
    v3,
    lastModified: opts.now().toUTCString(),
  };
}

export function createOpenApi(opts: OpenApiOptions): OpenApi {
  const now = opts.now ?? (() => new Date());
  const version = opts.version ?? DEFAULT_OPENAPI_VERSION;
  let documents: OpenApiDocuments | undefined;
  return {
    current() {
      if (documents?.revision !== opts.catalog.revision) documents = buildDocuments({ catalog: opts.catalog, version, now });
      return documents;
    },
    now,
  };
}
