// Unknown-field detection for fieldValidation=Strict|Warn (KEP-2885). kube-apiserver
// finds unknown fields while strictly decoding into Go structs (built-ins) or while
// pruning against the structural schema (CRDs); we walk the OpenAPI schema table
// instead, which knows the same field names. Paths use the strict decoder's wording:
// `spec.containers[0].bar`, reported as `unknown field "spec.containers[0].bar"`.
// Called on every write, so it allocates only for the paths it reports.
import { builtinDefinitions, refName, type Definitions, type OpenApiSchema } from './definitions.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

export interface UnknownFieldsOptions {
  /** The table `$ref`s resolve against; CRD schemas pass their own. Default: the built-in table. */
  readonly definitions?: Definitions;
}

/**
 * The paths of fields in `obj` that the named definition does not declare, in
 * document order. An unknown definition name declares nothing we can check, so it
 * reports nothing (the caller decides whether that is an error).
 */
export function findUnknownFields(schemaName: string, obj: unknown, opts: UnknownFieldsOptions = {}): string[] {
  const definitions = opts.definitions ?? builtinDefinitions;
  const schema = definitions[schemaName];
  if (schema === undefined) return [];
  return findUnknownFieldsInSchema(schema, obj, { definitions });
}

/** Same as findUnknownFields for a schema given inline (CRD versions, tests). */
export function findUnknownFieldsInSchema(schema: OpenApiSchema, obj: unknown, opts: UnknownFieldsOptions = {}): string[] {
  const found: string[] = [];
  walk({ definitions: opts.definitions ?? builtinDefinitions, found }, schema, obj, '');
  return found;
}

interface Walk {
  readonly definitions: Definitions;
  readonly found: string[];
}

/** Follows `$ref` and the single-element `allOf: [{$ref}]` wrapper OpenAPI v3 uses. */
function resolve(w: Walk, schema: OpenApiSchema | undefined): OpenApiSchema | undefined {
  let s = schema;
  for (let hops = 0; s !== undefined && hops < 8; hops++) {
    if (s.$ref !== undefined) s = w.definitions[refName(s.$ref)];
    else if (s.properties === undefined && s.allOf?.length === 1) s = s.allOf[0];
    else return s;
  }
  return s;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function isIntOrString(s: OpenApiSchema): boolean {
  return s['x-kubernetes-int-or-string'] === true || s.format === 'int-or-string';
}

function walk(w: Walk, schema: OpenApiSchema | undefined, value: unknown, path: string): void {
  const s = resolve(w, schema);
  // Scalars, nulls and values of the wrong type are the decoder's and validation's
  // business, not unknown fields.
  if (s === undefined || value === null || typeof value !== 'object' || isIntOrString(s)) return;
  if (Array.isArray(value)) {
    if (s.items === undefined) return;
    for (let i = 0; i < value.length; i++) walk(w, s.items, value[i], `${path}[${i}]`);
    return;
  }
  walkObject(w, s, value as Record<string, unknown>, path);
}

function walkObject(w: Walk, s: OpenApiSchema, value: Record<string, unknown>, path: string): void {
  const props = s.properties;
  const additional = s.additionalProperties;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  // An object schema that declares neither properties nor a value schema is opaque in
  // Kubernetes (RawExtension, FieldsV1, apiextensions JSON): its Go type takes raw
  // bytes, so the strict decoder never looks inside. Embedded resources still have
  // their metadata checked.
  const open =
    s['x-kubernetes-preserve-unknown-fields'] === true ||
    additional === true ||
    (props === undefined && additional === undefined);
  for (const key of Object.keys(value)) {
    const child = value[key];
    const declared = props?.[key];
    if (declared !== undefined) {
      walk(w, declared, child, join(path, key));
    } else if (embedded && (key === 'apiVersion' || key === 'kind')) {
      continue;
    } else if (embedded && key === 'metadata') {
      walk(w, w.definitions[OBJECT_META], child, join(path, key));
    } else if (typeof additional === 'object') {
      walk(w, additional, child, join(path, key));
    } else if (!open) {
      w.found.push(join(path, key));
    }
  }
}
