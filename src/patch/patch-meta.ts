// What strategic merge needs to know about a field, read from the compiled schema's
// patch markers (x-kubernetes-patch-strategy, x-kubernetes-patch-merge-key):
// the same facts apimachinery reads from Go struct tags. A field the schema does
// not know gets no strategy: maps still merge key by key, lists are replaced.
import { builtinDefinitions, type ResourceSchema } from '../schema/definitions.js';
import { structuralOf, valuesOf, type Structural } from '../schema/structural/index.js';

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

function strategyOf(marker: unknown): PatchStrategy | undefined {
  // "merge,retainKeys": $retainKeys itself is a directive the patch carries, so
  // only merge-or-replace decides anything on the server.
  if (typeof marker !== 'string') return undefined;
  const parts = marker.split(',');
  return parts.includes('merge') ? 'merge' : parts.includes('replace') ? 'replace' : undefined;
}

function metaOf(node: Structural | undefined): PatchMeta {
  if (node === undefined) return NO_META;
  return {
    field(name) {
      const prop = node.properties?.get(name) ?? valuesOf(node);
      if (prop === undefined) return UNKNOWN_FIELD;
      const below = prop.type === 'array' ? prop.items : prop;
      return {
        strategy: strategyOf(prop.extensions.patchStrategy),
        mergeKey: prop.extensions.patchMergeKey,
        meta: metaOf(below),
      };
    },
  };
}

const NO_META: PatchMeta = { field: () => UNKNOWN_FIELD };
const UNKNOWN_FIELD: FieldPatchMeta = { strategy: undefined, mergeKey: undefined, meta: NO_META };

/** Patch metadata of a kind's schema (io.k8s.api.core.v1.Pod in the built-in table); unknown names know nothing. */
export function patchMetaFor(schema: ResourceSchema): PatchMeta {
  return metaOf(structuralOf(schema));
}

/**
 * Whether strategic merge can serve a kind: only built-in kinds, whose schema is
 * a definition of the built-in table. kube-apiserver refuses it (415) for every
 * custom resource, schema or not, so a kind bringing its own table is refused too.
 */
export function hasPatchMeta(schema: ResourceSchema): boolean {
  return schema.definitions === builtinDefinitions && structuralOf(schema) !== undefined;
}
