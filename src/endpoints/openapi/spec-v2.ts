// Assembles the Swagger 2.0 document for exactly the served resources: their paths,
// the discovery paths, and every definition reachable from them (plus the meta
// types clients look up by name). /openapi/v2 serves it as is; the v3 documents are
// cut from it per group version. Every definition is written from the kind's
// compiled schema (schema/structural), never copied from a raw table.
import type { ResourceDefinition } from '../../registry/define-resource.js';
import { builtinDefinitions, definitionNameForGvk, definitionRef, refName, resolveSchemaName, type Definitions, type OpenApiSchema } from '../../schema/definitions.js';
import { structuralDefinition, toOpenApi, type Structural } from '../../schema/structural/index.js';
import type { GroupVersionKind } from '../../schema/object.js';
import { META_DEFINITIONS } from './parameters.js';
import { OBJECT_MEDIA_TYPES, WATCH_EVENT, groupVersionTag, groupWord, resourcePaths, type ResourceSchemas } from './paths.js';
import type { SwaggerDocument, SwaggerOperation, SwaggerPathItem } from './swagger.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const OBJECT_META = `${META}.ObjectMeta`;
const LIST_META = `${META}.ListMeta`;
const API_VERSIONS = `${META}.APIVersions`;
const API_GROUP_LIST = `${META}.APIGroupList`;
const API_GROUP = `${META}.APIGroup`;
const API_RESOURCE_LIST = `${META}.APIResourceList`;
const VERSION_INFO = 'io.k8s.apimachinery.pkg.version.Info';

/** Always published: clients and tools look these up by name. */
const ALWAYS: readonly string[] = [
  META_DEFINITIONS.STATUS, META_DEFINITIONS.DELETE_OPTIONS, META_DEFINITIONS.PATCH, LIST_META, WATCH_EVENT,
  API_RESOURCE_LIST, API_GROUP, API_GROUP_LIST, API_VERSIONS, VERSION_INFO,
];

export interface BuildSwaggerOptions {
  /** The served resources; each brings its schema and the table it resolves in. */
  readonly resources: readonly ResourceDefinition[];
  /** info.version, e.g. v1.36.0+kapi. */
  readonly version: string;
}

/**
 * The published definitions by name: each the compiled schema of the table that
 * declares it (the built-in one, or a table a served kind brings: a custom
 * resource's, whose names win over built-in ones), written back as OpenAPI. The
 * made-up schemas of schemaless kinds go in `extra`, never into a shared table.
 */
class DocumentTable {
  /** Tables by definition name, later tables winning; no prototype: `__proto__` is a name like any other. */
  private readonly tables: Record<string, Definitions> = Object.create(null) as Record<string, Definitions>;
  private readonly extra = new Map<string, OpenApiSchema>();

  constructor(resources: readonly ResourceDefinition[]) {
    const merged = new Set<Definitions>();
    for (const definitions of [builtinDefinitions, ...resources.map((r) => r.schema.definitions)]) {
      if (merged.has(definitions)) continue;
      merged.add(definitions);
      // Own names only: a table's names can come from clients (CRDs).
      for (const name of Object.keys(definitions)) this.tables[name] = definitions;
    }
  }

  has(name: string): boolean {
    return this.extra.has(name) || Object.hasOwn(this.tables, name);
  }

  /** Names a table declares, for lookups by GVK. */
  definitions(name: string): Definitions | undefined {
    return Object.hasOwn(this.tables, name) ? this.tables[name] : undefined;
  }

  /**
   * Adds a made-up schema unless the name is taken. It is published as written
   * here: no table holds it (a list's items refer to a made-up kind by name).
   */
  add(name: string, schema: OpenApiSchema): void {
    if (!this.has(name)) this.extra.set(name, schema);
  }

  get(name: string): OpenApiSchema | undefined {
    const made = this.extra.get(name);
    if (made !== undefined) return made;
    const definitions = this.definitions(name);
    const node = definitions === undefined ? undefined : structuralDefinition(definitions, name);
    return node === undefined ? undefined : published(node);
  }
}

/** Writing a node back is done once per node (publishing runs again on every catalog change). */
const publishedNodes = new WeakMap<Structural, OpenApiSchema>();

function published(node: Structural): OpenApiSchema {
  let schema = publishedNodes.get(node);
  if (schema === undefined) {
    schema = toOpenApi(node);
    publishedNodes.set(node, schema);
  }
  return schema;
}

export function buildSwagger(opts: BuildSwaggerOptions): SwaggerDocument {
  const table = new DocumentTable(opts.resources);
  const paths: Record<string, SwaggerPathItem> = {};
  for (const def of opts.resources) {
    Object.assign(paths, resourcePaths(def, resourceSchemas(def, table)));
  }
  Object.assign(paths, discoveryPaths(opts.resources));
  const served = new Set(opts.resources.map((r) => `${r.group}/${r.version}`));
  // fromEntries defines own properties, whatever the names.
  const definitions = Object.fromEntries([...reachable(paths, (name) => table.get(name))].sort().map((name) => [name, servedGvksOnly(table.get(name)!, served)]));
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: opts.version },
    paths: sortKeys(paths),
    definitions,
    securityDefinitions: { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header' } },
    security: [{ BearerToken: [] }],
  };
}

