// Field sets of a custom resource read through a hand-written CRD schema: every
// list and map marker a CRD may carry, and the objects kube refuses to track.
// Rules beyond the built-in file's (field-set.test.ts):
//   C1  list-type map with two keys; a missing key field takes its schema default
//   C2  list-type set of strings and of integers (`v:80` before `v:443`)
//   C3  list-type atomic, and a CRD list with no list-type (atomic)
//   C4  map-type atomic struct
//   C5  preserve-unknown-fields: undeclared keys are map entries (owned with `.`
//       when they hold a map), their lists atomic; inherited by inline children
//   C6  the root's metadata is ObjectMeta whatever the CRD declares (finalizers a
//       set), and so is an embedded resource's, whose apiVersion/kind are scalars
//   C7  an empty granular list owns nothing; an item whose key repeats is owned
//       whole, nothing below it
import { describe, expect, test } from 'vitest';
import { compileStructural } from '../../../src/schema/structural/compile.js';
import { fieldSetOf, FieldSetError, isAtomicMap, listSemanticsOf, toFieldsV1 } from '../../../src/schema/structural/field-set.js';
import type { OpenApiSchema } from '../../../src/schema/definitions.js';

const gatewaySchema = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        routes: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'host'],
          items: {
            type: 'object',
            required: ['host'],
            properties: {
              host: { type: 'string' },
              port: { type: 'integer', default: 443 },
              backends: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
              weight: { type: 'integer' },
            },
          },
        },
        rules: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' }, action: { type: 'string' } } },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        ports: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } },
        command: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'string' } },
        steps: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        selector: {
          type: 'object',
          'x-kubernetes-map-type': 'atomic',
          properties: { matchLabels: { type: 'object', additionalProperties: { type: 'string' } } },
        },
        env: { type: 'object', additionalProperties: { type: 'string' } },
        config: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'string' }, inner: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        raw: { 'x-kubernetes-preserve-unknown-fields': true },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        limit: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        broken: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object' } },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
} as unknown as OpenApiSchema;

const node = compileStructural(gatewaySchema);

const gateway = {
  apiVersion: 'example.test/v1',
  kind: 'Gateway',
  metadata: { name: 'g', namespace: 'ns', labels: { app: 'gw' }, finalizers: ['example.test/cleanup'] },
  spec: {
    routes: [
      { host: 'a.example.test', port: 80, backends: ['b1', 'b2'] },
      { host: 'a.example.test', weight: 2 },
      { host: 'b.example.test', port: 8080 },
    ],
    tags: ['green', 'blue'],
    ports: [443, 80],
    command: ['run', '--fast'],
    steps: [{ name: 'one' }, { name: 'two' }],
    selector: { matchLabels: { app: 'gw' } },
    env: { b: '2', A: '1' },
    config: { known: 'x', inner: { a: 'y', b: 'z' }, extra: { nested: { deep: 1 }, list: [1, 2] }, flag: true },
    raw: { anything: { goes: [1] } },
    template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 't', labels: { x: 'y' }, finalizers: ['a'] }, data: { k: 'v' } },
    limit: 5,
  },
};

const gatewayFieldsV1 = {
  'f:metadata': { 'f:finalizers': { 'v:"example.test/cleanup"': {} }, 'f:labels': { 'f:app': {} } }, // C6
  'f:spec': {
    'f:command': {}, // C3
    'f:config': { // C5
      'f:extra': { '.': {}, 'f:list': {}, 'f:nested': { '.': {}, 'f:deep': {} } },
      'f:flag': {},
      'f:inner': { 'f:a': {}, 'f:b': {} }, // inherited: `b` is an entry of a declared struct
      'f:known': {},
    },
    'f:env': { 'f:A': {}, 'f:b': {} },
    'f:limit': {},
    'f:ports': { 'v:80': {}, 'v:443': {} }, // C2
    'f:raw': { 'f:anything': { '.': {}, 'f:goes': {} } }, // C5: no type, no properties
    'f:routes': { // C1: key fields sorted by name (host, port) whatever list-map-keys order says
      'k:{"host":"a.example.test","port":80}': { '.': {}, 'f:backends': { 'v:"b1"': {}, 'v:"b2"': {} }, 'f:host': {}, 'f:port': {} },
      'k:{"host":"a.example.test","port":443}': { '.': {}, 'f:host': {}, 'f:weight': {} }, // C1: port defaulted, not owned
      'k:{"host":"b.example.test","port":8080}': { '.': {}, 'f:host': {}, 'f:port': {} },
    },
    'f:selector': {}, // C4
    'f:steps': {}, // C3
    'f:tags': { 'v:"blue"': {}, 'v:"green"': {} }, // C2
    'f:template': { // C6: not the root, so nothing is stripped
      'f:apiVersion': {},
      'f:data': { '.': {}, 'f:k': {} },
      'f:kind': {},
      'f:metadata': { 'f:finalizers': { 'v:"a"': {} }, 'f:labels': { 'f:x': {} }, 'f:name': {} },
    },
  },
};

