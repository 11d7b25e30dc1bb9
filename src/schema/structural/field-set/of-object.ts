// The field set an object sets, as kube records it for the manager of an Apply:
// structured-merge-diff's TypedValue.ToFieldSet over the schema kube-openapi's
// schemaconv builds from the kind's OpenAPI, then kube's metadata stripping
// (apimachinery managedfields internal/stripmeta.go). We walk the VALUE and read
// the schema node for each value, so a recursive schema costs nothing extra.
//
// What is owned, per SMD's walk (typed/tofieldset.go):
//   - a scalar, null, an atomic list or an atomic map: the path itself;
//   - a struct field: only what it owns below, unless its value is null or `{}`;
//   - a map entry (a key the schema does not declare): the entry AND what is
//     below it, hence `"f:labels":{"f:app":{}}` but `"f:x":{".":{},"f:y":{}}`
//     for a nested map under preserve-unknown-fields;
//   - a granular list item (`k:`/`v:`): the item AND what is below it; an item
//     whose key occurs twice is owned as a whole, nothing below it;
//   - an empty granular list: nothing.
// An Update records something else: what changed between the old and new object
// (SMD's Compare), which also owns every struct that did not exist before (the
// `.` under `f:spec` of a created custom resource). That belongs to the apply
// layer, which has both objects.
import { builtinDefinitions } from '../../definitions.js';
import { structuralDefinition } from '../compile.js';
import type { Structural } from '../structural.js';
import { fieldElement, keyElement, type KeyField, type PathElement, pathString, serializeElement, valueElement } from './element.js';
import type { JsonValue } from './json-text.js';
import { isAtomicMap, listSemanticsOf, type ListSemantics } from './semantics.js';
import { type BuilderEntry, difference, type FieldSet, FieldSetBuilder, fieldSetFromPaths, MAX_FIELD_SET_DEPTH, recursiveDifference } from './set.js';

export interface FieldSetOptions {
  /**
   * Remove STRIP_META_SET, as kube does from every manager's set after every
   * Update and Apply. Default true; false gives SMD's raw set.
   */
  readonly stripMetadata?: boolean;
  /**
   * Paths kube resets for this request and records for nobody, removed with
   * everything below them: a strategy's reset fields (`status` for a main-resource
   * write of most kinds, `spec` and more for /status). The caller knows the kind
   * and subresource, so it passes them; nothing is reset by default.
   */
  readonly resetFields?: FieldSet;
}

/** The object does not fit its schema where the field set needs it to (kube fails the request). */
export class FieldSetError extends Error {
  override readonly name = 'FieldSetError';
  /** Where, as SMD prints paths (`.spec.containers[name="c"]`); empty at the root. */
  readonly path: string;

  constructor(path: readonly PathElement[], message: string) {
    const at = pathString(path);
    super(at === '' ? message : `${at}: ${message}`);
    this.path = at;
  }
}

const f = fieldElement;

/**
 * What kube never records in managedFields (stripMetaManager's stripSet). A plain
 * difference: `metadata` itself goes, labels and annotations below it stay.
 */
