// Defaulting of a decoded object from its schema's `default`s: apiextensions-apiserver
// pkg/apiserver/schema/defaulting (Default, PruneNonNullableNullsWithoutDefaults,
// PruneDefaults, ValidateDefaults).
//
// The order kube-apiserver runs for a custom resource, both when it decodes a
// request body and when it decodes an object read from storage (the same
// schemaCoercingDecoder and defaulter wrap both codecs):
//   1. prune unknown fields (prune.ts);
//   2. drop nulls the schema neither allows nor can default
//      (pruneNonNullableNullsWithoutDefaults);
//   3. coerce metadata (ObjectMeta's business, not here);
//   4. apply defaults (applyDefaults, which runs step 2 itself first, so a
//      caller that prunes and then defaults gets steps 1, 2 and 4 in order).
// Defaults themselves are pruned once, when first used, as kube prunes them when a
// CRD's schema is loaded (PruneDefaults): a default never brings back a field
// pruning would remove. Every use is a deep copy, so nothing a request does to its
// object reaches the schema's default.
import { goLiteral, invalidValue, type FieldError, type FieldPath } from '../field-errors.js';
import { setOwnField } from '../field-path.js';
import { cloneJson } from '../object.js';
import { prune } from './prune.js';
import type { Structural } from './structural.js';
import { goJson } from '../go-json.js';
import { validateValueGroups, type ValidateValuesOptions } from './validate-values.js';

export interface DefaultOptions {
  /** The value is a whole resource: defaults of its apiVersion, kind and metadata are not pruned. */
  readonly isResourceRoot?: boolean;
}

/** Nulls the schema refuses and cannot default, then every default; `value` is changed in place. */
export function applyDefaults(node: Structural, value: unknown, options: DefaultOptions = {}): void {
  pruneNonNullableNullsWithoutDefaults(node, value);
  defaultValue(value, node, options.isResourceRoot === true || node.extensions.embeddedResource, false);
}

/**
 * Removes members that are null where the schema is not nullable and has no
 * default: such a null would only fail validation, so kube drops it first.
 * Nulls in lists stay: an item has no name to drop.
 */
export function pruneNonNullableNullsWithoutDefaults(node: Structural | undefined, value: unknown): void {
  if (node === undefined || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) pruneNonNullableNullsWithoutDefaults(node.items, item);
    return;
  }
  const obj = value as Record<string, unknown>;
  for (const key in obj) {
    if (!Object.hasOwn(obj, key)) continue;
    const schema = memberSchema(node, key);
    const v = obj[key];
    if (v === null && schema !== undefined && !schema.nullable && !hasDefault(schema)) delete obj[key];
    else pruneNonNullableNullsWithoutDefaults(schema, v);
  }
}

/** A declared property's schema, else the map values' schema. */
function memberSchema(node: Structural, key: string): Structural | undefined {
  const prop = node.properties?.get(key);
  if (prop !== undefined) return prop;
  const ap = node.additionalProperties;
  return typeof ap === 'object' ? ap : undefined;
}

/** kube keeps a default as a Go value: a JSON `default: null` is no default. */
function hasDefault(node: Structural): boolean {
  return node.hasDefault && node.default !== null && node.default !== undefined;
}

/** A non-nullable null takes the default, as an absent member does. */
function wantsDefault(v: unknown, present: boolean, node: Structural): boolean {
  return !present || (v === null && !node.nullable);
}

const META_FIELDS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Default(): absent properties (and non-nullable nulls) with a default get a copy
 * of it, in schema order; then every member, defaulted ones included, is defaulted
 * in turn. Map values and list items that are non-nullable nulls take their
 * schema's default.
 */
function defaultValue(x: unknown, s: Structural | undefined, embedded: boolean, insideMeta: boolean): void {
  if (s === undefined || x === null || typeof x !== 'object') return;
  if (Array.isArray(x)) {
    const items = s.items;
    if (items === undefined) return;
    for (let i = 0; i < x.length; i++) {
      if (x[i] === null && !items.nullable && hasDefault(items)) x[i] = defaultCopy(items, insideMeta);
      defaultValue(x[i], items, items.extensions.embeddedResource, insideMeta);
    }
    return;
  }
  const obj = x as Record<string, unknown>;
  if (s.properties !== undefined) {
    for (const [key, prop] of s.properties) {
      if (!hasDefault(prop)) continue;
      const present = Object.hasOwn(obj, key);
      if (wantsDefault(present ? obj[key] : undefined, present, prop)) {
        setOwnField(obj, key, defaultCopy(prop, insideMeta || (embedded && META_FIELDS.has(key))));
      }
    }
  }
  const ap = s.additionalProperties;
  const values = typeof ap === 'object' ? ap : undefined;
  for (const key in obj) {
    if (!Object.hasOwn(obj, key)) continue;
    const prop = s.properties?.get(key);
    if (prop !== undefined) {
      defaultValue(obj[key], prop, prop.extensions.embeddedResource, insideMeta || (embedded && META_FIELDS.has(key)));
    } else if (values !== undefined) {
      if (obj[key] === null && !values.nullable && hasDefault(values)) setOwnField(obj, key, defaultCopy(values, insideMeta));
      defaultValue(obj[key], values, values.extensions.embeddedResource, insideMeta);
    }
  }
}

