// Pruning: removes, in place, the members of a decoded object that its schema
// does not declare. kube-apiserver prunes every custom resource it decodes, on a
// write and on a read from storage, before defaulting (default.ts) and value
// validation (validate-values.ts): apiextensions-apiserver
// pkg/apiserver/schema/pruning (PruneWithOptions). The pruned paths come back as
// the strict decoder prints them (`spec.foo`, `spec.list[0].bar`, a map value
// `spec.map.key`), sorted as Go's sort.Strings sorts them, for fieldValidation
// Strict (refuse with them) and Warn (warn with them).
//
// The rules, as upstream:
//   - below x-kubernetes-preserve-unknown-fields nothing undeclared is removed,
//     but declared properties (and map values) are pruned by their own schemas;
//   - at the resource root and in x-kubernetes-embedded-resource objects,
//     apiVersion, kind and metadata are left untouched (metadata's own fields are
//     ObjectMeta's: kube coerces them separately, objectmeta.Coerce);
//   - a map whose value schema is missing (`additionalProperties: true`) keeps
//     its keys but its object values lose every member, as kube's nil schema does.
// One addition for the built-in table, which kube never prunes: a definition that
// is an opaque object (RawExtension, FieldsV1) keeps its content, as its Go type
// does and as typed decoding (typed.ts) does.
//
// Keys are data: own members only, found with for-in and Object.hasOwn and removed
// with `delete`, so `__proto__` and `constructor` are ordinary names.
import { compareGoStrings } from '../go-strings.js';
import { isOpaqueObject, type Structural } from './structural.js';

export interface PruneOptions {
  /** The value is a whole resource: apiVersion, kind and metadata at its top are kept. */
  readonly isResourceRoot: boolean;
}

/**
 * Removes what `node` does not declare from `value` (in place) and answers the
 * removed paths, sorted. The walk follows the value, so a recursive schema costs
 * what the value's depth costs (bounded at decode, codecs/depth.ts).
 */
export function prune(node: Structural, value: unknown, options: PruneOptions): string[] {
  const w: Walk = { steps: [], pruned: undefined, rendered: [], renderedDepth: 0 };
  pruneValue(w, value, node, options.isResourceRoot || node.extensions.embeddedResource);
  const pruned = w.pruned ?? [];
  if (pruned.length < 2) return pruned;
  // Without surrogates UTF-16 order is Go's byte order, and the built-in sort is much faster.
  return pruned.some((p) => SURROGATE.test(p)) ? pruned.sort(compareGoStrings) : pruned.sort();
}

const SURROGATE = /[\ud800-\udfff]/;

interface Walk {
  /** The path of the value being pruned; a string is a member name or map key, a number an index. */
  readonly steps: (string | number)[];
  pruned: string[] | undefined;
  /**
   * The text of the path's first i steps, rendered only when a field is pruned and
   * valid for the first renderedDepth entries: siblings pruned from one object
   * share their parent's text instead of each rendering the whole path again.
   */
  readonly rendered: string[];
  renderedDepth: number;
}

const META_FIELDS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The schema of a member that is not a declared property: undefined (none), null (kube's nil schema), or a node. */
function valuesSchema(node: Structural): Structural | null | undefined {
  const ap = node.additionalProperties;
  if (ap === undefined) return undefined;
  return typeof ap === 'object' ? ap : null;
}

/** Whether the node keeps whatever it holds: preserve-unknown-fields, or a built-in opaque object. */
function preserves(node: Structural): boolean {
  return node.extensions.preserveUnknownFields || (node.name !== undefined && node.type === 'object' && isOpaqueObject(node));
}

function record(w: Walk, key: string): void {
  const depth = w.steps.length;
  for (let i = w.renderedDepth; i < depth; i++) w.rendered[i] = join(i === 0 ? '' : w.rendered[i - 1]!, w.steps[i]!);
  w.renderedDepth = depth;
  (w.pruned ??= []).push(join(depth === 0 ? '' : w.rendered[depth - 1]!, key));
}

/** One more step on a rendered path, as renderFieldPath prints it. */
function join(prefix: string, step: string | number): string {
  if (typeof step === 'number') return `${prefix}[${step}]`;
  return prefix === '' ? step : `${prefix}.${step}`;
}

/** The walk leaves the current step: rendered text past it is stale. */
function leave(w: Walk): void {
  w.steps.pop();
  if (w.renderedDepth > w.steps.length) w.renderedDepth = w.steps.length;
}

/** `s` null is kube's nil schema: every member of an object below it goes. */
function pruneValue(w: Walk, x: unknown, s: Structural | null, embedded: boolean): void {
  if (s !== null && preserves(s)) {
    skipPrune(w, x, s, embedded);
    return;
  }
  if (Array.isArray(x)) {
    const items = s === null ? null : (s.items ?? null);
    for (let i = 0; i < x.length; i++) {
      w.steps.push(i);
      pruneValue(w, x[i], items, items !== null && items.extensions.embeddedResource);
      leave(w);
    }
    return;
  }
  if (!isObject(x)) return;
  const values = s === null ? undefined : valuesSchema(s);
  // for-in meets own keys without copying them; deleting the current key is safe.
  for (const key in x) {
    if (!Object.hasOwn(x, key)) continue;
    if (s !== null && embedded && META_FIELDS.has(key)) continue;
    const prop = s?.properties?.get(key);
    if (prop !== undefined) {
      descend(w, key, x[key], prop);
    } else if (values !== undefined) {
      descend(w, key, x[key], values);
    } else {
      // A meta field at the top of a value that is not a resource goes silently (kube's rule).
      if (!META_FIELDS.has(key) || w.steps.length > 0) record(w, key);
      delete x[key];
    }
  }
}

function descend(w: Walk, key: string, x: unknown, s: Structural | null): void {
  w.steps.push(key);
  pruneValue(w, x, s, s !== null && s.extensions.embeddedResource);
  leave(w);
}

/** Below preserve-unknown-fields: undeclared members stay; declared ones are pruned by their schemas. */
function skipPrune(w: Walk, x: unknown, s: Structural, embedded: boolean): void {
  if (Array.isArray(x)) {
    const items = s.items;
    if (items === undefined) return;
    for (let i = 0; i < x.length; i++) {
      w.steps.push(i);
      skipPrune(w, x[i], items, items.extensions.embeddedResource);
      leave(w);
    }
    return;
  }
  if (!isObject(x)) return;
  const values = valuesSchema(s);
  for (const key in x) {
    if (!Object.hasOwn(x, key)) continue;
    if (embedded && META_FIELDS.has(key)) continue;
    const prop = s.properties?.get(key);
    if (prop !== undefined) descend(w, key, x[key], prop);
    else if (values !== undefined) descend(w, key, x[key], values);
  }
}

