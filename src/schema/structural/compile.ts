// Builds Structural nodes from schemas as JSON carries them: the built-in table
// (src/generated/openapi, OpenAPI v2 with `$ref`s between definitions) and a
// CustomResourceDefinition version's openAPIV3Schema (inline, no `$ref`).
//
// The one `$ref` rule of the code base lives here:
//   - `{$ref: X}` is definition X of the same table (v2 `#/definitions/X` and v3
//     `#/components/schemas/X` spellings), one node per definition per table;
//   - `{allOf: [{$ref: X}], ...}` (the v3 wrapper) is the same as `{$ref: X, ...}`;
//   - a reference with fields of its own beside it is an overlay: definition X's
//     schema with those fields on top (a property's patch strategy, default);
//   - a dangling reference is a schema with nothing in it but the name it refers
//     to (checks nothing; publishing writes the reference back), and a definition
//     that is only a reference back to itself is the empty schema.
// Definitions are compiled when first reached and memoized per table, so a kind's
// schema costs what its reachable definitions cost, once (lazy: cold start pays
// nothing for kinds nobody writes).
import { builtinDefinitions, definitionOf, refName, type Definitions, type OpenApiSchema, type RawValidationRule, type ResourceSchema } from '../definitions.js';
import type { GroupVersionKind } from '../object.js';
import type { Extensions, ListType, MapType, NestedValueValidation, Structural, ValidationRule, ValueValidation } from './structural.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface Compiler {
  readonly definitions: Definitions;
  /** Compiled definitions by name; registered before their children, so a cycle meets its own node. */
  readonly named: Map<string, Structural>;
  /** Definitions that are bare references, while they resolve (an alias chain back to itself ends here). */
  readonly resolving: Set<string>;
  /** The empty node of each dangling reference, by the name it refers to. */
  readonly dangling: Map<string, Structural>;
}

const compilers = new WeakMap<Definitions, Compiler>();

function compilerFor(definitions: Definitions): Compiler {
  let c = compilers.get(definitions);
  if (c === undefined) {
    c = { definitions, named: new Map(), resolving: new Set(), dangling: new Map() };
    compilers.set(definitions, c);
  }
  return c;
}

const NO_EXTENSIONS: Extensions = Object.freeze({
  preserveUnknownFields: false,
  embeddedResource: false,
  intOrString: false,
  listType: undefined,
  listMapKeys: undefined,
  mapType: undefined,
  patchStrategy: undefined,
  patchMergeKey: undefined,
  groupVersionKinds: undefined,
  other: undefined,
});

function emptyNode(name: string | undefined): Mutable<Structural> {
  return {
    name,
    type: undefined,
    format: undefined,
    title: undefined,
    description: undefined,
    properties: undefined,
    additionalProperties: undefined,
    items: undefined,
    nullable: false,
    hasDefault: false,
    default: undefined,
    extensions: NO_EXTENSIONS,
    validation: undefined,
    rules: NO_RULES,
    overlay: undefined,
  };
}

const NO_RULES: readonly ValidationRule[] = Object.freeze([]);

/** A schema with nothing in it: what a dangling reference compiles to. */
export const EMPTY_STRUCTURAL: Structural = Object.freeze(emptyNode(undefined));

/** The compiled definition `name` of `definitions`; undefined when the table has no such definition. */
export function structuralDefinition(definitions: Definitions, name: string): Structural | undefined {
  if (definitionOf(definitions, name) === undefined) return undefined;
  return compileNamed(compilerFor(definitions), name);
}

/** The compiled schema of a served kind (its root definition); undefined when its table lacks it. */
export function structuralOf(schema: ResourceSchema): Structural | undefined {
  return structuralDefinition(schema.definitions, schema.name);
}

