// Pruning as kube-apiserver prunes a custom resource (apiextensions-apiserver
// pkg/apiserver/schema/pruning): what is removed, what is kept (preserve-unknown-
// fields, apiVersion/kind/metadata at the root and in embedded resources), and the
// paths reported for fieldValidation, sorted as Go sorts strings.
import { describe, expect, test } from 'vitest';
import { builtinDefinitions, type OpenApiSchema } from '../../../src/schema/definitions.js';
import { compileStructural, structuralDefinition } from '../../../src/schema/structural/index.js';
import { prune } from '../../../src/schema/structural/prune.js';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): OpenApiSchema =>
  ({ type: 'object', properties, ...extra }) as OpenApiSchema;
/** A CRD root: metadata as CRDs declare it, and a spec. */
const root = (spec: OpenApiSchema | Record<string, unknown>): OpenApiSchema => obj({ metadata: { type: 'object' }, spec });

interface Case {
  readonly name: string;
  readonly schema: OpenApiSchema;
  readonly value: unknown;
  /** Default true: the value is a whole custom resource. */
  readonly isResourceRoot?: boolean;
  readonly wantPruned: readonly string[];
  /** The value after pruning (compared as JSON, so `__proto__` members count). */
  readonly wantValue: unknown;
}

const cases: Case[] = [
  {
    name: 'nothing undeclared',
    schema: root(obj({ a: { type: 'integer' } })),
    value: { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n' }, spec: { a: 1 } },
    wantPruned: [],
    wantValue: { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n' }, spec: { a: 1 } },
  },
  {
    name: 'an unknown field in spec; root metadata is left alone, even its unknown fields',
    schema: root(obj({ a: { type: 'integer' } })),
    value: { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n', foo: 1 }, spec: { a: 1, foo: { deep: true } }, top: 1 },
    wantPruned: ['spec.foo', 'top'],
    wantValue: { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n', foo: 1 }, spec: { a: 1 } },
  },
  {
    name: 'list items',
    schema: root(obj({ list: { type: 'array', items: obj({ name: { type: 'string' } }) } })),
    value: { spec: { list: [{ name: 'a', bar: 1 }, { bar: 2 }, 'scalar'] } },
    wantPruned: ['spec.list[0].bar', 'spec.list[1].bar'],
    wantValue: { spec: { list: [{ name: 'a' }, {}, 'scalar'] } },
  },
  {
    name: 'map values (a map key prints as a name, as the strict decoder prints it)',
    schema: root(obj({ map: { type: 'object', additionalProperties: obj({ v: { type: 'string' } }) } })),
    value: { spec: { map: { k: { v: 'x', x: 1 }, j: { v: 'y' } } } },
    wantPruned: ['spec.map.k.x'],
    wantValue: { spec: { map: { k: { v: 'x' }, j: { v: 'y' } } } },
  },
  {
    name: 'preserve-unknown-fields keeps the undeclared, but prunes below declared properties',
    schema: root({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: obj({ a: { type: 'string' } }) } }),
    value: { spec: { anything: { x: [1, { y: 2 }] }, known: { a: 'a', extra: 1 } } },
    wantPruned: ['spec.known.extra'],
    wantValue: { spec: { anything: { x: [1, { y: 2 }] }, known: { a: 'a' } } },
  },
  {
    name: 'an embedded resource keeps apiVersion, kind and metadata as they are',
    schema: root(obj({ template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: obj({ a: { type: 'string' } }) } } })),
    value: { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', whatever: 1 }, spec: { a: 'x', b: 'y' }, extra: true } } },
    wantPruned: ['spec.template.extra', 'spec.template.spec.b'],
    wantValue: { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', whatever: 1 }, spec: { a: 'x' } } } },
  },
  {
    name: 'not a resource root: apiVersion, kind and metadata at the top go, unreported (kube\'s rule)',
    schema: obj({ a: { type: 'string' } }),
    value: { apiVersion: 'v1', kind: 'K', metadata: {}, a: 'x', b: 'y' },
    isResourceRoot: false,
    wantPruned: ['b'],
    wantValue: { a: 'x' },
  },
  {
    name: 'not a resource root: a nested metadata is an ordinary unknown field',
    schema: obj({ inner: obj({ a: { type: 'string' } }) }),
    value: { inner: { metadata: { name: 'x' }, a: 'x' } },
    isResourceRoot: false,
    wantPruned: ['inner.metadata'],
    wantValue: { inner: { a: 'x' } },
  },
  {
    name: '__proto__ and constructor are ordinary unknown keys',
    schema: root(obj({ a: { type: 'string' } })),
    value: JSON.parse('{"spec": {"__proto__": {"polluted": true}, "constructor": {"prototype": 1}, "a": "x"}}'),
    wantPruned: ['spec.__proto__', 'spec.constructor'],
    wantValue: { spec: { a: 'x' } },
  },
  {
    name: 'a declared __proto__ property is kept and pruned inside',
    schema: JSON.parse('{"type": "object", "properties": {"spec": {"type": "object", "properties": {"__proto__": {"type": "object", "properties": {"a": {"type": "string"}}}}}}}'),
    value: JSON.parse('{"spec": {"__proto__": {"a": "x", "b": "y"}, "toString": 1}}'),
    wantPruned: ['spec.__proto__.b', 'spec.toString'],
    wantValue: JSON.parse('{"spec": {"__proto__": {"a": "x"}}}'),
  },
  {
    name: 'paths sort as Go strings: byte order, so [10] before [2] and . before [',
    schema: root(obj({ a: { type: 'array', items: { type: 'object', properties: {} } } })),
    value: { spec: { b: 1, a: [{ x: 1 }, {}, { x: 1 }, {}, {}, {}, {}, {}, {}, {}, { x: 1 }] } },
    wantPruned: ['spec.a[0].x', 'spec.a[10].x', 'spec.a[2].x', 'spec.b'],
    wantValue: { spec: { a: [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}] } },
  },
  {
    name: 'additionalProperties: true keeps the keys but empties object values (kube\'s nil schema)',
    schema: root(obj({ m: { type: 'object', additionalProperties: true } })),
    value: { spec: { m: { k: { x: 1 }, s: 'scalar' } } },
    wantPruned: ['spec.m.k.x'],
    wantValue: { spec: { m: { k: {}, s: 'scalar' } } },
  },
  {
    name: 'an object schema without properties prunes everything inside (CRDs have no opaque objects)',
    schema: root(obj({ o: { type: 'object' } })),
    value: { spec: { o: { x: 1 } } },
    wantPruned: ['spec.o.x'],
    wantValue: { spec: { o: {} } },
  },
];

describe('prune', () => {
  for (const c of cases) {
    test(c.name, () => {
      const pruned = prune(compileStructural(c.schema), c.value, { isResourceRoot: c.isResourceRoot ?? true });
      expect(pruned).toEqual(c.wantPruned);
      expect(JSON.stringify(c.value)).toBe(JSON.stringify(c.wantValue));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    });
  }
});

describe('prune on built-in definitions', () => {
  const rows: { name: string; definition: string; value: unknown; wantPruned: string[]; wantValue: unknown }[] = [
    {
      name: 'a Deployment: unknown fields in spec, template metadata and containers; root metadata left alone',
      definition: 'io.k8s.api.apps.v1.Deployment',
      value: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd', nmae: 'x' },
        spec: { replicas: 1, foo: 1, template: { metadata: { labels: { a: 'b' }, bogus: 1 }, spec: { containers: [{ name: 'c', image: 'i', imagePullPolicyy: 'Always' }] } } },
      },
      wantPruned: ['spec.foo', 'spec.template.metadata.bogus', 'spec.template.spec.containers[0].imagePullPolicyy'],
      wantValue: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd', nmae: 'x' },
        spec: { replicas: 1, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
      },
    },
    {
      name: 'a ControllerRevision: RawExtension data keeps its content (an opaque built-in object)',
      definition: 'io.k8s.api.apps.v1.ControllerRevision',
      value: { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, revision: 1, data: { spec: { anything: [1] } } },
      wantPruned: [],
      wantValue: { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, revision: 1, data: { spec: { anything: [1] } } },
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const node = structuralDefinition(builtinDefinitions, r.definition)!;
      expect(prune(node, r.value, { isResourceRoot: true })).toEqual(r.wantPruned);
      expect(r.value).toEqual(r.wantValue);
    });
  }
});