/** Defaults pruned by their own schema, once per node (kube's PruneDefaults at CRD load). */
const prunedDefaults = new WeakMap<Structural, { readonly value: unknown }>();

/**
 * A fresh copy of the node's default. Outside metadata it is pruned first (inside
 * an embedded resource's apiVersion, kind or metadata kube leaves it to ObjectMeta
 * coercion; TODO(#27): drop unknown ObjectMeta fields there too).
 */
function defaultCopy(node: Structural, insideMeta: boolean): unknown {
  if (insideMeta) return cloneJson(node.default);
  let cached = prunedDefaults.get(node);
  if (cached === undefined) {
    const value = cloneJson(node.default);
    prune(node, value, { isResourceRoot: false });
    cached = { value };
    prunedDefaults.set(node, cached);
  }
  return cloneJson(cached.value);
}

export interface ValidateDefaultsOptions {
  /** The schema is a resource's root (a CRD version's openAPIV3Schema). */
  readonly isResourceRoot: boolean;
  /** Refuse defaults with fields the schema would prune (CRDs of apiextensions.k8s.io/v1). */
  readonly requirePrunedDefaults: boolean;
  readonly validateEmbeddedMetadata?: ValidateValuesOptions['validateEmbeddedMetadata'];
}

/**
 * Checks every `default` of a schema as CRD validation does (ValidateDefaults):
 * pruned already, valid embedded apiVersion/kind/metadata, and valid against its
 * own schema's value validations. Paths name the schema: `<path>.properties[spec]
 * .properties[replicas].default`; additionalProperties are not followed (kube
 * forbids defaults there). The walk is over the schema, memoized by node, so a
 * recursive built-in definition ends.
 * TODO(#27): x-kubernetes-validations rules on defaults (cel/ sits above schema/),
 * and defaults inside embedded metadata checked as whole objects.
 */
export function validateDefaults(node: Structural, at: FieldPath, options: ValidateDefaultsOptions): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<Structural>();
  const visit = (s: Structural, p: FieldPath, embedded: boolean, insideMeta: boolean): void => {
    if (seen.has(s)) return;
    seen.add(s);
    const isEmbedded = embedded || s.extensions.embeddedResource;
    const meta = insideMeta && !s.extensions.embeddedResource;
    if (hasDefault(s)) errs.push(...defaultErrors(s, p.child('default'), { isEmbedded, insideMeta: meta, options }));
    if (s.items !== undefined) visit(s.items, p.child('items'), false, meta);
    if (s.properties !== undefined) {
      for (const [key, prop] of s.properties) visit(prop, p.child('properties').key(key), false, meta || (isEmbedded && META_FIELDS.has(key)));
    }
  };
  visit(node, at, options.isResourceRoot, false);
  return errs;
}

interface DefaultContext {
  readonly isEmbedded: boolean;
  readonly insideMeta: boolean;
  readonly options: ValidateDefaultsOptions;
}

/** One default: the first failing of pruning, embedded resource checks, value validation. */
function defaultErrors(s: Structural, p: FieldPath, ctx: DefaultContext): FieldError[] {
  const value = s.default;
  const opts: ValidateValuesOptions = { path: p, validateEmbeddedMetadata: ctx.options.validateEmbeddedMetadata };
  if (ctx.insideMeta) return validateValueGroups(s, value, opts).schema;
  const errs: FieldError[] = [];
  if (ctx.options.requirePrunedDefaults) {
    const pruned = cloneJson(value);
    prune(s, pruned, { isResourceRoot: ctx.isEmbedded });
    if (JSON.stringify(pruned) !== JSON.stringify(value)) errs.push(invalidValue(p, goLiteral(goJson(value)), 'must not have unknown fields'));
  }
  const groups = validateValueGroups(s, value, opts);
  // The embedded checks of a default that is itself an embedded resource run as at a resource root.
  const embedded = ctx.isEmbedded && !s.extensions.embeddedResource ? rootEmbeddedErrors(s, value, opts) : groups.embedded;
  if (embedded.length > 0) return [...errs, ...embedded];
  return [...errs, ...groups.schema];
}

/** objectmeta.Validate with isResourceRoot: the default's own apiVersion and kind are checked. */
function rootEmbeddedErrors(s: Structural, value: unknown, opts: ValidateValuesOptions): FieldError[] {
  const asEmbedded: Structural = { ...s, extensions: { ...s.extensions, embeddedResource: true } };
  return validateValueGroups(asEmbedded, value, opts).embedded;
}
