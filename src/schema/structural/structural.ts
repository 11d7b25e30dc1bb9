// The compiled schema of a served kind and version: what every reader of a schema
// reads (typed decoding, pruning, defaulting, value validation, strategic merge,
// apply's field sets, CEL variable types, OpenAPI publishing). Modelled on
// kube-apiserver's apiextensions `schema.Structural`: every `$ref` is resolved,
// the structure (types, properties, items) is kept apart from the value
// validations, and the x-kubernetes-* extensions are typed fields.
//
// A node is built once per definition of a table (compile.ts), so a recursive
// definition (JSONSchemaProps) is a graph with a cycle, never an unbounded tree:
// a reader that walks the structure recursively memoizes by node identity.
// Nodes are frozen by convention after compiling; nobody mutates them.
import type { GroupVersionKind } from '../object.js';

export type ListType = 'atomic' | 'set' | 'map';
export type MapType = 'atomic' | 'granular';

/** The typed x-kubernetes-* extensions of one node. */
export interface Extensions {
  readonly preserveUnknownFields: boolean;
  readonly embeddedResource: boolean;
  readonly intOrString: boolean;
  readonly listType: ListType | undefined;
  readonly listMapKeys: readonly string[] | undefined;
  readonly mapType: MapType | undefined;
  /** Built-in kinds only (strategic merge): the raw marker, e.g. `merge,retainKeys`. */
  readonly patchStrategy: string | undefined;
  readonly patchMergeKey: string | undefined;
  readonly groupVersionKinds: readonly GroupVersionKind[] | undefined;
  /** Any other x-kubernetes-* marker (x-kubernetes-unions), kept for publishing. */
  readonly other: ReadonlyMap<string, unknown> | undefined;
}

/**
 * Value-only validations (kube's ValueValidation): they judge a value, never
 * say what shape it has. `allOf`/`anyOf`/`oneOf`/`not` hold nested value
 * validations (a structural schema may not put types or defaults in them).
 */
export interface ValueValidation {
  readonly enum: readonly unknown[] | undefined;
  readonly pattern: string | undefined;
  readonly maximum: number | undefined;
  readonly exclusiveMaximum: boolean;
  readonly minimum: number | undefined;
  readonly exclusiveMinimum: boolean;
  readonly multipleOf: number | undefined;
  readonly maxLength: number | undefined;
  readonly minLength: number | undefined;
  readonly maxItems: number | undefined;
  readonly minItems: number | undefined;
  readonly uniqueItems: boolean;
  readonly maxProperties: number | undefined;
  readonly minProperties: number | undefined;
  readonly required: readonly string[] | undefined;
  readonly allOf: readonly NestedValueValidation[] | undefined;
  readonly anyOf: readonly NestedValueValidation[] | undefined;
  readonly oneOf: readonly NestedValueValidation[] | undefined;
  readonly not: NestedValueValidation | undefined;
}

/** A value validation inside allOf/anyOf/oneOf/not, with those of the values below it. */
export interface NestedValueValidation {
  readonly validation: ValueValidation;
  readonly properties: ReadonlyMap<string, NestedValueValidation> | undefined;
  readonly items: NestedValueValidation | undefined;
  readonly additionalProperties: NestedValueValidation | undefined;
}

/** One x-kubernetes-validations rule as written; cel/ compiles it (cel/structural-rules.ts). */
export interface ValidationRule {
  readonly rule: string;
  readonly message: string | undefined;
  readonly messageExpression: string | undefined;
  readonly reason: string | undefined;
  readonly fieldPath: string | undefined;
  readonly optionalOldSelf: boolean;
}

export interface Structural {
  /**
   * The definition this node is, or is a use of (io.k8s.api.core.v1.PodSpec), when
   * it came from a table through `$ref`; undefined for an inline schema. Go's type
   * names in decode errors come from it.
   */
  readonly name: string | undefined;
  /** undefined: no type (anything, or an opaque built-in such as RawExtension). */
  readonly type: string | undefined;
  readonly format: string | undefined;
  readonly title: string | undefined;
  readonly description: string | undefined;
  /** Declared properties by name; a Map, so a property named `__proto__` is data. */
  readonly properties: ReadonlyMap<string, Structural> | undefined;
  /** The schema of undeclared properties' values, `true` (anything), or undefined/false (none). */
  readonly additionalProperties: Structural | boolean | undefined;
  readonly items: Structural | undefined;
  readonly nullable: boolean;
  readonly hasDefault: boolean;
  readonly default: unknown;
  readonly extensions: Extensions;
  readonly validation: ValueValidation | undefined;
  readonly rules: readonly ValidationRule[];
  /**
   * A use of a table's definition with markers of its own beside the `$ref`
   * (`{$ref, x-kubernetes-patch-strategy}`): the property's own fields as written,
   * so publishing writes the reference back with them. undefined otherwise.
   */
  readonly overlay: Readonly<Record<string, unknown>> | undefined;
}

/** A property's schema, own names only. */
export function propertyOf(node: Structural, name: string): Structural | undefined {
  return node.properties?.get(name);
}

/** The schema of a map's values: additionalProperties when it is a schema. */
export function valuesOf(node: Structural): Structural | undefined {
  const ap = node.additionalProperties;
  return typeof ap === 'object' ? ap : undefined;
}

/**
 * An object schema that declares neither properties nor a value schema: opaque in
 * Kubernetes (RawExtension, FieldsV1, apiextensions JSON), its Go type takes raw
 * JSON of any shape.
 */
export function isOpaqueObject(node: Structural): boolean {
  return node.properties === undefined && typeof node.additionalProperties !== 'object';
}