/** {a: {a: ... leaf}} `depth` levels deep. */
function nest(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

describe('prune: hostile input', () => {
  const rows: { name: string; node: () => ReturnType<typeof compileStructural>; value: () => unknown; wantCount: number; wantFirst?: string }[] = [
    {
      name: '1,000 levels under preserve-unknown-fields: nothing pruned',
      node: () => compileStructural(root({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true })),
      value: () => ({ spec: nest(1000, 'x') }),
      wantCount: 0,
    },
    {
      name: '1,000 levels under a schema that declares none of them: one path',
      node: () => compileStructural(root(obj({}))),
      value: () => ({ spec: nest(1000, 'x') }),
      wantCount: 1,
      wantFirst: 'spec.a',
    },
    {
      name: '1,000 levels down a recursive built-in schema, an unknown field at the bottom',
      node: () => structuralDefinition(builtinDefinitions, 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps')!,
      value: () => {
        let v: unknown = { type: 'string', bogus: 1 };
        for (let i = 0; i < 499; i++) v = { properties: { p: v } };
        return v;
      },
      wantCount: 1,
      wantFirst: `${'properties.p.'.repeat(499)}bogus`,
    },
    {
      name: '100,000 list items with an unknown field each, sorted',
      node: () => compileStructural(root(obj({ l: { type: 'array', items: obj({ a: { type: 'integer' } }) } }))),
      value: () => ({ spec: { l: Array.from({ length: 100_000 }, (_, i) => ({ a: i, x: i })) } }),
      wantCount: 100_000,
      wantFirst: 'spec.l[0].x',
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const node = r.node();
      const value = r.value();
      const started = performance.now();
      const pruned = prune(node, value, { isResourceRoot: true });
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(pruned).toHaveLength(r.wantCount);
      if (r.wantFirst !== undefined) expect(pruned[0]).toBe(r.wantFirst);
    });
  }
});