test('fieldSetOf a custom resource', () => {
  const got = toFieldsV1(fieldSetOf(node, gateway));
  expect(got).toEqual(gatewayFieldsV1);
  expect(JSON.stringify(got, null, 1)).toBe(JSON.stringify(gatewayFieldsV1, null, 1));
});

describe('fieldSetOf edge values', () => {
  const rows = [
    { name: 'an empty granular list owns nothing, so neither does its struct (C7)', spec: { tags: [] }, want: {} },
    { name: 'null is owned as a leaf', spec: { env: null }, want: { 'f:spec': { 'f:env': {} } } },
    { name: 'an empty struct is owned as a leaf', spec: { selector: {} }, want: { 'f:spec': { 'f:selector': {} } } },
    {
      name: 'a repeated set value is owned once (C7)',
      spec: { tags: ['a', 'a', 'b'] },
      want: { 'f:spec': { 'f:tags': { 'v:"a"': {}, 'v:"b"': {} } } },
    },
    {
      name: 'an item whose key repeats is owned whole, nothing below (C7)',
      spec: { rules: [{ name: 'r', action: 'allow' }, { name: 'r', action: 'deny' }, { name: 's', action: 'allow' }] },
      want: { 'f:spec': { 'f:rules': { 'k:{"name":"r"}': {}, 'k:{"name":"s"}': { '.': {}, 'f:action': {}, 'f:name': {} } } } },
    },
    {
      name: 'a key field set to null is a key field',
      spec: { rules: [{ name: null }] },
      want: { 'f:spec': { 'f:rules': { 'k:{"name":null}': { '.': {}, 'f:name': {} } } } },
    },
    {
      name: 'strings are keyed with encoding/json escapes',
      spec: { rules: [{ name: 'a<b>&"c"\n' }] },
      want: { 'f:spec': { 'f:rules': { 'k:{"name":"a\\u003cb\\u003e\\u0026\\"c\\"\\n"}': { '.': {}, 'f:name': {} } } } },
    },
    {
      name: '__proto__ and constructor are field names like any other',
      spec: { env: JSON.parse('{"__proto__":"x","constructor":"y"}') as unknown },
      want: { 'f:spec': { 'f:env': { 'f:__proto__': {}, 'f:constructor': {} } } },
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const got = toFieldsV1(fieldSetOf(node, { apiVersion: 'example.test/v1', kind: 'Gateway', spec: r.spec }));
      expect(JSON.stringify(got)).toBe(JSON.stringify(r.want));
    });
  }
});

function deepObject(depth: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let cur = root;
  for (let i = 0; i < depth; i++) {
    const next: Record<string, unknown> = {};
    cur.x = next;
    cur = next;
  }
  return root;
}

