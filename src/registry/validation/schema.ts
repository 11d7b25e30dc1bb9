// The first validation layer, derived from the kind's OpenAPI schema rather than
// written per kind: required fields, enums, and the uniqueness that list-type
// markers promise (`x-kubernetes-list-type: map` keys, `set` items). Types and
// formats (int32/int64 ranges, date-time, byte, quantities) are already refused by
// the typed decode (schema/typed.ts) before any step runs, as Go's decoder does.
// The write pipeline's validate step runs this before the kind's own rules and
// drops a cause here when those rules report the same field (their wording wins).
//
// Built-in kinds are decoded into Go structs by kube-apiserver, so a schema
// `required` there means "never omitted when Go writes it", not "refused when a
// client omits it": an absent field becomes Go's zero value and only the kind's
// handwritten rules judge it. The built-in rules below follow that:
//   - an absent required struct is validated as the zero struct (its own required
//     fields are reported, at their paths, as kube's rules name them);
//   - an absent required boolean or number is Go's false/0, which kube accepts
//     unless a rule of the kind says otherwise: not reported here;
//   - `status` and `metadata` of the root are left to status strategies and the
//     ObjectMeta rules (kube does not validate status against the schema);
//   - list-maps and sets where kube accepts duplicates (it warns instead) are
//     exempt (DUPLICATES_ACCEPTED).
// Custom tables (CRDs) get the structural-schema reading: absent means Required.
//
// The schema is compiled once per (table, root definition) and cached; a request
// only walks the parts of its object that have something to check.
import type { Definitions, OpenApiSchema, ResourceSchema } from '../../schema/definitions.js';
import { builtinDefinitions, followRefs, type ResolvedSchema } from '../../schema/definitions.js';
import { duplicate, notSupported, required, type FieldError, type FieldPath, path } from '../../errors/field-errors.js';
import type { PathElement } from '../../schema/field-path.js';

/**
 * Built-in list-maps and sets whose duplicates kube-apiserver accepts: its
 * validation warns (env: "hides previous definition"; container ports: "duplicate
 * port definition") or does not look, so refusing them would refuse what kube keeps.
 * Keyed `<definition>.<property>`.
 */
const DUPLICATES_ACCEPTED: ReadonlySet<string> = new Set([
  'io.k8s.api.core.v1.Container.env',
  'io.k8s.api.core.v1.Container.ports',
  'io.k8s.api.core.v1.EphemeralContainer.env',
  'io.k8s.api.core.v1.EphemeralContainer.ports',
  'io.k8s.api.core.v1.PodSpec.imagePullSecrets',
  'io.k8s.api.core.v1.PodSpec.hostAliases',
  'io.k8s.api.core.v1.ServiceAccount.secrets',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.finalizers',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.ownerReferences',
]);

/**
 * Built-in required strings whose empty (Go zero) value kube accepts, so an
 * absent one is not refused either (a header or sysctl may have an empty value).
 */
const ZERO_ACCEPTED: ReadonlySet<string> = new Set(['io.k8s.api.core.v1.HTTPHeader.value', 'io.k8s.api.core.v1.Sysctl.value']);

/** Root fields other layers own (see the header). */
const ROOT_SKIPPED: ReadonlySet<string> = new Set(['metadata', 'status']);

type Node = ObjectNode | ArrayNode | MapNode | EnumNode;

interface ObjectNode {
  readonly kind: 'object';
  /** Only the properties with something to check below them. */
  props: Map<string, Node>;
  /** Required properties that are refused when absent. */
  required: string[];
  /** Required structs: an absent one is checked as `{}` (built-in tables). */
  zeroStructs: Map<string, ObjectNode>;
}

interface ArrayNode {
  readonly kind: 'array';
  items: Node | undefined;
  /** List-map keys, or [] for a set; undefined when items may repeat. */
  unique: readonly string[] | undefined;
}

interface MapNode {
  readonly kind: 'map';
  values: Node;
}

interface EnumNode {
  readonly kind: 'enum';
  readonly values: readonly string[];
  readonly allowed: ReadonlySet<unknown>;
}

interface Compiler {
  readonly definitions: Definitions;
  readonly builtin: boolean;
  /** Compiled definitions by name; a recursive schema finds its own node here while it is being filled. */
  readonly named: Map<string, ObjectNode | null>;
}

function resolve(c: Compiler, schema: OpenApiSchema): ResolvedSchema | undefined {
  return followRefs(c.definitions, schema);
}

function isScalarType(s: OpenApiSchema): boolean {
  return s.type === 'boolean' || s.type === 'integer' || s.type === 'number';
}

