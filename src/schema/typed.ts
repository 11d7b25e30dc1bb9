// Typed decoding of client objects against the schema table: what kube-apiserver
// gets for free by decoding JSON into Go structs. One walk per write, before any
// strategy, admission or storage code reads a field:
//   - a value of the wrong JSON type is refused with Go's encoding/json wording
//     (`json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name
//     of type string`), or the wording of the Go type's own UnmarshalJSON
//     (Quantity, Time, IntOrString, base64 bytes);
//   - nulls become what Go makes of them: an absent field, or the zero value of a
//     list item or map value, so nothing downstream meets a null it did not expect;
//   - a Quantity or time is rewritten as its Go type writes it back (`1000m` → `1`,
//     a time in UTC), so what is stored and answered is what kube would answer;
//   - fields the schema does not declare are reported (fieldValidation), found
//     through own properties only, so `toString` or `__proto__` are never "known".
// The caller has already bounded the depth (codecs/), so recursion here is safe.
// The walk reads a plan derived once from each compiled schema node
// (schema/structural: references already resolved; properties in Maps; Go type
// names made only for an error), so a request pays for the values it carries,
// not for reading the schema again.
import type { Definitions } from './definitions.js';
import { EMPTY_STRUCTURAL, structuralDefinition, type Structural } from './structural/index.js';
import { renderFieldPath, setOwnField } from './field-path.js';
import { cloneJson, goJsonType } from './object.js';
import { checkBase64, checkIntOrString, INT32, INT64, isSchemaTypeError, SchemaTypeError, SELF_DECODING, type SelfDecoding } from './typed-values.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

export { isSchemaTypeError, SchemaTypeError } from './typed-values.js';

export interface TypedCheck {
  /**
   * Paths of undeclared fields in the strict decoder's wording (`spec.containers[0].bar`), in document order.
   * A check that found none shares one frozen empty list: read it, do not add to it.
   */
  readonly unknownFields: readonly string[];
  /**
   * Removes the undeclared fields from the checked object, as decoding into Go
   * structs drops them. By reference, not by path: a field named `a.b`, `x[0]` or
   * the empty string cannot be found again from its rendered path.
   */
  dropUnknownFields(): void;
}

/** The answer of every check that found no undeclared field (most writes): nothing to allocate. */
const NO_UNKNOWN_FIELDS: TypedCheck = Object.freeze({ unknownFields: Object.freeze([]), dropUnknownFields: () => {} });

/** The undeclared fields one check found, and where they are. */
class FoundUnknownFields implements TypedCheck {
  readonly unknownFields: string[] = [];
  readonly holders: UnknownField[] = [];

  dropUnknownFields(): void {
    for (const u of this.holders) delete u.holder[u.key];
  }
}

/**
 * Checks `obj` against the named definition and normalizes its nulls in place.
 * Throws SchemaTypeError at the first value Go would refuse (Go keeps the first
 * error too). An unknown definition name checks nothing and reports nothing.
 */
export function checkTyped(schemaName: string, obj: unknown, definitions: Definitions): TypedCheck {
  const root = structuralDefinition(definitions, schemaName);
  if (root === undefined) return NO_UNKNOWN_FIELDS;
  // The walk is synchronous and calls nothing that checks again, so one state
  // serves every call; it is reset here, as a thrown type error leaves it mid-walk.
  const w = WALK;
  w.definitions = definitions;
  w.found = undefined;
  // The stacks are non-empty only after a thrown walk; emptying an array also drops
  // its storage, which the next walk would allocate again.
  if (w.path.length !== 0) w.path.length = 0;
  if (w.fields.length !== 0) w.fields.length = 0;
  w.struct = '';
  try {
    walk(w, planOf(root), obj);
    return w.found ?? NO_UNKNOWN_FIELDS;
  } finally {
    // Holds on to neither the request's object nor a table that may go away (a deleted CRD's).
    w.found = undefined;
    w.definitions = IDLE;
  }
}

/**
 * A stored object as the typed walk leaves a body today — quantities and times in
 * the form kube writes them back — when that differs from `obj`; undefined when it
 * is already so, or when the walk refuses it. For objects stored before kapi
 * rewrote those values: compared with an update in today's form, they would show
 * changes nobody made. `obj` itself is not touched (stored objects are frozen).
 */
