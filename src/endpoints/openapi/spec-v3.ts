// OpenAPI 3.0 documents cut from the Swagger document, one per discovery path the
// way kube-apiserver's /openapi/v3 index lists them: `api`, `api/v1`, `apis`,
// `apis/<g>`, `apis/<g>/<v>`, `version`. Schemas move to components.schemas and a
// `$ref` used as a property becomes `allOf: [{$ref}]` as kube-openapi writes it;
// bodies become requestBody and responses gain per-media-type content.
import { definitionRef, refName, type OpenApiSchema } from '../../schema/definitions.js';
import { reachable } from './spec-v2.js';
import { HTTP_METHODS, type SwaggerDocument, type SwaggerOperation, type SwaggerParameter } from './swagger.js';

type Json = Record<string, unknown>;

export interface OpenApiV3Document {
  readonly openapi: '3.0.0';
  readonly info: { readonly title: string; readonly version: string };
  readonly paths: Readonly<Record<string, Json>>;
  readonly components: { readonly schemas: Readonly<Record<string, Json>>; readonly securitySchemes: Json };
}

const V3_PREFIX = '#/components/schemas/';

/** The index key a Swagger path belongs to: `/api/v1/pods` → `api/v1`, `/apis/apps/` → `apis/apps`. */
export function v3KeyOf(path: string): string {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[0] === 'api') return parts.length === 1 ? 'api' : `api/${parts[1]}`;
  if (parts[0] === 'apis') return parts.slice(0, 3).join('/');
  return parts[0] ?? '';
}

/** v3 documents by index key, in key order. */
export function buildV3Documents(doc: SwaggerDocument): Map<string, OpenApiV3Document> {
  const byKey = new Map<string, Record<string, Json>>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const key = v3KeyOf(path);
    const paths = byKey.get(key) ?? {};
    byKey.set(key, paths);
    const converted: Json = {};
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (op !== undefined) converted[method] = convertOperation(op);
    }
    if (item.parameters !== undefined) converted.parameters = item.parameters.map(convertParameter);
    paths[path] = converted;
  }
  const schemaCache = new Map<string, Json>();
  const schemaOf = (name: string): Json => {
    let s = schemaCache.get(name);
    if (s === undefined) {
      s = convertSchema(doc.definitions[name]!, false);
      schemaCache.set(name, s);
    }
    return s;
  };
  const out = new Map<string, OpenApiV3Document>();
  for (const key of [...byKey.keys()].sort()) {
    const paths = byKey.get(key)!;
    const schemas: Record<string, Json> = {};
    for (const name of [...reachable(paths, (name) => (Object.hasOwn(doc.definitions, name) ? doc.definitions[name] : undefined), [])].sort()) schemas[name] = schemaOf(name);
    out.set(key, {
      openapi: '3.0.0',
      info: doc.info,
      paths,
      components: { schemas, securitySchemes: { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header' } } },
    });
  }
  return out;
}

function v3Ref(ref: string): string {
  return `${V3_PREFIX}${refName(ref)}`;
}

/** `inProperty`: the schema is the value of a properties entry (kube wraps refs there). */
export function convertSchema(schema: OpenApiSchema, inProperty: boolean): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref') continue;
    if (key === 'properties') {
      const props: Json = {};
      for (const [name, prop] of Object.entries(value as Record<string, OpenApiSchema>)) props[name] = convertSchema(prop, true);
      out.properties = props;
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = convertSchema(value as OpenApiSchema, false);
    } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
      out[key] = (value as OpenApiSchema[]).map((s) => convertSchema(s, false));
    } else {
      out[key] = value;
    }
  }
  if (schema.$ref === undefined) return out;
  const ref = { $ref: v3Ref(schema.$ref) };
  // OpenAPI 3.0 ignores siblings of $ref, so kube-openapi wraps a referenced property
  // (and any ref with siblings) in allOf to keep description and default beside it.
  if (inProperty || Object.keys(out).length > 0) return { allOf: [ref], ...out };
  return ref;
}

function convertParameter(p: SwaggerParameter): Json {
  return {
    name: p.name,
    in: p.in,
    ...(p.required === true ? { required: true } : {}),
    schema: { type: p.type, ...(p.uniqueItems === true ? { uniqueItems: true } : {}) },
  };
}

function convertOperation(op: SwaggerOperation): Json {
  const params = op.parameters ?? [];
  const body = params.find((p) => p.in === 'body');
  const out: Json = { tags: op.tags, operationId: op.operationId };
  const nonBody = params.filter((p) => p.in !== 'body').map(convertParameter);
  if (nonBody.length > 0) out.parameters = nonBody;
  if (body?.schema !== undefined) {
    const schema = convertSchema(body.schema, false);
    out.requestBody = {
      content: Object.fromEntries(op.consumes.map((media) => [media, { schema }])),
      ...(body.required === true ? { required: true } : {}),
    };
  }
  const responses: Json = {};
  for (const [code, response] of Object.entries(op.responses)) {
    const schema = response.schema === undefined ? undefined : convertSchema(response.schema, false);
    responses[code] = {
      description: response.description,
      ...(schema === undefined ? {} : { content: Object.fromEntries(op.produces.map((media) => [media, { schema }])) }),
    };
  }
  out.responses = responses;
  if (op['x-kubernetes-action'] !== undefined) out['x-kubernetes-action'] = op['x-kubernetes-action'];
  if (op['x-kubernetes-group-version-kind'] !== undefined) out['x-kubernetes-group-version-kind'] = op['x-kubernetes-group-version-kind'];
  return out;
}

/** Exposed for tests: a v2 ref in v3 spelling. */
export function toV3Ref(name: string): string {
  return v3Ref(definitionRef(name));
}