function compile(c: Compiler, schema: OpenApiSchema): Node | undefined {
  const r = resolve(c, schema);
  if (r === undefined) return undefined;
  const s = r.schema;
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const values = s.enum.filter((v): v is string => typeof v === 'string');
    return { kind: 'enum', values, allowed: new Set(s.enum) };
  }
  if (s.type === 'array') {
    const listType = s['x-kubernetes-list-type'];
    const keys = s['x-kubernetes-list-map-keys'];
    const unique = listType === 'map' && Array.isArray(keys) && keys.length > 0 ? keys : listType === 'set' ? [] : undefined;
    const items = s.items === undefined ? undefined : compile(c, s.items);
    if (items === undefined && unique === undefined) return undefined;
    return { kind: 'array', items, unique };
  }
  if (s.properties !== undefined) return r.name === undefined ? compileObject(c, s, undefined) : compileNamed(c, r.name, s);
  if (typeof s.additionalProperties === 'object') {
    const values = compile(c, s.additionalProperties);
    return values === undefined ? undefined : { kind: 'map', values };
  }
  return undefined;
}

function compileNamed(c: Compiler, name: string, s: OpenApiSchema): ObjectNode | undefined {
  if (c.named.has(name)) return c.named.get(name) ?? undefined;
  const node: ObjectNode = { kind: 'object', props: new Map(), required: [], zeroStructs: new Map() };
  // Placed before filling, so a definition that contains itself (JSONSchemaProps) ends.
  c.named.set(name, node);
  fillObject(c, node, s, name);
  const empty = node.props.size === 0 && node.required.length === 0 && node.zeroStructs.size === 0;
  // A recursive reference may already hold the node; an empty one checks nothing either way.
  if (empty) c.named.set(name, null);
  return empty ? undefined : node;
}

function compileObject(c: Compiler, s: OpenApiSchema, name: string | undefined): ObjectNode | undefined {
  const node: ObjectNode = { kind: 'object', props: new Map(), required: [], zeroStructs: new Map() };
  fillObject(c, node, s, name);
  return node.props.size === 0 && node.required.length === 0 && node.zeroStructs.size === 0 ? undefined : node;
}

function fillObject(c: Compiler, node: ObjectNode, s: OpenApiSchema, name: string | undefined): void {
  const props = s.properties ?? {};
  for (const key of Object.keys(props)) {
    const child = compile(c, props[key]!);
    const exempt = name !== undefined && c.builtin && DUPLICATES_ACCEPTED.has(`${name}.${key}`);
    const kept = child?.kind === 'array' && exempt ? withoutUniqueness(child) : child;
    if (kept !== undefined) node.props.set(key, kept);
  }
  for (const key of s.required ?? []) {
    if (!Object.hasOwn(props, key)) continue;
    if (!c.builtin) {
      node.required.push(key);
      continue;
    }
    const r = resolve(c, props[key]!);
    if (r === undefined || isScalarType(r.schema)) continue;
    if (name !== undefined && ZERO_ACCEPTED.has(`${name}.${key}`)) continue;
    if (r.schema.properties !== undefined) {
      // Go's zero struct: its own required fields speak for it.
      const inner = node.props.get(key);
      if (inner?.kind === 'object') node.zeroStructs.set(key, inner);
      continue;
    }
    node.required.push(key);
  }
}

function withoutUniqueness(node: ArrayNode): Node | undefined {
  return node.items === undefined ? undefined : { kind: 'array', items: node.items, unique: undefined };
}

/** Validates objects of one kind against its schema; compiled once, used for every write. */
export interface SchemaValidator {
  /** Causes for `obj`, in document order. */
  validate(obj: unknown): FieldError[];
}

const NOTHING: SchemaValidator = { validate: () => [] };
const validators = new WeakMap<Definitions, Map<string, SchemaValidator>>();

/** The validator of a kind's schema, compiled on first use and cached per table and root definition. */
export function schemaValidatorFor(schema: ResourceSchema): SchemaValidator {
  let byName = validators.get(schema.definitions);
  if (byName === undefined) {
    byName = new Map();
    validators.set(schema.definitions, byName);
  }
  let v = byName.get(schema.name);
  if (v === undefined) {
    v = compileValidator(schema);
    byName.set(schema.name, v);
  }
  return v;
}

