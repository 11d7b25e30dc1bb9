// Defaulting as kube-apiserver defaults a custom resource (apiextensions-apiserver
// pkg/apiserver/schema/defaulting): absent members and non-nullable nulls take
// their default, in items and map values too, recursively into what a default
// brought; defaults are pruned by their schema and never shared. Then
// validateDefaults, the check a CRD's defaults get when the CRD is written.
import { describe, expect, test } from 'vitest';
import { builtinDefinitions, type OpenApiSchema } from '../../../src/schema/definitions.js';
import { invalidValue, path } from '../../../src/schema/field-errors.js';
import { applyDefaults, pruneNonNullableNullsWithoutDefaults, validateDefaults } from '../../../src/schema/structural/default.js';
import { compileStructural, structuralDefinition } from '../../../src/schema/structural/index.js';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): OpenApiSchema =>
  ({ type: 'object', properties, ...extra }) as OpenApiSchema;

interface Case {
  readonly name: string;
  readonly schema: OpenApiSchema;
  readonly value: unknown;
  readonly isResourceRoot?: boolean;
  /** The value after defaulting, compared as JSON text (member order and `__proto__` members count). */
  readonly want: unknown;
}

const cases: Case[] = [
  {
    name: 'an absent property takes its default',
    schema: obj({ spec: obj({ replicas: { type: 'integer', default: 1 }, name: { type: 'string' } }) }),
    value: { spec: { name: 'a' } },
    want: { spec: { name: 'a', replicas: 1 } },
  },
  {
    name: 'a present property keeps its value',
    schema: obj({ spec: obj({ replicas: { type: 'integer', default: 1 } }) }),
    value: { spec: { replicas: 0 } },
    want: { spec: { replicas: 0 } },
  },
  {
    name: 'defaults inside a defaulted object apply too',
    schema: obj({ spec: obj({ strategy: { type: 'object', default: {}, properties: { type: { type: 'string', default: 'Rolling' }, max: { type: 'integer', default: 2 } } } }) }),
    value: { spec: {} },
    want: { spec: { strategy: { type: 'Rolling', max: 2 } } },
  },
  {
    name: 'defaults in schema order, after the members already there',
    schema: obj({ b: { type: 'string', default: 'b' }, a: { type: 'string', default: 'a' }, c: { type: 'string' } }),
    value: { c: 'c' },
    want: { c: 'c', b: 'b', a: 'a' },
  },
  {
    name: 'list items: each item\'s properties, and a null item takes the items default',
    schema: obj({ ports: { type: 'array', items: { type: 'object', default: { protocol: 'TCP' }, properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } } } } }),
    value: { ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }, null] },
    want: { ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }, { protocol: 'TCP' }] },
  },
  {
    name: 'a null item without an items default stays null (validation refuses it)',
    schema: obj({ l: { type: 'array', items: { type: 'string' } } }),
    value: { l: ['a', null] },
    want: { l: ['a', null] },
  },
  {
    name: 'map values: a null value takes the values default, objects get their property defaults',
    schema: obj({ m: { type: 'object', additionalProperties: { type: 'object', default: { size: 'S' }, properties: { size: { type: 'string', default: 'M' } } } } }),
    value: { m: { a: null, b: {}, c: { size: 'L' } } },
    want: { m: { a: { size: 'S' }, b: { size: 'M' }, c: { size: 'L' } } },
  },
  {
    name: 'a non-nullable null takes the default',
    schema: obj({ a: { type: 'string', default: 'x' } }),
    value: { a: null },
    want: { a: 'x' },
  },
  {
    name: 'a nullable null is kept, default or not',
    schema: obj({ a: { type: 'string', nullable: true, default: 'x' } }),
    value: { a: null },
    want: { a: null },
  },
  {
    name: 'a non-nullable null without a default is dropped (PruneNonNullableNullsWithoutDefaults)',
    schema: obj({ a: { type: 'string' }, m: { type: 'object', additionalProperties: { type: 'string' } } }),
    value: { a: null, m: { k: null, j: 'v' } },
    want: { m: { j: 'v' } },
  },
  {
    name: 'an undeclared null is not the schema\'s business',
    schema: obj({ p: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }),
    value: { p: { free: null } },
    want: { p: { free: null } },
  },
  {
    name: 'default: null is no default',
    schema: obj({ a: { type: 'string', nullable: true, default: null } }),
    value: {},
    want: {},
  },
  {
    name: 'a default is pruned by its schema before it is applied',
    schema: obj({ spec: obj({ o: { type: 'object', default: { a: 1, junk: { x: 1 } }, properties: { a: { type: 'integer' } } } }) }),
    value: { spec: {} },
    want: { spec: { o: { a: 1 } } },
  },
  {
    name: 'an embedded resource\'s metadata default is left to ObjectMeta, not pruned',
    schema: obj({
      t: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        properties: { metadata: { type: 'object', default: { labels: { a: 'b' } } }, other: { type: 'object', default: { labels: { a: 'b' } } } },
      },
    }),
    value: { t: { apiVersion: 'v1', kind: 'K' } },
    want: { t: { apiVersion: 'v1', kind: 'K', metadata: { labels: { a: 'b' } }, other: {} } },
  },
  {
    name: 'below preserve-unknown-fields declared properties are defaulted',
    schema: obj({ p: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { d: { type: 'string', default: 'x' } } } }),
    value: { p: { free: 1 } },
    want: { p: { free: 1, d: 'x' } },
  },
  {
    name: 'a declared __proto__ property is defaulted as an own member',
    schema: JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "object", "default": {"polluted": true}}}}'),
    value: {},
    want: JSON.parse('{"__proto__": {}}'),
  },
  {
    name: 'a client\'s __proto__ map key takes the map\'s default',
    schema: obj({ m: { type: 'object', additionalProperties: { type: 'string', default: 'd' } } }),
    value: JSON.parse('{"m": {"__proto__": null}}'),
    want: JSON.parse('{"m": {"__proto__": "d"}}'),
  },
];

