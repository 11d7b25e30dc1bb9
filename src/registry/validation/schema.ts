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
// The checks are derived once per kind from its compiled schema (schema/structural)
// and cached; a request only walks the parts of its object that have something to check.
import type { Definitions, ResourceSchema } from '../../schema/definitions.js';
import { builtinDefinitions } from '../../schema/definitions.js';
import { structuralOf, type Structural } from '../../schema/structural/index.js';
import { duplicate, notSupported, required, type FieldError, type FieldPath, path } from '../../schema/field-errors.js';
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
  /**
   * The same properties as two parallel lists in schema order, made when compiling
   * is done: a walk in schema order reads them by index, where iterating the Map
   * would allocate an iterator and an entry per property on every object.
   */
  propKeys: string[];
  propNodes: Node[];
  /** Required properties that are refused when absent. */
  required: string[];
  /** Required structs: an absent one is checked as `{}` (built-in tables). */
  zeroStructs: Map<string, ObjectNode>;
  /** zeroStructs as parallel lists, for the same reason as propKeys. */
  zeroKeys: string[];
  zeroNodes: ObjectNode[];
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
  readonly builtin: boolean;
  /** Compiled definition nodes; a recursive schema finds its own node here while it is being filled. */
  readonly named: Map<Structural, ObjectNode | null>;
}

function isScalarType(s: Structural): boolean {
  return s.type === 'boolean' || s.type === 'integer' || s.type === 'number';
}

function compile(c: Compiler, s: Structural): Node | undefined {
  const enumValues = s.validation?.enum;
  if (enumValues !== undefined && enumValues.length > 0) {
    const values = enumValues.filter((v): v is string => typeof v === 'string');
    return { kind: 'enum', values, allowed: new Set(enumValues) };
  }
  if (s.type === 'array') {
    const listType = s.extensions.listType;
    const keys = s.extensions.listMapKeys;
    const unique = listType === 'map' && keys !== undefined && keys.length > 0 ? keys : listType === 'set' ? [] : undefined;
    const items = s.items === undefined ? undefined : compile(c, s.items);
    if (items === undefined && unique === undefined) return undefined;
    return { kind: 'array', items, unique };
  }
  if (s.properties !== undefined) return s.name === undefined ? compileObject(c, s, undefined) : compileNamed(c, s);
  if (typeof s.additionalProperties === 'object') {
    const values = compile(c, s.additionalProperties);
    return values === undefined ? undefined : { kind: 'map', values };
  }
  return undefined;
}

function newObjectNode(): ObjectNode {
  return { kind: 'object', props: new Map(), propKeys: [], propNodes: [], required: [], zeroStructs: new Map(), zeroKeys: [], zeroNodes: [] };
}

/** Fills the lists the walk reads from the Maps compiling built. */
function finishObject(node: ObjectNode): void {
  node.propKeys = [...node.props.keys()];
  node.propNodes = [...node.props.values()];
  node.zeroKeys = [...node.zeroStructs.keys()];
  node.zeroNodes = [...node.zeroStructs.values()];
}

function compileNamed(c: Compiler, s: Structural): ObjectNode | undefined {
  if (c.named.has(s)) return c.named.get(s) ?? undefined;
  const node = newObjectNode();
  // Placed before filling, so a definition that contains itself (JSONSchemaProps) ends.
  c.named.set(s, node);
  fillObject(c, node, s, s.name);
  const empty = node.props.size === 0 && node.required.length === 0 && node.zeroStructs.size === 0;
  // A recursive reference may already hold the node; an empty one checks nothing either way.
  if (empty) c.named.set(s, null);
  return empty ? undefined : node;
}

function compileObject(c: Compiler, s: Structural, name: string | undefined): ObjectNode | undefined {
  const node = newObjectNode();
  fillObject(c, node, s, name);
  return node.props.size === 0 && node.required.length === 0 && node.zeroStructs.size === 0 ? undefined : node;
}

function fillObject(c: Compiler, node: ObjectNode, s: Structural, name: string | undefined): void {
  const props = s.properties ?? NO_PROPERTIES;
  for (const [key, prop] of props) {
    const child = compile(c, prop);
    const exempt = name !== undefined && c.builtin && DUPLICATES_ACCEPTED.has(`${name}.${key}`);
    const kept = child?.kind === 'array' && exempt ? withoutUniqueness(child) : child;
    if (kept !== undefined) node.props.set(key, kept);
  }
  for (const key of s.validation?.required ?? []) {
    const prop = props.get(key);
    if (prop === undefined) continue;
    if (!c.builtin) {
      node.required.push(key);
      continue;
    }
    if (isScalarType(prop)) continue;
    if (name !== undefined && ZERO_ACCEPTED.has(`${name}.${key}`)) continue;
    if (prop.properties !== undefined) {
      // Go's zero struct: its own required fields speak for it.
      const inner = node.props.get(key);
      if (inner?.kind === 'object') node.zeroStructs.set(key, inner);
      continue;
    }
    node.required.push(key);
  }
  finishObject(node);
}

