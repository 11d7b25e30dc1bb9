// Kubernetes' rules for lists with x-kubernetes-list-type set or map
// (k8s.io/apiserver/pkg/cel/common/values.go, unstructuredSetList and
// unstructuredMapList), which CEL's own list operators do not know:
//   set X + Y  union: X's elements in place, then Y's elements not yet present, in order;
//   map X + Y  merge: X's positions kept, an entry of Y replaces X's entry with the same
//              key, Y's other entries appended in order;
//   X == Y     ignores order (sets by element, maps by key then entry).
// As in cel-go the left operand decides: `[...] + self.set` is plain concatenation.
import { deepEqualJson, listTypeOf, markListType, SchemaObject } from './bindings.js';
import type { DeclType } from './schema-types.js';
import { celEquals } from './values.js';

/** A map key for a scalar set element: type and value, so 1 (int) and '1' stay apart. */
function setKey(v: unknown): string {
  return `${typeof v}:${String(v)}`;
}

function field(element: unknown, jsonName: string): unknown {
  if (element instanceof SchemaObject) return Object.hasOwn(element.raw, jsonName) ? element.raw[jsonName] : undefined;
  if (element instanceof Map) return element.get(jsonName);
  return undefined;
}

/** The key of a map-list entry: its x-kubernetes-list-map-keys values. */
function mapKey(element: unknown, keys: readonly string[]): string {
  return JSON.stringify(keys.map((k) => field(element, k)), (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}

function elementsEqual(a: unknown, b: unknown, decl: DeclType | undefined): boolean {
  if (a instanceof SchemaObject && b instanceof SchemaObject) return deepEqualJson(a.raw, b.raw, decl);
  return celEquals(a, b);
}

/** `l + r` when `l` is a set or map list; undefined for any other list (plain concatenation applies). */
export function concatListType(l: unknown, r: unknown): readonly unknown[] | undefined {
  const decl = listTypeOf(l);
  if (decl === undefined || !Array.isArray(l) || !Array.isArray(r)) return undefined;
  if (decl.listType === 'set') {
    const seen = new Set(l.map(setKey));
    const out = [...l];
    for (const v of r) {
      const k = setKey(v);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(v);
    }
    return markListType(out, decl);
  }
  const keys = decl.listMapKeys ?? [];
  const out = [...l];
  const position = new Map<string, number>();
  l.forEach((e, i) => position.set(mapKey(e, keys), i));
  for (const v of r) {
    const at = position.get(mapKey(v, keys));
    if (at === undefined) out.push(v);
    else out[at] = v;
  }
  return markListType(out, decl);
}

/** `l == r` when `l` is a set or map list; undefined for any other list (ordered equality applies). */
export function equalListType(l: unknown, r: unknown): boolean | undefined {
  const decl = listTypeOf(l);
  if (decl === undefined || !Array.isArray(l) || !Array.isArray(r)) return undefined;
  if (l.length !== r.length) return false;
  if (decl.listType === 'set') {
    const set = new Set(l.map(setKey));
    return r.every((v) => set.has(setKey(v)));
  }
  const keys = decl.listMapKeys ?? [];
  const byKey = new Map<string, unknown>();
  for (const e of l) byKey.set(mapKey(e, keys), e);
  return r.every((v) => {
    const k = mapKey(v, keys);
    return byKey.has(k) && elementsEqual(byKey.get(k), v, decl.elem);
  });
}