describe('applyDefaults', () => {
  for (const c of cases) {
    test(c.name, () => {
      applyDefaults(compileStructural(c.schema), c.value, { isResourceRoot: c.isResourceRoot });
      expect(JSON.stringify(c.value)).toBe(JSON.stringify(c.want));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    });
  }

  test('defaults are copies: changing one object changes neither another nor the schema', () => {
    const raw = obj({ spec: obj({ o: { type: 'object', default: { list: [1] }, properties: { list: { type: 'array', items: { type: 'integer' } } } } }) });
    const node = compileStructural(raw);
    const first = { spec: {} as Record<string, { list: number[] }> };
    const second = { spec: {} as Record<string, { list: number[] }> };
    applyDefaults(node, first);
    first.spec.o!.list.push(2);
    applyDefaults(node, second);
    expect(second.spec.o!.list).toEqual([1]);
    expect(node.properties!.get('spec')!.properties!.get('o')!.default).toEqual({ list: [1] });
  });

  test('pruneNonNullableNullsWithoutDefaults alone leaves defaults to come', () => {
    const node = compileStructural(obj({ a: { type: 'string', default: 'x' }, b: { type: 'string' } }));
    const value = { a: null, b: null };
    pruneNonNullableNullsWithoutDefaults(node, value);
    expect(value).toEqual({ a: null });
  });
});

describe('applyDefaults: hostile input', () => {
  const rows: { name: string; node: () => ReturnType<typeof compileStructural>; value: () => unknown; check: (v: unknown) => void }[] = [
    {
      name: '1,000 levels under preserve-unknown-fields, a default beside them',
      node: () => compileStructural(obj({ p: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { d: { type: 'integer', default: 1 } } } })),
      value: () => {
        let v: unknown = 'leaf';
        for (let i = 0; i < 999; i++) v = { a: v };
        return { p: v };
      },
      check: (v) => expect((v as { p: { d: number } }).p.d).toBe(1),
    },
    {
      name: '1,000 levels down a recursive built-in schema',
      node: () => structuralDefinition(builtinDefinitions, 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps')!,
      value: () => {
        let v: unknown = { type: 'string', nullable: null };
        for (let i = 0; i < 499; i++) v = { properties: { p: v } };
        return v;
      },
      check: (v) => {
        let cur = v as { properties?: { p: unknown } };
        while (cur.properties !== undefined) cur = cur.properties.p as typeof cur;
        // A non-nullable null without a default is dropped at the bottom.
        expect(cur).toEqual({ type: 'string' });
      },
    },
    {
      name: '100,000 list items, each defaulted',
      node: () => compileStructural(obj({ l: { type: 'array', items: obj({ d: { type: 'string', default: 'x' } }) } })),
      value: () => ({ l: Array.from({ length: 100_000 }, () => ({})) }),
      check: (v) => expect((v as { l: { d: string }[] }).l.every((item) => item.d === 'x')).toBe(true),
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const node = r.node();
      const value = r.value();
      const started = performance.now();
      applyDefaults(node, value);
      expect(performance.now() - started).toBeLessThan(5_000);
      r.check(value);
    });
  }
});

