// OpenAPI for kapi: /openapi/v2 (JSON and gnostic protobuf) and /openapi/v3 (index
// plus one document per group version), generated from the served resource
// definitions and the schema table in src/schema. Everything is built once when the
// server starts: bodies, hashes and ETags never change while it runs, which is what
// lets kubectl cache the v3 documents as immutable. routes.ts serves them.
import { createHash } from 'node:crypto';
import type { ResourceDefinition } from '../../registry/define-resource.js';
import { builtinDefinitions, type Definitions } from '../../schema/definitions.js';
import { encodeGnosticV2 } from './gnostic.js';
import { buildSwagger } from './spec-v2.js';
import { buildV3Documents } from './spec-v3.js';
import type { SwaggerDocument } from './swagger.js';

export interface OpenApiOptions {
  readonly resources: readonly ResourceDefinition[];
  /** Schemas beyond the built-in table (custom resources); same names win over built-ins. */
  readonly definitions?: Definitions;
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

export interface OpenApi {
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
  /** HTTP date of when the documents were built. */
  readonly lastModified: string;
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

export function createOpenApi(opts: OpenApiOptions): OpenApi {
  const now = opts.now ?? (() => new Date());
  const definitions = opts.definitions === undefined ? builtinDefinitions : { ...builtinDefinitions, ...opts.definitions };
  const swagger = buildSwagger({ resources: opts.resources, definitions, version: opts.version ?? DEFAULT_OPENAPI_VERSION });
  const v3 = new Map<string, ServedDocument>();
  for (const [key, doc] of buildV3Documents(swagger)) v3.set(key, served(JSON.stringify(doc)));
  let protobuf: Buffer | undefined;
  const index = { paths: Object.fromEntries([...v3].map(([key, doc]) => [key, { serverRelativeURL: v3Url(key, doc.hash) }])) };
  return {
    swagger,
    v2: served(JSON.stringify(swagger)),
    v2Protobuf: () => (protobuf ??= Buffer.from(encodeGnosticV2(swagger))),
    v3Index: served(JSON.stringify(index)),
    v3,
    lastModified: now().toUTCString(),
    now,
  };
}
