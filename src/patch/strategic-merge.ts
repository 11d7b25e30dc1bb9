// Strategic merge patch (application/strategic-merge-patch+json), the patch type
// kubectl sends for built-in kinds (apply, set, patch). Semantics are
// apimachinery's strategicpatch as the server runs it (MergeParallelList,
// IgnoreUnmatchedNulls), reimplemented over the schema markers in patch-meta.ts:
//   maps merge key by key (null deletes) unless the field's strategy is replace;
//   lists merge only under strategy merge: maps by the merge key, primitives as a
//     de-duplicated union; every other list is replaced by the patch;
//   directives: `$patch: replace|delete` (in a map, or as a list element),
//     `$retainKeys`, `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>`.
// Element order after a merge: the patch's elements in patch (or
// $setElementOrder) order, the server's other elements kept where they were.
import { badRequest } from '../errors/status-error.js';
import { patchRejected, patchUndecodable } from './errors.js';
import { cloneJson, getOwn, goFormat, goJsonType, isJsonMap, parseJson, setOwn, type Json, type JsonMap } from './json.js';
import type { FieldPatchMeta, PatchMeta } from './patch-meta.js';

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ELEMENT_ORDER = '$setElementOrder/';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';

// apimachinery's mergepatch error texts; the first three kube answers with 400.
const BAD_PRIMITIVE_LIST = 'invalid patch format of primitive list';
const BAD_RETAIN_KEYS = 'invalid patch format of retainKeys';
const BAD_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';
const RETAIN_KEYS_MISMATCH = "patch content doesn't match retainKeys list";
const NO_LIST_OF_LISTS = 'lists of lists are not supported';

/** Decodes the body as kube does (json.Unmarshal into a map: `null` is an empty patch). */
export function decodeStrategicPatch(body: Buffer | string): JsonMap {
  const parsed = parseJson(body);
  if (!parsed.ok) throw patchUndecodable(parsed.message);
  if (parsed.value === null) return {};
  if (!isJsonMap(parsed.value)) {
    throw patchUndecodable(`json: cannot unmarshal ${goJsonType(parsed.value)} into Go value of type map[string]interface {}`);
  }
  return parsed.value;
}

/**
 * The patched copy of `original`; neither input is changed. Every keyed access
 * is by own member (getOwn/setOwn), so `__proto__` or `toString` in a patch is
 * an ordinary field. The result nests no deeper than the deeper of its inputs
 * (a merge only places patch subtrees where the original had a member), so the
 * decode-time depth bound still holds after it.
 */
export function strategicMerge(original: JsonMap, patch: JsonMap, meta: PatchMeta): JsonMap {
  return mergeMap(cloneJson(original), cloneJson(patch), meta);
}

/** Merges `patch` into `original`, which it owns and may change. */
function mergeMap(original: JsonMap, patch: JsonMap, meta: PatchMeta): JsonMap {
  if (Object.hasOwn(patch, DIRECTIVE)) return mapDirective(patch, meta);
  applyRetainKeys(original, patch);
  // Ordered lists first: they consume their list from the patch.
  applyElementOrders(original, patch, meta);
  for (const [rawKey, value] of Object.entries(patch)) {
    if (rawKey === RETAIN_KEYS || rawKey.startsWith(SET_ELEMENT_ORDER)) continue;
    if (rawKey.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      deleteFromPrimitiveList(original, rawKey.slice(DELETE_FROM_PRIMITIVE_LIST.length), value);
      continue;
    }
    mergeField(original, { key: rawKey, value, field: meta.field(rawKey) });
  }
  return original;
}

function mergeField(original: JsonMap, opts: { key: string; value: Json; field: FieldPatchMeta }): void {
  const { key, value, field } = opts;
  const current = getOwn(original, key);
  if (value === null) {
    delete original[key];
  } else if (current === undefined || current === null) {
    setOrDrop(original, key, fresh(value, field));
  } else if (isJsonMap(current) && isJsonMap(value)) {
    setOwn(original, key, field.strategy === 'replace' ? fresh(value, { ...field, strategy: undefined }) : mergeMap(current, value, field.meta));
  } else if (Array.isArray(current) && Array.isArray(value)) {
    setOrDrop(original, key, field.strategy === 'merge' ? mergeList(current, value, field) : value);
  } else {
    // Different types, or scalars: the patch's value wins.
    setOwn(original, key, fresh(value, field));
  }
}

/** Lists that merge away to nothing are omitted, as encoding the typed object (omitempty) would. */
function setOrDrop(target: JsonMap, key: string, value: Json): void {
  if (Array.isArray(value) && value.length === 0) delete target[key];
  else setOwn(target, key, value);
}