function compileValidator(schema: ResourceSchema): SchemaValidator {
  const builtin = schema.definitions === builtinDefinitions;
  const c: Compiler = { definitions: schema.definitions, builtin, named: new Map() };
  if (!Object.hasOwn(schema.definitions, schema.name)) return NOTHING;
  const root = compile(c, { $ref: `#/definitions/${schema.name}` });
  if (root?.kind !== 'object') return NOTHING;
  const top: ObjectNode = { kind: 'object', props: new Map(root.props), required: root.required, zeroStructs: root.zeroStructs };
  for (const key of ROOT_SKIPPED) top.props.delete(key);
  return {
    validate(obj) {
      const w: Walk = { at: [], errs: [] };
      if (isRecord(obj)) checkObject(w, top, obj);
      return w.errs;
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The walk keeps its path as a mutable stack and prints it only for a cause: a
 * FieldPath per visited field would render text for every field of every write.
 */
interface Walk {
  readonly at: PathElement[];
  readonly errs: FieldError[];
}

function fieldPath(at: readonly PathElement[], ...more: PathElement[]): FieldPath {
  let p = path();
  for (const step of [...at, ...more]) p = typeof step === 'number' ? p.index(step) : typeof step === 'string' ? p.child(step) : p.key(step.key);
  return p;
}

function check(w: Walk, node: Node, value: unknown): void {
  switch (node.kind) {
    case 'object':
      if (isRecord(value)) checkObject(w, node, value);
      return;
    case 'array':
      if (Array.isArray(value)) checkArray(w, node, value);
      return;
    case 'map':
      if (!isRecord(value)) return;
      for (const key of Object.keys(value)) {
        w.at.push({ key });
        check(w, node.values, value[key]);
        w.at.pop();
      }
      return;
    case 'enum':
      // An empty string is Go's zero value, which omitempty drops: the same as unset.
      if (value !== '' && value !== undefined && !node.allowed.has(value)) w.errs.push(notSupported(fieldPath(w.at), value, node.values));
      return;
  }
}

function checkChild(w: Walk, node: Node, value: unknown, key: string): void {
  w.at.push(key);
  check(w, node, value);
  w.at.pop();
}

function checkObject(w: Walk, node: ObjectNode, value: Record<string, unknown>): void {
  for (const key of node.required) if (!Object.hasOwn(value, key) || value[key] === null) w.errs.push(required(fieldPath(w.at, key)));
  for (const [key, inner] of node.zeroStructs) {
    if (Object.hasOwn(value, key)) continue;
    w.at.push(key);
    checkObject(w, inner, {});
    w.at.pop();
  }
  if (node.props.size === 0) return;
  // Walk the object's own keys when it has fewer than the schema has checks: the
  // common case for wide definitions (PodSpec, Container) holding a few fields.
  const keys = Object.keys(value);
  if (keys.length <= node.props.size) {
    for (const key of keys) {
      const inner = node.props.get(key);
      if (inner !== undefined) checkChild(w, inner, value[key], key);
    }
    return;
  }
  for (const [key, inner] of node.props) if (Object.hasOwn(value, key)) checkChild(w, inner, value[key], key);
}

function checkArray(w: Walk, node: ArrayNode, value: unknown[]): void {
  if (node.unique !== undefined) checkUnique(w, node.unique, value);
  if (node.items === undefined) return;
  for (let i = 0; i < value.length; i++) {
    w.at.push(i);
    check(w, node.items, value[i]);
    w.at.pop();
  }
}

/**
 * One Duplicate per repeated item, at the later item. A single-key list-map names
 * the key field (`spec.containers[1].name`), as kube's rules for such lists do; a
 * multi-key one names the item with its key values; a set names the item. Items
 * missing a key are left to Required.
 */
function checkUnique(w: Walk, keys: readonly string[], value: unknown[]): void {
  if (value.length < 2) return;
  const seen = new Set<unknown>();
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    let identity: unknown;
    if (keys.length === 0) {
      if (typeof item === 'object' && item !== null) continue;
      identity = item;
    } else if (!isRecord(item) || keys.some((k) => !Object.hasOwn(item, k))) {
      continue;
    } else {
      identity = keys.length === 1 ? item[keys[0]!] : JSON.stringify(keys.map((k) => item[k]));
    }
    if (!seen.has(identity)) {
      seen.add(identity);
      continue;
    }
    if (keys.length === 0) w.errs.push(duplicate(fieldPath(w.at, i), item));
    else if (keys.length === 1) w.errs.push(duplicate(fieldPath(w.at, i, keys[0]!), (item as Record<string, unknown>)[keys[0]!]));
    else w.errs.push(duplicate(fieldPath(w.at, i), Object.fromEntries(keys.map((k) => [k, (item as Record<string, unknown>)[k]]))));
  }
}

/**
 * The schema's causes that the kind's own rules do not already report: kube
 * answers one cause per bad field, so a field its rules name (in any reason, e.g.
 * Invalid for an empty key the schema calls Required) keeps only their wording.
 */
export function withoutCoveredFields(schemaErrors: readonly FieldError[], kindErrors: readonly FieldError[]): FieldError[] {
  if (schemaErrors.length === 0) return [];
  const covered = new Set(kindErrors.map((e) => e.field));
  return schemaErrors.filter((e) => !covered.has(e.field));
}

/**
 * Update ratcheting: a cause the stored object already had (same field and
 * reason) is not the client's doing (the object predates a rule, or kube's own
 * defaulting wrote it), so an update that leaves it alone passes, as kube's
 * declarative validation ratchets unchanged fields.
 */
export function withoutStoredCauses(next: readonly FieldError[], stored: readonly FieldError[]): FieldError[] {
  if (next.length === 0 || stored.length === 0) return [...next];
  const old = new Set(stored.map((e) => `${e.type}\u0000${e.field}`));
  return next.filter((e) => !old.has(`${e.type}\u0000${e.field}`));
}