describe('validateDefaults', () => {
  const at = path('spec', 'validation', 'openAPIV3Schema');
  const rows: { name: string; schema: OpenApiSchema; isResourceRoot?: boolean; requirePrunedDefaults?: boolean; metadata?: Parameters<typeof validateDefaults>[2]['validateEmbeddedMetadata']; want: string[] }[] = [
    { name: 'valid defaults', schema: obj({ spec: obj({ replicas: { type: 'integer', minimum: 1, default: 1 } }) }), want: [] },
    {
      name: 'a default out of its own bounds: kube-openapi names the default\'s root with an empty path',
      schema: obj({ spec: obj({ replicas: { type: 'integer', minimum: 1, default: 0 } }) }),
      want: ['spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default: Invalid value: 0:  in body should be greater than or equal to 1'],
    },
    {
      name: 'a default with members of the wrong type',
      schema: obj({ spec: { type: 'object', default: { n: 'x' }, properties: { n: { type: 'integer' } } } }),
      want: ['spec.validation.openAPIV3Schema.properties[spec].default.n: Invalid value: "string": n in body must be of type integer: "string"'],
    },
    {
      name: 'a default with unknown fields',
      schema: obj({ spec: { type: 'object', default: { n: 1, junk: true }, properties: { n: { type: 'integer' } } } }),
      want: ['spec.validation.openAPIV3Schema.properties[spec].default: Invalid value: {"junk":true,"n":1}: must not have unknown fields'],
    },
    {
      name: 'unknown fields are allowed when pruned defaults are not required',
      schema: obj({ spec: { type: 'object', default: { n: 1, junk: true }, properties: { n: { type: 'integer' } } } }),
      requirePrunedDefaults: false,
      want: [],
    },
    {
      name: 'defaults in items are checked, under items',
      schema: obj({ l: { type: 'array', items: { type: 'string', maxLength: 1, default: 'long' } } }),
      want: ['spec.validation.openAPIV3Schema.properties[l].items.default: Too long: may not be more than 1 byte'],
    },
    {
      name: 'an embedded resource default needs apiVersion and kind',
      schema: obj({ t: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { spec: {} } } }),
      want: ['spec.validation.openAPIV3Schema.properties[t].default.apiVersion: Required value', 'spec.validation.openAPIV3Schema.properties[t].default.kind: Required value'],
    },
    {
      name: 'an embedded resource default\'s metadata goes to the ObjectMeta hook',
      schema: obj({ t: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { apiVersion: 'v1', kind: 'K', metadata: { name: '..' } } } }),
      metadata: (_meta, p) => [invalidValue(p.child('name'), '..', 'bad name')],
      want: ['spec.validation.openAPIV3Schema.properties[t].default.metadata.name: Invalid value: "..": bad name'],
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const errs = validateDefaults(compileStructural(r.schema), at, {
        isResourceRoot: r.isResourceRoot ?? true,
        requirePrunedDefaults: r.requirePrunedDefaults ?? true,
        validateEmbeddedMetadata: r.metadata,
      });
      expect(errs.map((e) => e.message)).toEqual(r.want);
    });
  }

  test('a recursive built-in schema ends', () => {
    const node = structuralDefinition(builtinDefinitions, 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps')!;
    expect(validateDefaults(node, at, { isResourceRoot: false, requirePrunedDefaults: true })).toEqual([]);
  });
});