/** A patch value with no counterpart in the object: its directives and nulls are resolved against nothing. */
function fresh(value: Json, field: FieldPatchMeta): Json {
  if (isJsonMap(value)) return mergeMap({}, value, field.meta);
  if (Array.isArray(value) && field.strategy === 'merge') return mergeList([], value, field);
  return value;
}

function mapDirective(patch: JsonMap, meta: PatchMeta): JsonMap {
  const directive = patch[DIRECTIVE];
  if (directive === 'delete') return {};
  if (directive === 'replace') {
    const { [DIRECTIVE]: _directive, ...rest } = patch;
    return mergeMap({}, rest, meta);
  }
  throw badRequest(`unknown patch type: ${goFormat(directive)} in map: ${goFormat(patch)}`);
}

/** `$retainKeys`: keys of the object not listed are cleared before the merge (e.g. a volume's source). */
function applyRetainKeys(original: JsonMap, patch: JsonMap): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return;
  const keys = patch[RETAIN_KEYS];
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string')) throw badRequest(BAD_RETAIN_KEYS);
  const keep = new Set(keys);
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$') || v === null) continue;
    if (!keep.has(k)) throw patchRejected(RETAIN_KEYS_MISMATCH);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

function deleteFromPrimitiveList(original: JsonMap, key: string, value: Json): void {
  if (!Array.isArray(value)) throw badRequest(BAD_PRIMITIVE_LIST);
  const current = getOwn(original, key);
  if (!Array.isArray(current)) return;
  setOrDrop(original, key, current.filter((item) => !value.some((gone) => sameValue(gone, item))));
}

/** `$setElementOrder/<list>`: merge the list, then order it as the directive says. */
function applyElementOrders(original: JsonMap, patch: JsonMap, meta: PatchMeta): void {
  for (const directiveKey of Object.keys(patch)) {
    if (!directiveKey.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = getOwn(patch, directiveKey);
    const key = directiveKey.slice(SET_ELEMENT_ORDER.length);
    const field = meta.field(key);
    const current = getOwn(original, key);
    const patchList = getOwn(patch, key);
    if (!Array.isArray(order)) throw badRequest(BAD_SET_ELEMENT_ORDER);
    if ((current !== undefined && !Array.isArray(current)) || (patchList !== undefined && !Array.isArray(patchList))) {
      throw badRequest(BAD_SET_ELEMENT_ORDER);
    }
    checkAgainstOrder(patchList ?? [], order, field.mergeKey);
    if (current === undefined && patchList === undefined) continue;
    let merged: Json[];
    if (patchList === undefined) merged = current ?? [];
    else if (current === undefined) merged = asList(fresh(patchList, field));
    else merged = field.strategy === 'merge' ? mergeList(current, patchList, field) : patchList;
    const parts = partition(merged, order, field.mergeKey);
    setOrDrop(original, key, normalizeOrder({ ...parts, patchOrder: order, serverOrder: current ?? [], mergeKey: field.mergeKey }));
    delete patch[key];
  }
}

function asList(value: Json): Json[] {
  return Array.isArray(value) ? value : [];
}

/** Every element the patch sets must appear in $setElementOrder, in the same relative order. */
function checkAgainstOrder(patchList: readonly Json[], order: readonly Json[], mergeKey: string | undefined): void {
  let last = -1;
  for (const item of patchList) {
    if (isJsonMap(item) && Object.hasOwn(item, DIRECTIVE)) continue;
    const at = indexIn(order, item, mergeKey);
    if (at < 0 || at < last) throw badRequest(BAD_SET_ELEMENT_ORDER);
    last = at;
  }
}

type ElementKind = 'map' | 'scalar' | 'empty';

function elementKind(items: readonly Json[]): ElementKind {
  let kind: ElementKind = 'empty';
  for (const item of items) {
    if (Array.isArray(item)) throw patchRejected(NO_LIST_OF_LISTS);
    const k: ElementKind = isJsonMap(item) ? 'map' : 'scalar';
    if (kind !== 'empty' && kind !== k) throw badRequest(`mismatched element types in list: ${goFormat(items)}`);
    kind = k;
  }
  return kind;
}

/** Merges two lists under strategy merge; `original` may be changed. */
function mergeList(original: Json[], patch: Json[], field: FieldPatchMeta): Json[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = elementKind([...original, ...patch]);
  if (kind !== 'map') {
    const merged = [...original];
    for (const item of patch) if (!merged.some((m) => sameValue(m, item))) merged.push(item);
    return normalizeOrder({ ...partition(merged, patch, undefined), patchOrder: patch, serverOrder: original, mergeKey: undefined });
  }
  const mergeKey = field.mergeKey;
  if (mergeKey === undefined) throw badRequest('cannot merge lists without merge key');
  const special = applySpecialElements(original, patch as JsonMap[], { ...field, mergeKey });
  const merged = [...special.original];
  for (const item of special.patch) {
    const at = indexIn(merged, item, mergeKey);
    if (at >= 0) merged[at] = mergeMap(merged[at] as JsonMap, item, field.meta);
    else merged.push(mergeMap({}, item, field.meta));
  }
  return normalizeOrder({ ...partition(merged, special.patch, mergeKey), patchOrder: special.patch, serverOrder: special.original, mergeKey });
}

/** List elements carrying `$patch`: delete removes by merge key, replace makes the patch the whole list. */
function applySpecialElements(original: Json[], patch: JsonMap[], field: FieldPatchMeta & { mergeKey: string }): { original: Json[]; patch: JsonMap[] } {
  const mergeKey = field.mergeKey;
  let remaining = original;
  let replace = false;
  const plain: JsonMap[] = [];
  for (const item of patch) {
    if (!Object.hasOwn(item, DIRECTIVE)) {
      if (!Object.hasOwn(item, mergeKey)) throw badRequest(`map: ${goFormat(item)} does not contain declared merge key: ${mergeKey}`);
      plain.push(item);
      continue;
    }
    const directive = item[DIRECTIVE];
    if (directive === 'delete') {
      if (!Object.hasOwn(item, mergeKey)) throw badRequest(`map: ${goFormat(item)} does not contain declared merge key: ${mergeKey}`);
      remaining = remaining.filter((o) => !(isJsonMap(o) && sameValue(getOwn(o, mergeKey), getOwn(item, mergeKey))));
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw badRequest('merging lists cannot yet be specified in the patch');
    } else {
      throw badRequest(`unknown patch type: ${goFormat(directive)} in map: ${goFormat(item)}`);
    }
  }
  if (replace) return { original: plain.map((p) => mergeMap({}, p, field.meta)), patch: [] };
  return { original: remaining, patch: plain };
}

function sameValue(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  return typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b);
}

