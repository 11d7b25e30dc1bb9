// Schema → CEL types (read from the compiled Structural), property-name escaping,
// self/oldSelf, compile errors, cache, and schemas that cycle or nest deep.
import { describe, expect, test } from 'vitest';
import { CelCompileError, createCelEnvironment, declTypeOf, escapePropertyName, ruleVariables, unescapePropertyName, type DeclType } from '../../src/cel/index.js';
import { builtinDefinitions } from '../../src/schema/definitions.js';
import { compileStructural, EMPTY_STRUCTURAL, structuralDefinition, type Structural } from '../../src/schema/structural/index.js';
import { runCelTable, type CelRow } from './table.js';

describe('cel property-name escaping', () => {
  const cases = [
    { name: 'plain', input: 'replicas', want: 'replicas' },
    { name: 'double underscore', input: 'a__b', want: 'a__underscores__b' },
    { name: 'dot', input: 'a.b', want: 'a__dot__b' },
    { name: 'dash', input: 'x-y', want: 'x__dash__y' },
    { name: 'slash', input: 'k8s.io/name', want: 'k8s__dot__io__slash__name' },
    { name: 'keyword', input: 'namespace', want: '__namespace__' },
    { name: 'keyword in', input: 'in', want: '__in__' },
    { name: 'leading digit is unreachable', input: '1a', want: undefined },
    { name: 'space is unreachable', input: 'a b', want: undefined },
    { name: '__proto__ is an ordinary name', input: '__proto__', want: '__underscores__proto__underscores__' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(escapePropertyName(c.input)).toBe(c.want);
      if (c.want !== undefined) expect(unescapePropertyName(c.want)).toBe(c.input);
    });
  }
});

const schema = compileStructural({
  type: 'object',
  properties: {
    replicas: { type: 'integer' },
    ratio: { type: 'number' },
    name: { type: 'string', maxLength: 63 },
    'x-label': { type: 'string' },
    namespace: { type: 'string' },
    port: { 'x-kubernetes-int-or-string': true },
    data: { type: 'string', format: 'byte' },
    timeout: { type: 'string', format: 'duration' },
    created: { type: 'string', format: 'date-time' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: {} },
    nested: { type: 'object', properties: { inner: { type: 'integer' } } },
  },
});

const self = {
  replicas: 3,
  ratio: 2,
  name: 'web',
  'x-label': 'l',
  namespace: 'default',
  port: 'http',
  data: Buffer.from('hi').toString('base64'),
  timeout: '1m30s',
  created: '2024-01-02T03:04:05Z',
  labels: { app: 'web' },
  extra: { anything: [1, 2.5] },
  tags: ['a', 'b'],
  template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } },
  nested: { inner: 7 },
};

const rows: CelRow[] = [
  { name: 'integer is int', expr: 'type(self.replicas) == int', want: true },
  { name: 'number is double even when integral', expr: 'type(self.ratio) == double', want: true },
  { name: 'escaped dash', expr: 'self.x__dash__label', want: 'l' },
  { name: 'escaped keyword', expr: 'self.__namespace__', want: 'default' },
  { name: 'int-or-string is dyn', expr: "self.port == 'http'", want: true },
  { name: 'format byte is bytes', expr: "self.data == b'hi'", want: true },
  { name: 'format duration is duration', expr: "self.timeout == duration('90s')", want: true },
  { name: 'format date-time is timestamp', expr: "self.created == timestamp('2024-01-02T03:04:05Z')", want: true },
  { name: 'additionalProperties is a map', expr: "self.labels['app']", want: 'web' },
  { name: 'preserve-unknown-fields is dyn', expr: 'self.extra.anything[0] == 1', want: true },
  { name: 'list', expr: "'b' in self.tags", want: true },
  { name: 'embedded resource has kind', expr: 'self.template.kind', want: 'Pod' },
  { name: 'embedded resource has metadata.name', expr: 'self.template.metadata.name', want: 'p' },
  { name: 'nested object', expr: 'self.nested.inner', want: 7n },
  { name: 'absent field has() false', expr: 'has(self.nested.inner) && !has(oldSelf.nested.inner)', bindings: { oldSelf: { nested: {} } }, want: true },
  { name: 'absent field is an error', expr: 'oldSelf.nested.inner', bindings: { oldSelf: { nested: {} } }, error: 'No such key: inner' },
  { name: 'self == oldSelf by value', expr: 'self == oldSelf', bindings: { oldSelf: structuredClone(self) }, want: true },
  { name: 'set list equality ignores order', expr: 'self == oldSelf', bindings: { oldSelf: { ...self, tags: ['b', 'a'] } }, want: true },
  { name: 'transition rule', expr: 'self.replicas >= oldSelf.replicas', bindings: { oldSelf: { ...self, replicas: 5 } }, want: false },
  { name: 'unknown field is a compile error', expr: 'self.nope', error: 'No such key: nope' },
  { name: 'type error is a compile error', expr: 'self.replicas + self.name', error: 'no such overload: int + string' },
];