const NO_PROPERTIES: ReadonlyMap<string, Structural> = new Map();

function withoutUniqueness(node: ArrayNode): Node | undefined {
  return node.items === undefined ? undefined : { kind: 'array', items: node.items, unique: undefined };
}

/** Validates objects of one kind against its schema; compiled once, used for every write. */
export interface SchemaValidator {
  /** Causes for `obj`, in document order (one shared empty list when there are none). */
  validate(obj: unknown): readonly FieldError[];
}

const NO_CAUSES: readonly FieldError[] = Object.freeze([]);
const NOTHING: SchemaValidator = { validate: () => NO_CAUSES };
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

/**
 * One compiler per table: the kinds of a table share their definitions' checks
 * (PodSpec's are derived once for Pods, templates and every workload).
 */
const compilers = new WeakMap<Definitions, Compiler>();

function compilerFor(definitions: Definitions): Compiler {
  let c = compilers.get(definitions);
  if (c === undefined) {
    c = { builtin: definitions === builtinDefinitions, named: new Map() };
    compilers.set(definitions, c);
  }
  return c;
}

function compileValidator(schema: ResourceSchema): SchemaValidator {
  const c = compilerFor(schema.definitions);
  const structural = structuralOf(schema);
  if (structural === undefined) return NOTHING;
  const root = compile(c, structural);
  if (root?.kind !== 'object') return NOTHING;
  const top: ObjectNode = { ...newObjectNode(), props: new Map(root.props), required: root.required, zeroStructs: root.zeroStructs };
  for (const key of ROOT_SKIPPED) top.props.delete(key);
  finishObject(top);
  return {
    validate(obj) {
      if (!isRecord(obj)) return NO_CAUSES;
      // The walk is synchronous and calls nothing that validates again, so one
      // state serves every call. Its stack is balanced when a walk ends; emptying
      // it anyway would also drop its storage, which the next walk would allocate.
      const w = WALK;
      if (w.at.length !== 0) w.at.length = 0;
      w.errs = undefined;
      try {
        checkObject(w, top, obj);
        return w.errs ?? NO_CAUSES;
      } finally {
        // A walk that threw leaves neither its causes (request values) nor its path behind.
        w.errs = undefined;
        if (w.at.length !== 0) w.at.length = 0;
      }
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
  /** The causes found so far; made on the first one. */
  errs: FieldError[] | undefined;
}

const WALK: Walk = { at: [], errs: undefined };

function report(w: Walk, cause: FieldError): void {
  (w.errs ??= []).push(cause);
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
      // for-in over own keys: see checkObject.
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        w.at.push({ key });
        check(w, node.values, value[key]);
        w.at.pop();
      }
      return;
    case 'enum':
      // An empty string is Go's zero value, which omitempty drops: the same as unset.
      if (value !== '' && value !== undefined && !node.allowed.has(value)) report(w, notSupported(fieldPath(w.at), value, node.values));
      return;
  }
}

function checkChild(w: Walk, node: Node, value: unknown, key: string): void {
  w.at.push(key);
  check(w, node, value);
  w.at.pop();
}

/** Checks an absent required struct as Go's zero struct: an empty object. */
const ZERO_STRUCT: Readonly<Record<string, unknown>> = Object.freeze({});

