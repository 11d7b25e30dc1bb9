// The compiled schema model: one node per definition, the one $ref rule, value
// validations apart from structure, typed extensions, and publishing's round trip.
import { describe, expect, test } from 'vitest';
import { builtinDefinitions, type Definitions, type OpenApiSchema } from '../../../src/schema/definitions.js';
import { compileStructural, EMPTY_STRUCTURAL, structuralDefinition, structuralOf, toOpenApi, type Structural } from '../../../src/schema/structural/index.js';

const table: Definitions = {
  'x.Leaf': { type: 'string', format: 'byte' },
  'x.Tree': { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/definitions/x.Tree' } } } },
  'x.Alias': { $ref: '#/definitions/x.Leaf' },
  'x.Loop1': { $ref: '#/definitions/x.Loop2' },
  'x.Loop2': { $ref: '#/definitions/x.Loop1' },
  'x.Holder': {
    type: 'object',
    properties: {
      leaf: { $ref: '#/definitions/x.Leaf' },
      marked: { $ref: '#/definitions/x.Tree', 'x-kubernetes-patch-strategy': 'retainKeys' },
      wrapped: { allOf: [{ $ref: '#/components/schemas/x.Leaf' }], default: 'YQ==' },
      dangling: { $ref: '#/definitions/x.Missing' },
      alias: { $ref: '#/definitions/x.Alias' },
      loop: { $ref: '#/definitions/x.Loop1' },
    },
  },
};

function prop(node: Structural | undefined, ...names: string[]): Structural | undefined {
  let n = node;
  for (const name of names) n = n?.properties?.get(name);
  return n;
}

describe('references', () => {
  const holder = structuralDefinition(table, 'x.Holder')!;
  const cases: Array<{ name: string; got: () => unknown; want: unknown }> = [
    { name: 'a $ref is the definition node itself', got: () => prop(holder, 'leaf') === structuralDefinition(table, 'x.Leaf'), want: true },
    { name: 'a definition node knows its name', got: () => prop(holder, 'leaf')?.name, want: 'x.Leaf' },
    { name: 'a recursive definition is a cycle, not an unbounded tree', got: () => structuralDefinition(table, 'x.Tree')!.properties!.get('children')!.items === structuralDefinition(table, 'x.Tree'), want: true },
    { name: 'a $ref with its own markers is an overlay with the definition structure', got: () => [prop(holder, 'marked')?.name, prop(holder, 'marked')?.extensions.patchStrategy, [...(prop(holder, 'marked')?.properties?.keys() ?? [])]], want: ['x.Tree', 'retainKeys', ['name', 'children']] },
    { name: 'an overlay is not the shared definition node', got: () => prop(holder, 'marked') === structuralDefinition(table, 'x.Tree'), want: false },
    { name: 'the v3 allOf wrapper is a reference, its siblings an overlay', got: () => [prop(holder, 'wrapped')?.name, prop(holder, 'wrapped')?.format, prop(holder, 'wrapped')?.default, prop(holder, 'wrapped')?.validation], want: ['x.Leaf', 'byte', 'YQ==', undefined] },
    { name: 'a dangling reference is an empty schema that keeps the name', got: () => [prop(holder, 'dangling')?.name, prop(holder, 'dangling')?.type, prop(holder, 'dangling')?.properties, toOpenApi(structuralDefinition(table, 'x.Holder')!).properties?.dangling], want: ['x.Missing', undefined, undefined, { $ref: '#/definitions/x.Missing' }] },
    { name: 'an alias definition is what it leads to', got: () => prop(holder, 'alias') === structuralDefinition(table, 'x.Leaf'), want: true },
    { name: 'an alias loop ends in the empty schema', got: () => prop(holder, 'loop') === EMPTY_STRUCTURAL, want: true },
    { name: 'an unknown definition is undefined', got: () => structuralDefinition(table, 'x.Nope'), want: undefined },
    { name: 'a prototype name is not a definition', got: () => [structuralDefinition(table, 'constructor'), structuralDefinition(table, '__proto__'), structuralDefinition(table, 'toString')], want: [undefined, undefined, undefined] },
    { name: 'compiled once per table', got: () => structuralDefinition(table, 'x.Holder') === holder, want: true },
  ];
  for (const c of cases) test(c.name, () => expect(c.got()).toEqual(c.want));
});

describe('inline (CRD) schemas', () => {
  const cases: Array<{ name: string; schema: unknown; got: (n: Structural) => unknown; want: unknown }> = [
    {
      name: 'value validations are kept apart from the structure',
      schema: { type: 'string', pattern: '^a+$', maxLength: 5, minLength: 1, enum: ['a', 'aa'] },
      got: (n) => [n.type, n.validation?.pattern, n.validation?.maxLength, n.validation?.minLength, n.validation?.enum],
      want: ['string', '^a+$', 5, 1, ['a', 'aa']],
    },
    {
      name: 'numbers and their exclusive bounds',
      schema: { type: 'integer', minimum: 1, maximum: 10, exclusiveMaximum: true, multipleOf: 2 },
      got: (n) => [n.validation?.minimum, n.validation?.exclusiveMinimum, n.validation?.maximum, n.validation?.exclusiveMaximum, n.validation?.multipleOf],
      want: [1, false, 10, true, 2],
    },
    {
      name: 'list and map semantics are typed extensions',
      schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a', 'b'], maxItems: 3, minItems: 1, uniqueItems: true, items: { type: 'object', 'x-kubernetes-map-type': 'atomic' } },
      got: (n) => [n.extensions.listType, n.extensions.listMapKeys, n.validation?.maxItems, n.validation?.minItems, n.validation?.uniqueItems, n.items?.extensions.mapType],
      want: ['map', ['a', 'b'], 3, 1, true, 'atomic'],
    },
    {
      name: 'allOf/anyOf/oneOf/not are nested value validations',
      schema: { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ required: ['a'] }, { properties: { a: { pattern: 'x' } } }], not: { required: ['b'] } },
      got: (n) => [n.validation?.anyOf?.[0]?.validation.required, n.validation?.anyOf?.[1]?.properties?.get('a')?.validation.pattern, n.validation?.not?.validation.required],
      want: [['a'], 'x', ['b']],
    },
    {
      name: 'x-kubernetes-validations are kept as rules',
      schema: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.a > 0', message: 'must be positive', reason: 'FieldValueForbidden', fieldPath: '.a' }, { rule: 'self == oldSelf', optionalOldSelf: true }] },
      got: (n) => n.rules.map((r) => [r.rule, r.message, r.reason, r.fieldPath, r.optionalOldSelf]),
      want: [['self.a > 0', 'must be positive', 'FieldValueForbidden', '.a', false], ['self == oldSelf', undefined, undefined, undefined, true]],
    },
    {
      name: 'structure extensions',
      schema: { type: 'object', nullable: true, default: { a: 1 }, 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-embedded-resource': true, properties: { v: { 'x-kubernetes-int-or-string': true } } },
      got: (n) => [n.nullable, n.hasDefault, n.default, n.extensions.preserveUnknownFields, n.extensions.embeddedResource, n.properties?.get('v')?.extensions.intOrString],
      want: [true, true, { a: 1 }, true, true, true],
    },
    {
      name: 'a property named __proto__ is data',
      schema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"integer"}}}'),
      got: (n) => [[...n.properties!.keys()], n.properties!.get('__proto__')?.type, n.properties!.get('constructor')?.type, ({} as Record<string, unknown>).type],
      want: [['__proto__', 'constructor'], 'string', 'integer', undefined],
    },
    {
      name: 'garbage field values are ignored, not trusted',
      schema: { type: 5, format: {}, maxLength: 'x', required: [1], 'x-kubernetes-list-type': 'bogus', 'x-kubernetes-list-map-keys': 'a', properties: [], items: 'x', 'x-kubernetes-validations': 'rule' },
      got: (n) => [n.type, n.format, n.validation?.maxLength, n.validation?.required, n.extensions.listType, n.extensions.listMapKeys, n.properties, n.items, n.rules],
      want: [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, []],
    },
    { name: 'a non-object schema is the empty schema', schema: null, got: (n) => n === EMPTY_STRUCTURAL, want: true },
  ];
  for (const c of cases) test(c.name, () => expect(c.got(compileStructural(c.schema as OpenApiSchema))).toEqual(c.want));

  test('an inline schema round-trips through publishing', () => {
    const schema = { type: 'object', required: ['spec'], properties: { spec: { type: 'object', properties: { n: { type: 'integer', minimum: 0, exclusiveMinimum: true }, s: { type: 'array', items: { type: 'string', pattern: '^x' }, 'x-kubernetes-list-type': 'set' } }, 'x-kubernetes-validations': [{ rule: 'self.n < 5', message: 'm' }], oneOf: [{ required: ['n'] }, { required: ['s'] }] } } };
    expect(toOpenApi(compileStructural(schema as OpenApiSchema))).toEqual(schema);
  });
});

describe('the built-in table', () => {
  test('every definition written back is the definition it was compiled from, byte for byte', () => {
    const differ: string[] = [];
    for (const name of Object.keys(builtinDefinitions)) {
      if (JSON.stringify(toOpenApi(structuralDefinition(builtinDefinitions, name)!)) !== JSON.stringify(builtinDefinitions[name])) differ.push(name);
    }
    expect(differ).toEqual([]);
  });

  test('JSONSchemaProps, the recursive built-in, compiles to a finite graph', () => {
    const props = structuralDefinition(builtinDefinitions, 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps')!;
    expect(props.properties!.get('not')).toBe(props);
    expect(props.properties!.get('properties')!.additionalProperties).toBe(props);
  });

  test('a kind resolves through its ResourceSchema', () => {
    const pod = structuralOf({ name: 'io.k8s.api.core.v1.Pod', definitions: builtinDefinitions })!;
    const containers = pod.properties!.get('spec')!.properties!.get('containers')!;
    expect([containers.extensions.listType, containers.extensions.listMapKeys, containers.extensions.patchStrategy, containers.extensions.patchMergeKey, containers.items?.name]).toEqual(['map', ['name'], 'merge', 'name', 'io.k8s.api.core.v1.Container']);
  });
});