/**
 * Compiles an inline schema (a CRD version's openAPIV3Schema), whose `$ref`s, if
 * any, resolve in `definitions`. Not memoized: the caller keeps the result for as
 * long as the schema serves. The nodes share lists (enum, required, list-map keys)
 * with `raw`, which must not change afterwards (a stored CRD is frozen).
 */
export function compileStructural(raw: OpenApiSchema, definitions: Definitions = NO_DEFINITIONS): Structural {
  return compileNode(compilerFor(definitions), raw);
}

const NO_DEFINITIONS: Definitions = Object.freeze({});

/** Whether a node is the built-in table's (strategic merge serves built-in kinds only). */
export function isBuiltinTable(definitions: Definitions): boolean {
  return definitions === builtinDefinitions;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The definition a schema is a use of: `$ref`, or the v3 `allOf: [{$ref}]` wrapper. */
function referenceOf(raw: OpenApiSchema): { readonly name: string; readonly siblings: Record<string, unknown> | undefined } | undefined {
  let ref: string | undefined;
  let skip: string;
  if (typeof raw.$ref === 'string') {
    ref = raw.$ref;
    skip = '$ref';
  } else if (raw.allOf !== undefined && isReferenceWrapper(raw)) {
    ref = (raw.allOf[0] as OpenApiSchema).$ref!;
    skip = 'allOf';
  } else {
    return undefined;
  }
  let siblings: Record<string, unknown> | undefined;
  // for-in over own keys: most references have no siblings, and this allocates nothing for them.
  for (const key in raw) {
    if (key === skip || !Object.hasOwn(raw, key)) continue;
    siblings ??= Object.create(null) as Record<string, unknown>;
    siblings[key] = (raw as Record<string, unknown>)[key];
  }
  return { name: refName(ref), siblings };
}

function isReferenceWrapper(raw: OpenApiSchema): boolean {
  return Array.isArray(raw.allOf) && raw.allOf.length === 1 && raw.properties === undefined && isRecord(raw.allOf[0]) && typeof raw.allOf[0].$ref === 'string';
}

function compileNode(c: Compiler, raw: OpenApiSchema): Structural {
  if (!isRecord(raw)) return EMPTY_STRUCTURAL;
  const ref = referenceOf(raw);
  if (ref === undefined) return fillNode(c, emptyNode(undefined), raw);
  const target = compileNamed(c, ref.name) ?? danglingNode(c, ref.name);
  if (ref.siblings === undefined) return target;
  // An overlay: the definition's schema with the property's own fields on top. Its
  // inline parts are compiled again (references inside stay shared), so it is a
  // node of its own that needs no later fix-up even while the target is being built.
  const base = definitionOf(c.definitions, ref.name);
  const merged = { ...(referenceOf(base ?? {}) === undefined ? base : {}), ...ref.siblings } as OpenApiSchema;
  const node = fillNode(c, emptyNode(target.name), merged);
  node.overlay = Object.freeze(ref.siblings);
  if (referenceOf(base ?? {}) !== undefined) copyStructure(node, target);
  return node;
}

/**
 * A reference to a definition the table lacks: a schema with nothing in it that
 * keeps the name, so publishing writes the reference back (a custom table may
 * refer to built-in meta types it does not copy in; the document has them).
 */
function danglingNode(c: Compiler, name: string): Structural {
  let node = c.dangling.get(name);
  if (node === undefined) {
    node = Object.freeze(emptyNode(name));
    c.dangling.set(name, node);
  }
  return node;
}

/** An overlay of a definition that is itself a reference: the structure comes from where it leads. */
function copyStructure(node: Mutable<Structural>, from: Structural): void {
  node.type ??= from.type;
  node.format ??= from.format;
  node.properties ??= from.properties;
  node.additionalProperties ??= from.additionalProperties;
  node.items ??= from.items;
}

function compileNamed(c: Compiler, name: string): Structural | undefined {
  const known = c.named.get(name);
  if (known !== undefined) return known;
  const raw = definitionOf(c.definitions, name);
  if (raw === undefined || !isRecord(raw)) return undefined;
  if (referenceOf(raw) !== undefined) {
    // A definition that is only a reference (an alias): it is what it leads to.
    if (c.resolving.has(name)) return EMPTY_STRUCTURAL;
    c.resolving.add(name);
    try {
      const target = compileNode(c, raw);
      c.named.set(name, target);
      return target;
    } finally {
      c.resolving.delete(name);
    }
  }
  const node = emptyNode(name);
  c.named.set(name, node);
  return fillNode(c, node, raw);
}

function fillNode(c: Compiler, node: Mutable<Structural>, raw: OpenApiSchema): Mutable<Structural> {
  node.type = stringField(raw.type);
  node.format = stringField(raw.format);
  node.title = stringField(raw.title);
  node.description = stringField(raw.description);
  node.nullable = raw.nullable === true;
  if (Object.hasOwn(raw, 'default')) {
    node.hasDefault = true;
    node.default = raw.default;
  }
  node.extensions = extensionsOf(raw);
  node.validation = valueValidationOf(raw);
  node.rules = rulesOf(raw['x-kubernetes-validations']);
  if (isRecord(raw.properties)) {
    const props = new Map<string, Structural>();
    // Registered before the children are compiled (see compileNamed).
    node.properties = props;
    const rawProps = raw.properties as Record<string, OpenApiSchema>;
    // for-in over own keys: no array of names per node (a 1 MiB CRD schema has thousands).
    for (const key in rawProps) if (Object.hasOwn(rawProps, key)) props.set(key, compileNode(c, rawProps[key]!));
  }
  const ap = raw.additionalProperties;
  if (typeof ap === 'boolean') node.additionalProperties = ap;
  else if (isRecord(ap)) node.additionalProperties = compileNode(c, ap);
  if (isRecord(raw.items)) node.items = compileNode(c, raw.items);
  return node;
}

function stringField(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function numberField(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A list of strings as written (the raw schema is the caller's and is never changed), else undefined. */
function stringList(v: unknown): readonly string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return undefined;
  return v as readonly string[];
}

const KNOWN_EXTENSIONS: ReadonlySet<string> = new Set([
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-patch-strategy',
  'x-kubernetes-patch-merge-key',
  'x-kubernetes-group-version-kind',
  'x-kubernetes-validations',
]);

function extensionsOf(raw: OpenApiSchema): Extensions {
  let other: Map<string, unknown> | undefined;
  let any = false;
  for (const key in raw) {
    if (!key.startsWith('x-kubernetes-') || !Object.hasOwn(raw, key)) continue;
    any = true;
    if (!KNOWN_EXTENSIONS.has(key)) (other ??= new Map()).set(key, (raw as Record<string, unknown>)[key]);
  }
  if (!any) return NO_EXTENSIONS;
  const listType = raw['x-kubernetes-list-type'];
  const mapType = raw['x-kubernetes-map-type'];
  const gvks = raw['x-kubernetes-group-version-kind'];
  return Object.freeze({
    preserveUnknownFields: raw['x-kubernetes-preserve-unknown-fields'] === true,
    embeddedResource: raw['x-kubernetes-embedded-resource'] === true,
    intOrString: raw['x-kubernetes-int-or-string'] === true,
    listType: listType === 'atomic' || listType === 'set' || listType === 'map' ? (listType as ListType) : undefined,
    listMapKeys: stringList(raw['x-kubernetes-list-map-keys']),
    mapType: mapType === 'atomic' || mapType === 'granular' ? (mapType as MapType) : undefined,
    patchStrategy: stringField(raw['x-kubernetes-patch-strategy']),
    patchMergeKey: stringField(raw['x-kubernetes-patch-merge-key']),
    groupVersionKinds: Array.isArray(gvks) ? (gvks as readonly GroupVersionKind[]) : undefined,
    other,
  });
}

const VALUE_FIELDS = [
  'enum', 'pattern', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'multipleOf', 'maxLength', 'minLength',
  'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'allOf', 'anyOf', 'oneOf', 'not',
] as const;

function valueValidationOf(raw: OpenApiSchema): ValueValidation | undefined {
  let any = false;
  for (let i = 0; i < VALUE_FIELDS.length && !any; i++) any = Object.hasOwn(raw, VALUE_FIELDS[i]!);
  if (!any) return undefined;
  return Object.freeze({
    enum: Array.isArray(raw.enum) ? raw.enum : undefined,
    pattern: stringField(raw.pattern),
    maximum: numberField(raw.maximum),
    exclusiveMaximum: raw.exclusiveMaximum === true,
    minimum: numberField(raw.minimum),
    exclusiveMinimum: raw.exclusiveMinimum === true,
    multipleOf: numberField(raw.multipleOf),
    maxLength: numberField(raw.maxLength),
    minLength: numberField(raw.minLength),
    maxItems: numberField(raw.maxItems),
    minItems: numberField(raw.minItems),
    uniqueItems: raw.uniqueItems === true,
    maxProperties: numberField(raw.maxProperties),
    minProperties: numberField(raw.minProperties),
    required: stringList(raw.required),
    // The v3 reference wrapper is structure (compileNode), not a value validation.
    allOf: typeof raw.$ref !== 'string' && !isReferenceWrapper(raw) ? nestedList(raw.allOf) : undefined,
    anyOf: nestedList(raw.anyOf),
    oneOf: nestedList(raw.oneOf),
    not: isRecord(raw.not) ? nestedOf(raw.not) : undefined,
  });
}

function nestedList(v: unknown): readonly NestedValueValidation[] | undefined {
  return Array.isArray(v) ? Object.freeze(v.filter(isRecord).map((s) => nestedOf(s as OpenApiSchema))) : undefined;
}

/** A nested value validation: only value fields count, and the same below properties, items and values. */
function nestedOf(raw: OpenApiSchema): NestedValueValidation {
  let properties: Map<string, NestedValueValidation> | undefined;
  if (isRecord(raw.properties)) {
    properties = new Map();
    const rawProps = raw.properties as Record<string, OpenApiSchema>;
    for (const key of Object.keys(rawProps)) if (isRecord(rawProps[key])) properties.set(key, nestedOf(rawProps[key]!));
  }
  return Object.freeze({
    validation: valueValidationOf(raw) ?? NO_VALUE_VALIDATION,
    properties,
    items: isRecord(raw.items) ? nestedOf(raw.items) : undefined,
    additionalProperties: isRecord(raw.additionalProperties) ? nestedOf(raw.additionalProperties) : undefined,
  });
}

export const NO_VALUE_VALIDATION: ValueValidation = Object.freeze({
  enum: undefined, pattern: undefined, maximum: undefined, exclusiveMaximum: false, minimum: undefined, exclusiveMinimum: false,
  multipleOf: undefined, maxLength: undefined, minLength: undefined, maxItems: undefined, minItems: undefined, uniqueItems: false,
  maxProperties: undefined, minProperties: undefined, required: undefined, allOf: undefined, anyOf: undefined, oneOf: undefined, not: undefined,
});

function rulesOf(v: unknown): readonly ValidationRule[] {
  if (!Array.isArray(v) || v.length === 0) return NO_RULES;
  const rules: ValidationRule[] = [];
  for (const r of v as unknown[]) {
    if (!isRecord(r)) continue;
    const raw = r as RawValidationRule;
    rules.push(Object.freeze({
      rule: typeof raw.rule === 'string' ? raw.rule : '',
      message: stringField(raw.message),
      messageExpression: stringField(raw.messageExpression),
      reason: stringField(raw.reason),
      fieldPath: stringField(raw.fieldPath),
      optionalOldSelf: raw.optionalOldSelf === true,
    }));
  }
  return Object.freeze(rules);
}
