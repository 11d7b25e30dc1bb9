// What strategic merge needs to know about a field, read from the OpenAPI markers
// the generator kept (x-kubernetes-patch-strategy, x-kubernetes-patch-merge-key):
// the same facts apimachinery reads from Go struct tags. A field the schema does
// not know gets no strategy: maps still merge key by key, lists are replaced.
import { builtinDefinitions, definitionOf, refName, type Definitions, type OpenApiSchema, type ResourceSchema } from '../schema/definitions.js';

export type PatchStrategy = 'merge' | 'replace';

export interface FieldPatchMeta {
  /**
   * The field's declared strategy; undefined when it declares none. Lists merge
   * only under 'merge' (else the patch replaces them); maps merge unless 'replace'.
   */
  readonly strategy: PatchStrategy | undefined;
  /** The key that identifies elements of a merged list of maps (containers: name). */
  readonly mergeKey: string | undefined;
  /** The schema below this field (a list's elements, a map's values, a struct's fields). */
  readonly meta: PatchMeta;
}

export interface PatchMeta {
  /** The meta of a struct field or of a map value; never throws for unknown names. */
  field(name: string): FieldPatchMeta;
}

const MAX_REF_DEPTH = 32;

function resolve(defs: Definitions, schema: OpenApiSchema | undefined): OpenApiSchema | undefined {
  let cur = schema;
  for (let i = 0; cur !== undefined && i < MAX_REF_DEPTH; i++) {
    if (cur.$ref !== undefined) cur = definitionOf(defs, refName(cur.$ref));
    // Generated v3-style wrappers: a single allOf around a $ref.
    else if (cur.allOf?.length === 1 && cur.properties === undefined) cur = cur.allOf[0];
    else return cur;
  }
  return cur;
}

function strategyOf(marker: unknown): PatchStrategy | undefined {
  // "merge,retainKeys": $retainKeys itself is a directive the patch carries, so
  // only merge-or-replace decides anything on the server.
  if (typeof marker !== 'string') return undefined;
  const parts = marker.split(',');
  return parts.includes('merge') ? 'merge' : parts.includes('replace') ? 'replace' : undefined;
}

function metaOf(defs: Definitions, schema: OpenApiSchema | undefined): PatchMeta {
  const resolved = resolve(defs, schema);
  return {
    field(name) {
      const props = resolved?.properties;
      const additional = resolved?.additionalProperties;
      const prop =
        props !== undefined && Object.hasOwn(props, name)
          ? props[name]
          : typeof additional === 'object'
            ? additional
            : undefined;
      if (prop === undefined) return UNKNOWN_FIELD;
      const target = resolve(defs, prop);
      const below = target?.type === 'array' ? target.items : prop;
      const mergeKey = prop['x-kubernetes-patch-merge-key'];
      return {
        strategy: strategyOf(prop['x-kubernetes-patch-strategy']),
        mergeKey: typeof mergeKey === 'string' ? mergeKey : undefined,
        meta: metaOf(defs, below),
      };
    },
  };
}

const NO_META: PatchMeta = { field: () => UNKNOWN_FIELD };
const UNKNOWN_FIELD: FieldPatchMeta = { strategy: undefined, mergeKey: undefined, meta: NO_META };

/** Patch metadata of a kind's schema (io.k8s.api.core.v1.Pod in the built-in table); unknown names know nothing. */
export function patchMetaFor(schema: ResourceSchema): PatchMeta {
  const root = definitionOf(schema.definitions, schema.name);
  return root === undefined ? NO_META : metaOf(schema.definitions, root);
}

/**
 * Whether strategic merge can serve a kind: only built-in kinds, whose schema is
 * a definition of the built-in table. kube-apiserver refuses it (415) for every
 * custom resource, schema or not, so a kind bringing its own table is refused too.
 */
export function hasPatchMeta(schema: ResourceSchema): boolean {
  return schema.definitions === builtinDefinitions && definitionOf(builtinDefinitions, schema.name) !== undefined;
}
