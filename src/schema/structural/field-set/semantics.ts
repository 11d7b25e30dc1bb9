// How a schema node's markers decide what apply owns inside a list or map: the
// rules kube-openapi's schemaconv applies when it turns OpenAPI into the schema
// structured-merge-diff walks (pkg/schemaconv, getListElementRelationship and
// getMapElementRelationship). Field sets, and later the apply merge, read them
// from here so both agree.
import type { Structural } from '../structural.js';

/**
 * - atomic: the list is one value, owned as a whole.
 * - set: items are scalars, each owned by its value (`v:`).
 * - map: items are objects, each owned by its key fields (`k:`); `keys` is empty
 *   only for a schema that says `map` without naming keys (kube refuses to build
 *   such a schema; fieldSetOf refuses the value).
 */
export type ListSemantics =
  | { readonly kind: 'atomic' }
  | { readonly kind: 'set' }
  | { readonly kind: 'map'; readonly keys: readonly string[] };

const ATOMIC: ListSemantics = Object.freeze({ kind: 'atomic' });
const SET: ListSemantics = Object.freeze({ kind: 'set' });

/**
 * `x-kubernetes-list-type` decides when present. Without it (built-in kinds
 * only), the strategic-merge markers do: patch strategy `merge` or
 * `merge,retainKeys` makes an associative list keyed by the patch merge key, or a
 * set when there is no merge key; any other strategy, or none, leaves it atomic.
 */
export function listSemanticsOf(node: Structural): ListSemantics {
  const ext = node.extensions;
  switch (ext.listType) {
    case 'atomic':
      return ATOMIC;
    case 'set':
      return SET;
    case 'map':
      return Object.freeze({ kind: 'map', keys: ext.listMapKeys ?? [] });
    case undefined:
      break;
  }
  if (ext.patchStrategy === 'merge' || ext.patchStrategy === 'merge,retainKeys') {
    return ext.patchMergeKey === undefined ? SET : Object.freeze({ kind: 'map', keys: [ext.patchMergeKey] });
  }
  return ATOMIC;
}

/**
 * Only `x-kubernetes-map-type: atomic` makes a map or struct one value; unset and
 * `granular` are the same (each field or entry owned on its own). Structs marked
 * atomic in Go (`+structType=atomic`, e.g. LabelSelector) carry this marker.
 */
export function isAtomicMap(node: Structural): boolean {
  return node.extensions.mapType === 'atomic';
}