function checkObject(w: Walk, node: ObjectNode, value: Readonly<Record<string, unknown>>): void {
  const requiredKeys = node.required;
  for (let i = 0; i < requiredKeys.length; i++) {
    const key = requiredKeys[i]!;
    if (!Object.hasOwn(value, key) || value[key] === null) report(w, required(fieldPath(w.at, key)));
  }
  const zeroKeys = node.zeroKeys;
  for (let i = 0; i < zeroKeys.length; i++) {
    const key = zeroKeys[i]!;
    if (Object.hasOwn(value, key)) continue;
    w.at.push(key);
    checkObject(w, node.zeroNodes[i]!, ZERO_STRUCT);
    w.at.pop();
  }
  const checks = node.propKeys.length;
  if (checks === 0) return;
  // Walk the object's own keys when it has no more than the schema has checks (the
  // common case for wide definitions, PodSpec or Container, holding a few fields),
  // else the checks. The two orders differ, and causes keep the order they had.
  // for-in, not Object.keys: V8 reads an object's cached key list without copying
  // it into a new array per object; hasOwn leaves out inherited keys, as keys() does.
  // for-in gives an ordinary object's own keys before inherited ones, so it has more
  // own keys than checks exactly when the key after the first `checks` is its own.
  let seen = 0;
  let wide = false;
  for (const key in value) {
    if (++seen > checks) {
      wide = Object.hasOwn(value, key);
      break;
    }
  }
  if (!wide) {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const inner = node.props.get(key);
      if (inner !== undefined) checkChild(w, inner, value[key], key);
    }
    return;
  }
  const keys = node.propKeys;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (Object.hasOwn(value, key)) checkChild(w, node.propNodes[i]!, value[key], key);
  }
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
  if (value.length <= SMALL_LIST) return checkUniqueSmall(w, keys, value);
  const seen = new Set<unknown>();
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    let identity: unknown;
    if (keys.length === 0) {
      if (typeof item === 'object' && item !== null) continue;
      identity = item;
    } else if (!hasKeys(item, keys)) {
      continue;
    } else {
      identity = keys.length === 1 ? item[keys[0]!] : JSON.stringify(keys.map((k) => item[k]));
    }
    if (!seen.has(identity)) {
      seen.add(identity);
      continue;
    }
    reportDuplicate(w, keys, value, i);
  }
}

/**
 * Up to this many items, uniqueness is checked by comparing each item with those
 * before it, which allocates nothing; a longer list pays for a Set instead of
 * the quadratic count of comparisons.
 */
const SMALL_LIST = 16;

/** checkUnique for a short list: the same items compared and the same causes, with no Set of identities. */
function checkUniqueSmall(w: Walk, keys: readonly string[], value: unknown[]): void {
  for (let i = 1; i < value.length; i++) {
    const item = value[i];
    if (!counted(item, keys)) continue;
    for (let j = 0; j < i; j++) {
      const before = value[j];
      if (counted(before, keys) && sameIdentity(keys, item, before)) {
        reportDuplicate(w, keys, value, i);
        break;
      }
    }
  }
}

/** Whether an item takes part in the uniqueness check: a scalar of a set, an item of a list-map with every key. */
function counted(item: unknown, keys: readonly string[]): boolean {
  return keys.length === 0 ? typeof item !== 'object' || item === null : hasKeys(item, keys);
}

function hasKeys(item: unknown, keys: readonly string[]): item is Record<string, unknown> {
  if (!isRecord(item)) return false;
  for (let k = 0; k < keys.length; k++) if (!Object.hasOwn(item, keys[k]!)) return false;
  return true;
}

/**
 * Whether two counted items are the same to checkUnique's Set: the same value
 * (SameValueZero) for a set or a single key; for several keys, the same JSON
 * text of their key values, compared one key value at a time.
 */
function sameIdentity(keys: readonly string[], a: unknown, b: unknown): boolean {
  if (keys.length === 0) return sameValueZero(a, b);
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  if (keys.length === 1) return sameValueZero(x[keys[0]!], y[keys[0]!]);
  for (let k = 0; k < keys.length; k++) if (!sameJsonElement(x[keys[k]!], y[keys[k]!])) return false;
  return true;
}

function sameValueZero(a: unknown, b: unknown): boolean {
  return a === b || (a !== a && b !== b);
}

/**
 * Whether two values print alike as elements of a JSON array. Two strings, or two
 * finite numbers, print alike exactly when they are equal, so those compare
 * directly; anything else (a mix of types, objects, a Date that prints as a
 * string, NaN or undefined that print as null) is compared by its text.
 */
function sameJsonElement(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  if (typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b)) return a === b;
  return (JSON.stringify(a) ?? 'null') === (JSON.stringify(b) ?? 'null');
}

function reportDuplicate(w: Walk, keys: readonly string[], value: unknown[], i: number): void {
  const item = value[i];
  if (keys.length === 0) report(w, duplicate(fieldPath(w.at, i), item));
  else if (keys.length === 1) report(w, duplicate(fieldPath(w.at, i, keys[0]!), (item as Record<string, unknown>)[keys[0]!]));
  else report(w, duplicate(fieldPath(w.at, i), Object.fromEntries(keys.map((k) => [k, (item as Record<string, unknown>)[k]]))));
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