/** Position of `item` in `list`: by merge key for maps, by value for primitives; -1 when absent. */
function indexIn(list: readonly Json[], item: Json, mergeKey: string | undefined): number {
  if (mergeKey !== undefined && isJsonMap(item)) {
    const want = getOwn(item, mergeKey);
    return list.findIndex((o) => isJsonMap(o) && sameValue(getOwn(o, mergeKey), want));
  }
  return list.findIndex((o) => sameValue(o, item));
}

/** Splits merged elements into those the patch (or order list) names and the server's others. */
function partition(merged: readonly Json[], named: readonly Json[], mergeKey: string | undefined): { patchItems: Json[]; serverOnly: Json[] } {
  const patchItems: Json[] = [];
  const serverOnly: Json[] = [];
  for (const item of merged) (indexIn(named, item, mergeKey) >= 0 ? patchItems : serverOnly).push(item);
  return { patchItems, serverOnly };
}

function sortByOrder(items: Json[], order: readonly Json[], mergeKey: string | undefined): Json[] {
  const rank = (item: Json): number => {
    const at = indexIn(order, item, mergeKey);
    return at < 0 ? Number.MAX_SAFE_INTEGER : at;
  };
  return items.map((item, i) => ({ item, r: rank(item), i })).sort((a, b) => a.r - b.r || a.i - b.i).map((e) => e.item);
}

/**
 * Patch elements in patch order, server-only elements in server order, then
 * interleaved: a server-only element goes before the next patch element when it
 * stood before it on the server (apimachinery's normalizeElementOrder).
 */
function normalizeOrder(opts: {
  patchItems: Json[];
  serverOnly: Json[];
  patchOrder: readonly Json[];
  serverOrder: readonly Json[];
  mergeKey: string | undefined;
}): Json[] {
  const right = sortByOrder(opts.patchItems, opts.patchOrder, opts.mergeKey);
  const left = sortByOrder(opts.serverOnly, opts.serverOrder, opts.mergeKey);
  const out: Json[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]!);
    else if (j >= right.length) out.push(left[i++]!);
    else {
      const li = indexIn(opts.serverOrder, left[i]!, opts.mergeKey);
      const ri = indexIn(opts.serverOrder, right[j]!, opts.mergeKey);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]!);
      else out.push(right[j++]!);
    }
  }
  return out;
}