/**
 * The definitions a resource answers with. Kinds the table lacks (custom or test
 * groups without a schema) get a minimal object schema that keeps unknown fields,
 * as kube-apiserver publishes schemaless custom resources.
 */
function resourceSchemas(def: ResourceDefinition, table: DocumentTable): ResourceSchemas {
  const gvk: GroupVersionKind = { group: def.group, version: def.version, kind: def.kind };
  const own = table.definitions(def.schema.name) ?? def.schema.definitions;
  const kind = resolveSchemaName({ ...gvk, schemaName: def.schema.name }, own) ?? def.schema.name;
  table.add(kind, {
    type: 'object',
    properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { $ref: definitionRef(OBJECT_META) } },
    'x-kubernetes-preserve-unknown-fields': true,
    'x-kubernetes-group-version-kind': [gvk],
  });
  const list = kind.endsWith(def.kind) ? `${kind.slice(0, -def.kind.length)}${def.listKind}` : `${kind}List`;
  table.add(list, {
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string' },
      items: { type: 'array', items: { $ref: definitionRef(kind) } },
      kind: { type: 'string' },
      metadata: { $ref: definitionRef(LIST_META) },
    },
    'x-kubernetes-group-version-kind': [{ ...gvk, kind: def.listKind }],
  });
  const subresources: Record<string, { schema: string; gvk: GroupVersionKind }> = {};
  for (const [sub, subDef] of Object.entries(def.subresources)) {
    const response = subDef.responseKind;
    const schema = response === undefined ? undefined : definitionNameForGvk(response, builtinDefinitions);
    subresources[sub] = response !== undefined && schema !== undefined ? { schema, gvk: response } : { schema: kind, gvk };
  }
  return { kind, list, subresources };
}

function discoveryOperation(operationId: string, tag: string, schemaName: string, media = OBJECT_MEDIA_TYPES): SwaggerOperation {
  return {
    operationId,
    tags: [tag],
    consumes: media,
    produces: media,
    schemes: ['https'],
    responses: { '200': { description: 'OK', schema: { $ref: definitionRef(schemaName) } }, '401': { description: 'Unauthorized' } },
  };
}

/** /api/, /apis/, /apis/<g>/, the per-group-version resource lists and /version/. */
function discoveryPaths(resources: readonly ResourceDefinition[]): Record<string, SwaggerPathItem> {
  const paths: Record<string, SwaggerPathItem> = {
    '/api/': { get: discoveryOperation('getCoreAPIVersions', 'core', API_VERSIONS) },
    '/apis/': { get: discoveryOperation('getAPIVersions', 'apis', API_GROUP_LIST) },
    '/version/': { get: discoveryOperation('getCodeVersion', 'version', VERSION_INFO, ['application/json']) },
  };
  for (const r of resources) {
    const gv = `${groupWord(r.group)}${r.version[0]!.toUpperCase()}${r.version.slice(1)}`;
    if (r.group === '') {
      paths[`/api/${r.version}/`] = { get: discoveryOperation(`get${gv}APIResources`, groupVersionTag(r), API_RESOURCE_LIST) };
      continue;
    }
    const word = groupWord(r.group);
    paths[`/apis/${r.group}/`] = { get: discoveryOperation(`get${word}APIGroup`, `${word[0]!.toLowerCase()}${word.slice(1)}`, API_GROUP) };
    paths[`/apis/${r.group}/${r.version}/`] = { get: discoveryOperation(`get${gv}APIResources`, groupVersionTag(r), API_RESOURCE_LIST) };
  }
  return paths;
}

/** Every $ref found anywhere below `value`. */
export function collectRefs(value: unknown, into: (name: string) => void): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, into);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    if (key === '$ref' && typeof v === 'string') into(refName(v));
    else collectRefs(v, into);
  }
}

/** Names of the definitions the paths need, closed over references between definitions. */
export function reachable(roots: unknown, table: (name: string) => OpenApiSchema | undefined, always: readonly string[] = ALWAYS): Set<string> {
  const seen = new Set<string>();
  const queue: string[] = [];
  const visit = (name: string): void => {
    if (seen.has(name) || table(name) === undefined) return;
    seen.add(name);
    queue.push(name);
  };
  collectRefs(roots, visit);
  for (const name of always) visit(name);
  while (queue.length > 0) collectRefs(table(queue.pop()!), visit);
  return seen;
}

/**
 * Shared meta types (DeleteOptions, WatchEvent) declare a GVK in every upstream group;
 * publish only the groups we serve, so clients do not map kinds to absent groups.
 */
function servedGvksOnly(schema: OpenApiSchema, served: ReadonlySet<string>): OpenApiSchema {
  const gvks = schema['x-kubernetes-group-version-kind'];
  if (gvks === undefined) return schema;
  const kept = gvks.filter((g) => served.has(`${g.group}/${g.version}`));
  return kept.length === 0 || kept.length === gvks.length ? schema : { ...schema, 'x-kubernetes-group-version-kind': kept };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key]!;
  return out;
}