describe('fieldSetOf refuses objects kube would refuse to track', () => {
  const rows = [
    { name: 'a scalar where a struct is declared', spec: 'x', message: 'expected object, got scalar' },
    { name: 'a list where a struct is declared', spec: { selector: [] }, message: '.spec.selector: expected object, got list' },
    { name: 'an object where a scalar is declared', spec: { routes: [{ host: 'h', weight: { a: 1 } }] }, message: '.spec.routes[host="h",port=443].weight: expected scalar, got object' },
    { name: 'an object as a key field', spec: { routes: [{ host: { a: 1 } }] }, message: 'key field "host" must be a scalar' },
    { name: 'a field the schema does not declare', spec: { nope: 1 }, message: '.spec.nope: field not declared in schema' },
    { name: 'an object in a set', spec: { tags: [{ a: 1 }] }, message: '.spec.tags: item 0: a set item must be a scalar, got object' },
    { name: 'null in a set', spec: { tags: [null] }, message: 'got null' },
    { name: 'a scalar in a keyed list', spec: { rules: ['r'] }, message: '.spec.rules: item 0: an item of a list keyed by ["name"] must be an object' },
    { name: 'an item without any key field', spec: { rules: [{ action: 'deny' }] }, message: 'sets none of its key fields' },
    { name: 'list-type map without keys', spec: { broken: [{}] }, message: 'without x-kubernetes-list-map-keys' },
    { name: 'a value that is not JSON', spec: { env: { a: () => 1 } }, message: '.spec.env.a: not a JSON value (function)' },
    { name: 'NaN', spec: { ports: [Number.NaN] }, message: 'not a JSON value (number)' },
    { name: 'a class instance', spec: { env: new Map() }, message: 'not a JSON value (object)' },
    { name: 'nesting past the depth cap', spec: { config: deepObject(2000) }, message: 'nests deeper than 1000 levels' },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const run = (): unknown => fieldSetOf(node, { apiVersion: 'example.test/v1', kind: 'Gateway', spec: r.spec });
      expect(run).toThrow(FieldSetError);
      expect(run).toThrow(r.message);
    });
  }
});

// schemaconv's getListElementRelationship / getMapElementRelationship as a table.
// The patch-strategy rows never occur in the 1.36 built-in table (every list with
// a patch strategy also has a list-type) but are kube's rule for one that doesn't.
describe('list and map semantics of a node', () => {
  const list = (markers: Record<string, unknown>): OpenApiSchema => ({ type: 'array', items: { type: 'string' }, ...markers }) as OpenApiSchema;
  const rows: readonly { name: string; schema: OpenApiSchema; want: unknown }[] = [
    { name: 'no markers: atomic', schema: list({}), want: { kind: 'atomic' } },
    { name: 'list-type atomic', schema: list({ 'x-kubernetes-list-type': 'atomic' }), want: { kind: 'atomic' } },
    { name: 'list-type set', schema: list({ 'x-kubernetes-list-type': 'set' }), want: { kind: 'set' } },
    {
      name: 'list-type map keeps the declared key order',
      schema: list({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port', 'protocol'] }),
      want: { kind: 'map', keys: ['port', 'protocol'] },
    },
    {
      name: 'list-type wins over the patch strategy',
      schema: list({ 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' }),
      want: { kind: 'atomic' },
    },
    {
      name: 'patch strategy merge with a merge key: keyed by it',
      schema: list({ 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' }),
      want: { kind: 'map', keys: ['name'] },
    },
    {
      name: 'patch strategy merge,retainKeys with a merge key: keyed by it',
      schema: list({ 'x-kubernetes-patch-strategy': 'merge,retainKeys', 'x-kubernetes-patch-merge-key': 'name' }),
      want: { kind: 'map', keys: ['name'] },
    },
    { name: 'patch strategy merge without a merge key: a set', schema: list({ 'x-kubernetes-patch-strategy': 'merge' }), want: { kind: 'set' } },
    { name: 'patch strategy retainKeys: atomic', schema: list({ 'x-kubernetes-patch-strategy': 'retainKeys' }), want: { kind: 'atomic' } },
    { name: 'patch strategy replace: atomic', schema: list({ 'x-kubernetes-patch-strategy': 'replace' }), want: { kind: 'atomic' } },
  ];
  for (const r of rows) test(r.name, () => expect(listSemanticsOf(compileStructural(r.schema))).toEqual(r.want));

  const maps: readonly { name: string; schema: OpenApiSchema; want: boolean }[] = [
    { name: 'no map-type: granular', schema: { type: 'object' } as OpenApiSchema, want: false },
    { name: 'map-type granular', schema: { type: 'object', 'x-kubernetes-map-type': 'granular' } as OpenApiSchema, want: false },
    { name: 'map-type atomic', schema: { type: 'object', 'x-kubernetes-map-type': 'atomic' } as OpenApiSchema, want: true },
  ];
  for (const r of maps) test(r.name, () => expect(isAtomicMap(compileStructural(r.schema))).toBe(r.want));
});