describe('cel schema types', () => {
  const env = createCelEnvironment({ variables: ruleVariables(schema, { oldSelf: true }) });
  runCelTable(rows.map((r) => ({ ...r, bindings: { self, ...r.bindings } })), env);

  test('an array without items has no type', () => {
    expect(declTypeOf(compileStructural({ type: 'array' }), 'x')).toBeUndefined();
  });

  test('compile errors carry the position', () => {
    try {
      env.compile('self.replicas > 1 &&\n  self.nope');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(CelCompileError);
      expect((err as CelCompileError).position).toEqual({ offset: 28, line: 2, column: 8 });
      expect((err as CelCompileError).message).toBe('No such key: nope (at 2:8)');
    }
  });

  test('a parse error carries the position', () => {
    expect(() => env.compile('self.replicas >')).toThrow(/at 1:\d+/);
  });

  test('a repeated compile is served from the cache', () => {
    const e = createCelEnvironment({ variables: ruleVariables(schema) });
    const first = e.compile('self.replicas > 1');
    expect(e.compile('self.replicas > 1')).toBe(first);
    expect(e.cacheHits).toBe(1);
  });
});

describe('cel schema types of cyclic, deep and resource-root schemas', () => {
  const jsonSchemaProps = structuralDefinition(builtinDefinitions, 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps')!;
  const loop: Structural = (() => {
    const props = new Map<string, Structural>();
    const node: Structural = { ...EMPTY_STRUCTURAL, type: 'object', properties: props };
    const list: Structural = { ...EMPTY_STRUCTURAL, type: 'array', items: node };
    props.set('again', node);
    props.set('many', list);
    props.set('n', compileStructural({ type: 'integer' }));
    return node;
  })();
  /** An object schema `depth` levels deep, built without recursion (compileStructural itself would overflow first). */
  const deep = (depth: number): Structural => {
    let node = compileStructural({ type: 'integer' });
    for (let i = 0; i < depth; i++) node = { ...EMPTY_STRUCTURAL, type: 'object', properties: new Map([['next', node]]) };
    return node;
  };

  const cases = [
    {
      name: 'a built-in definition that reaches itself ends in an object without fields',
      input: jsonSchemaProps,
      want: (d: DeclType) => d.fields!.get('properties')!.type.elem!.fields!.size === 0 && d.fields!.has('x__dash__kubernetes__dash__validations'),
    },
    {
      name: 'a hand-made cycle through a property and through list items',
      input: loop,
      want: (d: DeclType) => d.fields!.get('again')!.type.fields!.size === 0 && d.fields!.get('many')!.type.elem!.fields!.size === 0 && d.fields!.has('n'),
    },
    {
      name: 'a deep schema is typed to its leaf',
      input: deep(300),
      want: (d: DeclType) => {
        let t: DeclType | undefined = d;
        for (let i = 0; i < 300; i++) t = t?.fields?.get('next')?.type;
        return t?.celType === 'int';
      },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const d = declTypeOf(c.input, 'x');
      expect(d === undefined ? false : c.want(d)).toBe(true);
    });
  }

  test('a schema nested past the stack has no type rather than crashing', () => {
    expect(declTypeOf(deep(100_000), 'x')).toBeUndefined();
  });

  test('rules over a cyclic built-in compile', () => {
    const env = createCelEnvironment({ variables: ruleVariables(jsonSchemaProps) });
    expect(env.compile("self.properties.all(k, k != '') && !has(self.type) || self.type != ''").ast.checkedType?.name).toBe('bool');
  });

  test('a resource root reads apiVersion, kind and metadata.name/generateName even when the schema omits them', () => {
    const root = compileStructural({ type: 'object', properties: { spec: { type: 'object' } } });
    const env = createCelEnvironment({ variables: ruleVariables(root, { resourceRoot: true }) });
    const program = env.compile("self.kind == 'Foo' && self.metadata.name.startsWith('a') && self.metadata.generateName == ''");
    expect(program.evaluate({ self: { kind: 'Foo', metadata: { name: 'abc', generateName: '' } } })).toBe(true);
    expect(() => createCelEnvironment({ variables: ruleVariables(root) }).compile('self.metadata.name')).toThrow('No such key: metadata');
  });

  test('metadata.name of a resource is bounded by a DNS subdomain\'s length', () => {
    const root = compileStructural({ type: 'object', 'x-kubernetes-embedded-resource': true, properties: { metadata: { type: 'object', properties: { generateName: { type: 'string', maxLength: 10 } } } } });
    const meta = declTypeOf(root, 'x')!.fields!.get('metadata')!.type;
    expect({ name: meta.fields!.get('name')!.type.maxElements, generateName: meta.fields!.get('generateName')!.type.maxElements }).toEqual({ name: 253, generateName: 10 });
  });
});