export function canonicalCopy(schemaName: string, obj: unknown, definitions: Definitions): unknown {
  const copy = cloneJson(obj);
  try {
    checkTyped(schemaName, copy, definitions);
  } catch (err) {
    if (isSchemaTypeError(err)) return undefined;
    throw err;
  }
  // The walk replaces values where they are, so member order is kept: equal text is equal content.
  return JSON.stringify(copy) === JSON.stringify(obj) ? undefined : copy;
}

interface UnknownField {
  readonly holder: Record<string, unknown>;
  readonly key: string;
}

/**
 * The walk's state. Its stacks are pushed and popped as the walk goes down and up
 * (never copied), and read only to word an error or an unknown field's path.
 */
interface Walk {
  /** The table the object's kind is compiled from: an embedded resource's metadata is that table's ObjectMeta. */
  definitions: Definitions;
  /** The undeclared fields found so far; made on the first one. */
  found: FoundUnknownFields | undefined;
  /** The JSON path (keys and indices), for unknown-field reports; map keys print as names, as the strict decoder does. */
  readonly path: (string | number)[];
  /** Go's error context: struct field names from the root, no indices or map keys. */
  readonly fields: string[];
  /** The Go struct whose field is being decoded. */
  struct: string;
}

/** Go's name for a definition: `io.k8s.api.core.v1.PodSpec` -> `v1.PodSpec`. */
function goNamed(name: string): string {
  const parts = name.split('.');
  return parts.length < 2 ? name : `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
}

function structName(name: string | undefined): string {
  if (name === undefined) return '';
  return name.slice(name.lastIndexOf('.') + 1);
}

/** The Go type a schema decodes into, as reflect.Type.String() prints it. */
function goType(node: Structural): string {
  if (node.name !== undefined) return goNamed(node.name);
  switch (node.type) {
    case 'string':
      return node.format === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return node.format === 'int32' || node.format === 'int64' ? node.format : 'int';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'array':
      return `[]${node.items === undefined ? 'interface {}' : goType(node.items)}`;
    default:
      if (typeof node.additionalProperties === 'object') return `map[string]${goType(node.additionalProperties)}`;
      return 'map[string]interface {}';
  }
}

/** encoding/json's UnmarshalTypeError text, with the struct context when there is one. */
function mismatch(w: Walk, found: string, type: string): never {
  if (w.struct === '' || w.fields.length === 0) throw new SchemaTypeError(`json: cannot unmarshal ${found} into Go value of type ${type}`);
  throw new SchemaTypeError(`json: cannot unmarshal ${found} into Go struct field ${w.struct}.${w.fields.join('.')} of type ${type}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An integer plan carries its Go type name (made at compile time from the resolved schema). */
function checkInteger(w: Walk, plan: Plan, value: unknown): void {
  if (typeof value !== 'number') return mismatch(w, goJsonType(value), plan.goType!);
  const bound = plan.bound;
  if (!Number.isInteger(value) || value < -bound || value >= bound) mismatch(w, `number ${String(value)}`, plan.goType!);
}

// --- the plan ------------------------------------------------------------------------
// The walk reads a plan derived once per compiled node: Go type names and struct
// names known, the kind of check decided. A request then pays only for the values
// it carries; texts for errors are made when an error is thrown.

type PlanKind = 'self' | 'intOrString' | 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'opaque' | 'map' | 'struct';

interface Plan {
  kind: PlanKind;
  /** The compiled schema: Go type names and zero values come from it. */
  readonly node: Structural;
  /** 'self': the Go type's own UnmarshalJSON, and the text its MarshalJSON writes back. */
  self: SelfDecoding | undefined;
  /** 'string': base64 bytes. */
  bytes: boolean;
  /** 'integer': the exclusive bound of the Go int type. */
  bound: number;
  /** 'array': the item plan; undefined when the schema has no items (nothing is checked). */
  items: Plan | undefined;
  /** 'map', and 'struct' with an additionalProperties schema: the value plan. */
  values: Plan | undefined;
  /** 'struct': declared properties (own names only: a Map, never an object lookup). */
  props: Map<string, Plan> | undefined;
  /** 'struct': x-kubernetes-embedded-resource (metadata is ObjectMeta, apiVersion/kind strings). */
  embedded: boolean;
  /** 'struct': undeclared fields are kept without a report. */
  open: boolean;
  /** 'struct': the Go struct name for error context ('' keeps the outer one). */
  struct: string;
  /** Go's type name for a mismatch, made once on the first error. */
  goType: string | undefined;
}

/** Plans by compiled node; a recursive schema meets its own plan (nodes of a cycle are shared). */
const plans = new WeakMap<Structural, Plan>();

/** What the walk's state points to between calls. */
const IDLE: Definitions = Object.freeze({});
const WALK: Walk = { definitions: IDLE, found: undefined, path: [], fields: [], struct: '' };

/** The plan of a compiled node, derived on first use. */
function planOf(node: Structural): Plan {
  const known = plans.get(node);
  if (known !== undefined) return known;
  const plan: Plan = { kind: 'opaque', node, self: undefined, bytes: false, bound: 0, items: undefined, values: undefined, props: undefined, embedded: false, open: false, struct: '', goType: undefined };
  // Registered before its children are planned, so a recursive schema refers to itself.
  plans.set(node, plan);
  fillPlan(plan, node);
  return plan;
}

function fillPlan(plan: Plan, s: Structural): void {
  const own = s.name === undefined ? undefined : SELF_DECODING.get(s.name);
  if (own !== undefined) {
    plan.kind = 'self';
    plan.self = own;
    return;
  }
  if (s.extensions.intOrString || s.format === 'int-or-string') {
    plan.kind = 'intOrString';
    return;
  }
  switch (s.type) {
    case 'string':
      plan.kind = 'string';
      plan.bytes = s.format === 'byte';
      return;
    case 'integer':
      plan.kind = 'integer';
      plan.bound = s.format === 'int32' ? INT32 : INT64;
      // An integer's mismatch names the type from its type and format alone (no definition name).
      plan.goType = s.format === 'int32' || s.format === 'int64' ? s.format : 'int';
      return;
    case 'number':
    case 'boolean':
      plan.kind = s.type;
      return;
    case 'array':
      plan.kind = 'array';
      plan.items = s.items === undefined ? undefined : planOf(s.items);
      return;
    default:
      fillObjectPlan(plan, s);
  }
}

function fillObjectPlan(plan: Plan, s: Structural): void {
  const props = s.properties;
  const additional = s.additionalProperties;
  // An object schema that declares neither properties nor a value schema is opaque in
  // Kubernetes (RawExtension, FieldsV1, apiextensions JSON): its Go type takes raw
  // JSON of any shape, so nothing inside is checked.
  if (props === undefined && typeof additional !== 'object') {
    plan.kind = 'opaque';
    return;
  }
  if (props === undefined) {
    plan.kind = 'map';
    plan.values = planOf(additional as Structural);
    return;
  }
  plan.kind = 'struct';
  plan.embedded = s.extensions.embeddedResource;
  plan.open = s.extensions.preserveUnknownFields || additional === true;
  plan.struct = structName(s.name);
  plan.props = new Map();
  for (const [key, child] of props) plan.props.set(key, planOf(child));
  if (typeof additional === 'object') plan.values = planOf(additional);
}

/** Go's type name of a plan's schema, made on first use (only errors print it). */
function goTypeOf(plan: Plan): string {
  plan.goType ??= goType(plan.node);
  return plan.goType;
}

/** What Go leaves in a list item or map value that was null: the element type's zero value. */
function zeroValue(plan: Plan): unknown {
  const s = plan.node;
  if (s.name === 'io.k8s.apimachinery.pkg.api.resource.Quantity') return '0';
  if (plan.kind === 'self') return null;
  if (plan.kind === 'intOrString') return 0;
  switch (s.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return s.properties === undefined && s.additionalProperties === undefined ? null : {};
    default:
      return null;
  }
}

// --- the walk ---------------------------------------------------------------------

/**
 * Checks one value. Answers what replaces it when its Go type writes it back
 * otherwise (a Quantity or time in canonical form), else undefined.
 */
function walk(w: Walk, plan: Plan, value: unknown): unknown {
  switch (plan.kind) {
    case 'opaque':
      return;
    case 'self':
      return plan.self!(value);
    case 'intOrString':
      return checkIntOrString(value);
    case 'string':
      if (typeof value !== 'string') return mismatch(w, goJsonType(value), goTypeOf(plan));
      if (plan.bytes) checkBase64(value);
      return;
    case 'integer':
      return checkInteger(w, plan, value);
    case 'number':
      if (typeof value !== 'number') mismatch(w, goJsonType(value), goTypeOf(plan));
      return;
    case 'boolean':
      if (typeof value !== 'boolean') mismatch(w, goJsonType(value), goTypeOf(plan));
      return;
    case 'array':
      if (!Array.isArray(value)) return mismatch(w, goJsonType(value), goTypeOf(plan));
      if (plan.items !== undefined) walkArray(w, plan.items, value);
      return;
    case 'map':
      if (!isPlainObject(value)) return mismatch(w, goJsonType(value), goTypeOf(plan));
      return walkMap(w, plan.values!, value);
    case 'struct':
      if (!isPlainObject(value)) return mismatch(w, goJsonType(value), goTypeOf(plan));
      return walkStruct(w, plan, value);
  }
}

function walkArray(w: Walk, items: Plan, value: unknown[]): void {
  for (let i = 0; i < value.length; i++) {
    if (value[i] === null) {
      value[i] = zeroValue(items);
      continue;
    }
    w.path.push(i);
    const replaced = walk(w, items, value[i]);
    if (replaced !== undefined) value[i] = replaced;
    w.path.pop();
  }
}

function walkStruct(w: Walk, plan: Plan, value: Record<string, unknown>): void {
  const props = plan.props!;
  const outerStruct = w.struct;
  const struct = plan.struct || outerStruct;
  // for-in, not Object.keys: V8 walks an object's cached key list without copying
  // it into a new array per object. Both give own keys in the same order; for-in
  // also meets inherited enumerable ones, which hasOwn leaves out. A key deleted
  // below is the current one, which for-in has already passed.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child = value[key];
    const declared = props.get(key) ?? (plan.embedded && key === 'metadata' ? objectMetaPlan(w) : undefined);
    if (declared !== undefined) {
      // Go leaves a field that was null at its zero value, which omitempty drops.
      if (child === null) {
        delete value[key];
        continue;
      }
      w.path.push(key);
      w.fields.push(key);
      w.struct = struct;
      const replaced = walk(w, declared, child);
      // A declared field: a schema's property name, never `__proto__`.
      if (replaced !== undefined) value[key] = replaced;
      w.struct = outerStruct;
      w.fields.pop();
      w.path.pop();
    } else if (plan.embedded && (key === 'apiVersion' || key === 'kind')) {
      if (child !== null && typeof child !== 'string') {
        w.struct = struct;
        w.fields.push(key);
        mismatch(w, goJsonType(child), 'string');
      }
    } else if (plan.values !== undefined) {
      walkMapEntry(w, plan.values, value, key);
    } else if (!plan.open) {
      w.found ??= new FoundUnknownFields();
      w.path.push(key);
      w.found.unknownFields.push(renderFieldPath(w.path));
      w.found.holders.push({ holder: value, key });
      w.path.pop();
    }
  }
}

/** metadata of an embedded resource: ObjectMeta of the same table (the built-in one when the table has none). */
function objectMetaPlan(w: Walk): Plan {
  const node = structuralDefinition(w.definitions, OBJECT_META);
  // A table without ObjectMeta checks nothing there, but metadata is still declared.
  return planOf(node ?? EMPTY_STRUCTURAL);
}

function walkMap(w: Walk, values: Plan, value: Record<string, unknown>): void {
  // for-in over own keys: see walkStruct.
  for (const key in value) if (Object.hasOwn(value, key)) walkMapEntry(w, values, value, key);
}

/** A map value: Go's error context stays on the map field (no key in the path). */
function walkMapEntry(w: Walk, values: Plan, value: Record<string, unknown>, key: string): void {
  const child = value[key];
  if (child === null) {
    // A client-named key is data: `value[key] =` would call the `__proto__` setter.
    setOwnField(value, key, zeroValue(values));
    return;
  }
  w.path.push(key);
  const replaced = walk(w, values, child);
  if (replaced !== undefined) setOwnField(value, key, replaced);
  w.path.pop();
}