export const STRIP_META_SET: FieldSet = fieldSetFromPaths([
  [f('apiVersion')],
  [f('kind')],
  [f('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']
    .map((name) => [f('metadata'), f(name)]),
]);

/**
 * The field set of `obj` read through `node`, the schema of a whole object of a
 * kind (built-in root definition or a CRD version's compiled schema). Throws
 * FieldSetError where the object does not fit the schema (see the walk).
 */
export function fieldSetOf(node: Structural, obj: unknown, options: FieldSetOptions = {}): FieldSet {
  const walker = new Walker();
  walker.walk(node, obj, false, true);
  let set = walker.root.build();
  if (options.stripMetadata !== false) set = difference(set, STRIP_META_SET);
  if (options.resetFields !== undefined) set = recursiveDifference(set, options.resetFields);
  return set;
}

/**
 * What schemaconv makes of a value with no schema node of its own: `deduced`, the
 * type of unknown fields where they are allowed (maps stay granular all the way
 * down, lists are atomic); `untyped`, the type of list items without `items`
 * (everything atomic); `scalar`, the apiVersion/kind every object carries.
 */
type Shape = Structural | 'deduced' | 'untyped' | 'scalar';
type ValueKind = 'null' | 'scalar' | 'list' | 'map';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
// schemaconv special-cases two definitions: RawExtension holds any JSON as one
// value (its OpenAPI, an object without properties, would otherwise make it a
// granular map), and Quantity is a scalar, which its `type: string` already says.
const RAW_EXTENSION = 'io.k8s.apimachinery.pkg.runtime.RawExtension';

/**
 * List-map key defaults of built-in kinds. Kube's in-process OpenAPI carries
 * `default: "TCP"` on these (the Go `+default="TCP"` markers), and SMD keys a port
 * written without a protocol by that default; our generated table comes from the
 * published v2 document, which lost the defaults. A schema node's own default wins.
 */
const BUILTIN_KEY_DEFAULTS: ReadonlyMap<string, ReadonlyMap<string, JsonValue>> = new Map([
  ['io.k8s.api.core.v1.ContainerPort', new Map([['protocol', 'TCP']])],
  ['io.k8s.api.core.v1.ServicePort', new Map([['protocol', 'TCP']])],
]);

let objectMeta: Shape | undefined;
function objectMetaShape(): Shape {
  return (objectMeta ??= structuralDefinition(builtinDefinitions, OBJECT_META) ?? 'deduced');
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

class Walker {
  readonly root = new FieldSetBuilder();
  private readonly path: PathElement[] = [];
  private readonly entries: BuilderEntry[] = [];

  /**
   * `preserve` is schemaconv's inherited x-kubernetes-preserve-unknown-fields: set
   * by a node, passed to everything inline below it, and reset at each named
   * definition (converted on its own). `kindRoot`: an object of a kind (the root,
   * or an embedded resource), whose metadata kube always types as ObjectMeta.
   */
  walk(shape: Shape, value: unknown, preserve: boolean, kindRoot: boolean): void {
    const kind = this.kindOf(value);
    if (kind === 'null' || shape === 'untyped') return this.own();
    if (shape === 'scalar') return kind === 'scalar' ? this.own() : this.mismatch('scalar', kind);
    if (shape === 'deduced') return kind === 'map' ? this.visitMap(undefined, value as Record<string, unknown>, false, false) : this.own();
    if (shape.name === RAW_EXTENSION) return this.own();
    const allowed = allowedKinds(shape);
    if (!allowed.includes(kind)) return this.mismatch(allowed.map(kindWord).join(' or '), kind);
    const inherited = (shape.name === undefined && preserve) || shape.extensions.preserveUnknownFields;
    if (kind === 'scalar') return this.own();
    if (kind === 'list') return this.visitList(shape, value as readonly unknown[], inherited);
    return this.visitMap(shape, value as Record<string, unknown>, inherited, kindRoot || shape.extensions.embeddedResource);
  }

  private visitMap(node: Structural | undefined, obj: Record<string, unknown>, preserve: boolean, kindRoot: boolean): void {
    if (node !== undefined && isAtomicMap(node)) return this.own();
    for (const key of Object.keys(obj)) {
      const value = obj[key];
      let child: Shape;
      let declared = true;
      const property = node?.properties?.get(key);
      if (kindRoot && key === 'metadata') child = objectMetaShape();
      else if (property !== undefined) child = property;
      else if (kindRoot && (key === 'apiVersion' || key === 'kind')) child = 'scalar';
      else {
        declared = false;
        child = this.elementShape(node, preserve, key);
      }
      this.descend(fieldElement(key));
      this.walk(child, value, preserve, false);
      if (!declared || value === null || isEmptyObject(value)) this.own();
      this.ascend();
    }
  }

  /** The schema of an undeclared key: additionalProperties, deduced where unknown fields are kept, else refused. */
  private elementShape(node: Structural | undefined, preserve: boolean, key: string): Shape {
    if (node === undefined) return 'deduced';
    const ap = node.additionalProperties;
    if (typeof ap === 'object') return ap;
    if (ap === true) return 'deduced';
    if (ap === undefined && (preserve || node.properties === undefined || node.properties.size === 0)) return 'deduced';
    throw new FieldSetError([...this.path, fieldElement(key)], 'field not declared in schema');
  }

  private visitList(node: Structural, list: readonly unknown[], preserve: boolean): void {
    const semantics = listSemanticsOf(node);
    if (semantics.kind === 'atomic') return this.own();
    if (semantics.kind === 'map' && semantics.keys.length === 0) {
      throw new FieldSetError(this.path, 'schema error: x-kubernetes-list-type map without x-kubernetes-list-map-keys');
    }
    const items: Shape = node.items ?? 'untyped';
    const elements = list.map((item, i) => this.itemElement(semantics, items, item, i));
    const ids = elements.map(serializeElement);
    const seen = new Map<string, number>();
    for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
    for (let i = 0; i < list.length; i++) {
      this.descend(elements[i]!);
      if (seen.get(ids[i]!) === 1) this.walk(items, list[i], preserve, false);
      this.own();
      this.ascend();
    }
  }

  private itemElement(semantics: ListSemantics, items: Shape, item: unknown, index: number): PathElement {
    const kind = this.kindOf(item);
    const fail = (message: string): never => {
      throw new FieldSetError(this.path, `item ${index}: ${message}`);
    };
    if (semantics.kind === 'set') {
      if (kind !== 'scalar') fail(`a set item must be a scalar, got ${kindWord(kind)}`);
      return valueElement(item as JsonValue);
    }
    if (kind !== 'map') fail(`an item of a list keyed by ${JSON.stringify(semantics.kind === 'map' ? semantics.keys : [])} must be an object`);
    const obj = item as Record<string, unknown>;
    const fields: KeyField[] = [];
    for (const name of semantics.kind === 'map' ? semantics.keys : []) {
      if (Object.hasOwn(obj, name)) {
        const k = this.kindOf(obj[name]);
        if (k !== 'scalar' && k !== 'null') fail(`key field ${JSON.stringify(name)} must be a scalar`);
        fields.push({ name, value: obj[name] as JsonValue });
      } else {
        const d = keyDefault(items, name);
        if (d !== undefined) fields.push({ name, value: d });
      }
    }
    if (fields.length === 0) fail('the item sets none of its key fields and none has a default');
    return keyElement(fields);
  }

  private kindOf(value: unknown): ValueKind {
    if (value === null) return 'null';
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return 'scalar';
      case 'number':
        if (Number.isFinite(value)) return 'scalar';
        break;
      case 'object':
        if (Array.isArray(value)) return 'list';
        if (isPlainObject(value)) return 'map';
        break;
      default:
        break;
    }
    throw new FieldSetError(this.path, `not a JSON value (${typeof value})`);
  }

  private mismatch(expected: string, got: ValueKind): never {
    throw new FieldSetError(this.path, `expected ${expected}, got ${kindWord(got)}`);
  }

  private descend(element: PathElement): void {
    if (this.path.length >= MAX_FIELD_SET_DEPTH) {
      throw new FieldSetError(this.path.slice(0, 8), `object nests deeper than ${MAX_FIELD_SET_DEPTH} levels`);
    }
    const top = this.entries[this.entries.length - 1];
    const level = top === undefined ? this.root : (top.below ??= new FieldSetBuilder());
    this.entries.push(level.entry(element));
    this.path.push(element);
  }

  private ascend(): void {
    this.entries.pop();
    this.path.pop();
  }

  /** Owns the current path; the root (the whole object) is never owned. */
  private own(): void {
    const top = this.entries[this.entries.length - 1];
    if (top !== undefined) top.member = true;
  }
}

/** Which value kinds a node's `type` admits (schemaconv's parseSchema: no type admits all). */
function allowedKinds(node: Structural): readonly ValueKind[] {
  switch (node.type) {
    case 'object':
      return ['map'];
    case 'array':
      return ['list'];
    case undefined:
      return ['scalar', 'list', 'map'];
    default:
      return ['scalar'];
  }
}

function kindWord(kind: ValueKind): string {
  return kind === 'map' ? 'object' : kind;
}

function isEmptyObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}

/** A missing key field's default: the schema's (scalars only), else the built-in table's. */
function keyDefault(items: Shape, name: string): JsonValue | undefined {
  if (typeof items !== 'object') return undefined;
  const property = items.properties?.get(name);
  if (property?.hasDefault === true) {
    const d = property.default;
    return typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean' ? d : undefined;
  }
  return items.name === undefined ? undefined : BUILTIN_KEY_DEFAULTS.get(items.name)?.get(name);
}
