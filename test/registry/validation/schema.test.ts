// The schema layer of validation (registry/validation/schema.ts): what every kind
// gets from its OpenAPI schema. Generic cases run on a test-only table (the
// structural reading a custom table gets); built-in cases on the 1.36 table, where
// Go's zero values decide what "required" means; then through the real store, where
// the kind's own rules win a field both name, and updates ratchet.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { pods } from '../../../src/apis/core/v1/pods.js';
import { services } from '../../../src/apis/core/v1/services.js';
import { path, required } from '../../../src/schema/field-errors.js';
import { objectKey } from '../../../src/registry/keys.js';
import { schemaValidatorFor, withoutCoveredFields } from '../../../src/registry/validation/schema.js';
import { builtinSchema, type Definitions } from '../../../src/schema/definitions.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

const table: Definitions = {
  'test.v1.Thing': {
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      spec: { $ref: '#/definitions/test.v1.ThingSpec' },
      status: { type: 'object', required: ['phase'], properties: { phase: { type: 'string', enum: ['A'] } } },
    },
  },
  'test.v1.ThingSpec': {
    type: 'object',
    required: ['mode', 'count'],
    properties: {
      mode: { type: 'string', enum: ['Fast', 'Slow'] },
      count: { type: 'integer' },
      items: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, size: { type: 'string', enum: ['S', 'L'] } } },
      },
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port', 'protocol'],
        items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string' } } },
      },
      tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      byName: { type: 'object', additionalProperties: { type: 'string', enum: ['on', 'off'] } },
      child: { $ref: '#/definitions/test.v1.ThingSpec' },
    },
  },
};

const thing = schemaValidatorFor({ name: 'test.v1.Thing', definitions: table });
const spec = (s: Record<string, unknown>): KubeObject => ({ metadata: {}, spec: { mode: 'Fast', count: 1, ...s } });

describe('a custom table: the structural reading', () => {
  const cases: { name: string; obj: unknown; want: string[] }[] = [
    { name: 'a valid object', obj: spec({ items: [{ name: 'a' }, { name: 'b' }], tags: ['x', 'y'] }), want: [] },
    { name: 'absent required fields are Required, whatever their type', obj: { metadata: {}, spec: {} }, want: ['spec.mode: Required value', 'spec.count: Required value'] },
    { name: 'an absent required root field', obj: { metadata: {} }, want: ['spec: Required value'] },
    {
      name: 'enum values, with the supported list',
      obj: spec({ mode: 'Medium' }),
      want: ['spec.mode: Unsupported value: "Medium": supported values: "Fast", "Slow"'],
    },
    { name: 'an empty enum string is unset (Go omitempty)', obj: spec({ mode: '' }), want: [] },
    { name: 'enum values in a map, at the key', obj: spec({ byName: { a: 'on', b: 'dim' } }), want: ['spec.byName[b]: Unsupported value: "dim": supported values: "on", "off"'] },
    {
      name: 'a single-key list-map names the key field of the later item',
      obj: spec({ items: [{ name: 'a' }, { name: 'b' }, { name: 'a' }] }),
      want: ['spec.items[2].name: Duplicate value: "a"'],
    },
    {
      name: 'a multi-key list-map names the item with its keys',
      obj: spec({ ports: [{ port: 80, protocol: 'TCP' }, { port: 80, protocol: 'UDP' }, { port: 80, protocol: 'TCP' }] }),
      want: ['spec.ports[2]: Duplicate value: {"port":80,"protocol":"TCP"}'],
    },
    { name: 'an item missing a key is Required, not a duplicate', obj: spec({ items: [{}, {}] }), want: ['spec.items[0].name: Required value', 'spec.items[1].name: Required value'] },
    { name: 'a set names the repeated item', obj: spec({ tags: ['x', 'y', 'x', 'x'] }), want: ['spec.tags[2]: Duplicate value: "x"', 'spec.tags[3]: Duplicate value: "x"'] },
    { name: 'recursive definitions are walked', obj: spec({ child: { mode: 'Fast', count: 1, child: { count: 2 } } }), want: ['spec.child.child.mode: Required value'] },
    { name: 'items are checked below the list', obj: spec({ items: [{ name: 'a', size: 'M' }] }), want: ['spec.items[0].size: Unsupported value: "M": supported values: "S", "L"'] },
    { name: 'root metadata and status are other layers', obj: { metadata: {}, spec: { mode: 'Fast', count: 1 }, status: { phase: 'B' } }, want: [] },
    {
      name: 'hostile keys are data',
      obj: JSON.parse('{"metadata":{},"spec":{"mode":"Fast","count":1,"byName":{"__proto__":"x","constructor":"on"},"__proto__":{"mode":"x"}}}'),
      want: ['spec.byName[__proto__]: Unsupported value: "x": supported values: "on", "off"'],
    },
    { name: 'values of the wrong shape are the typed decode\u2019s concern', obj: spec({ items: 'nope', tags: { a: 1 } }), want: [] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(thing.validate(c.obj).map((e) => e.message)).toEqual(c.want);
    });
  }

  test('compiled once per table and definition', () => {
    expect(schemaValidatorFor({ name: 'test.v1.Thing', definitions: table })).toBe(thing);
  });
});

describe('built-in tables: Go zero values', () => {
  const pod = schemaValidatorFor(builtinSchema('io.k8s.api.core.v1.Pod'));
  const container = (extra: Record<string, unknown> = {}) => ({ name: 'a', image: 'nginx', ...extra });
  const podWith = (s: Record<string, unknown>): KubeObject => ({ metadata: { name: 'p' }, spec: { containers: [container()], ...s } });
  const cases: { name: string; obj: KubeObject; want: string[] }[] = [
    { name: 'a valid pod', obj: podWith({}), want: [] },
    { name: 'a required list absent', obj: { metadata: {}, spec: {} }, want: ['spec.containers: Required value'] },
    { name: 'a required string absent', obj: podWith({ containers: [{ image: 'x' }] }), want: ['spec.containers[0].name: Required value'] },
    {
      name: 'an absent required integer is Go\u2019s 0, left to the kind',
      obj: podWith({ containers: [container({ ports: [{ name: 'http' }] })] }),
      want: [],
    },
    {
      name: 'an absent required struct is its zero value: its own required fields speak',
      obj: podWith({ affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1 }] } } }),
      want: ['spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Required value'],
    },
    { name: 'a header with no value is Go\u2019s "" (kube accepts it)', obj: podWith({ containers: [container({ livenessProbe: { httpGet: { port: 80, httpHeaders: [{ name: 'X' }] } } })] }), want: [] },
    { name: 'duplicate container names', obj: podWith({ containers: [container(), container()] }), want: ['spec.containers[1].name: Duplicate value: "a"'] },
    {
      name: 'duplicate volume mounts by mountPath',
      obj: podWith({ containers: [container({ volumeMounts: [{ name: 'v', mountPath: '/d' }, { name: 'w', mountPath: '/d' }] })] }),
      want: ['spec.containers[0].volumeMounts[1].mountPath: Duplicate value: "/d"'],
    },
    {
      name: 'duplicate env names and container ports are kept, as kube keeps them (with a warning)',
      obj: podWith({ containers: [container({ env: [{ name: 'A' }, { name: 'A' }], ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 80, protocol: 'TCP' }] })] }),
      want: [],
    },
    { name: 'status is not validated against the schema', obj: { ...podWith({}), status: { conditions: [{}, {}] } }, want: [] },
    { name: 'duplicate finalizers are metadata rules\u2019 concern', obj: { metadata: { name: 'p', finalizers: ['a/b', 'a/b'] }, spec: { containers: [container()] } }, want: [] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(pod.validate(c.obj).map((e) => e.message)).toEqual(c.want);
    });
  }

  test('a service: duplicate (port, protocol) pairs', () => {
    const svc = schemaValidatorFor(builtinSchema('io.k8s.api.core.v1.Service'));
    const got = svc.validate({ metadata: {}, spec: { ports: [{ name: 'a', port: 80, protocol: 'TCP' }, { name: 'b', port: 80, protocol: 'TCP' }] } });
    expect(got.map((e) => [e.type, e.field])).toEqual([['FieldValueDuplicate', 'spec.ports[1]']]);
  });
});

describe('dedupe against the kind\u2019s own causes', () => {
  test('a field the kind names keeps the kind\u2019s cause, whatever its reason', () => {
    const schema = [required(path('spec', 'a')), required(path('spec', 'b'))];
    const kind = [{ type: 'FieldValueInvalid' as const, field: 'spec.a', message: 'spec.a: Invalid value: "": must not be empty' }];
    expect(withoutCoveredFields(schema, kind).map((e) => e.field)).toEqual(['spec.b']);
  });
});

describe('through the store', () => {
  let h: StoreHarness;
  beforeEach(async () => {
    h = await createStoreHarness();
  });
  afterEach(async () => {
    await h.close();
  });
  const podNamed = (name: string, s: Record<string, unknown>): KubeObject => ({ metadata: { name, namespace: 'default' }, spec: s });
  const c = (name: string, extra: Record<string, unknown> = {}) => ({ name, image: 'nginx', ...extra });

  const cases: { name: string; obj: KubeObject; want: { field: string; reason: string; message: string }[] }[] = [
    {
      name: 'a duplicate the kind\u2019s rules also report appears once',
      obj: podNamed('dup', { containers: [c('a'), c('a')] }),
      want: [{ field: 'spec.containers[1].name', reason: 'FieldValueDuplicate', message: 'Duplicate value: "a"' }],
    },
    {
      name: 'a required field only the schema names',
      obj: podNamed('keyref', { containers: [c('a', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cm' } } }] })] }),
      want: [{ field: 'spec.containers[0].env[0].valueFrom.configMapKeyRef.key', reason: 'FieldValueRequired', message: 'Required value' }],
    },
    {
      name: 'a list-map only the schema checks',
      obj: podNamed('gates', { containers: [c('a')], schedulingGates: [{ name: 'g' }, { name: 'g' }] }),
      want: [{ field: 'spec.schedulingGates[1].name', reason: 'FieldValueDuplicate', message: 'Duplicate value: "g"' }],
    },
  ];
  for (const row of cases) {
    test(row.name, async () => {
      const got = await h.create(pods, row.obj);
      expect(got.causes).toEqual(row.want);
      expect(got.stored).toBeUndefined();
    });
  }

  test('what kube accepts is stored: duplicate env names', async () => {
    const got = await h.create(pods, podNamed('env', { containers: [c('a', { env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }] })] }));
    expect(got.causes).toEqual([]);
    expect(got.stored?.metadata.name).toBe('env');
  });

  test('a service with a repeated port pair is refused at the later port', async () => {
    const got = await h.create(services, { metadata: { name: 's' }, spec: { ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80 }] } });
    expect(got.causes.map((x) => [x.field, x.reason])).toEqual([['spec.ports[1]', 'FieldValueDuplicate']]);
  });

  test('an update ratchets: a cause the stored object already had is not reported', async () => {
    // Planted under the store, as an object written before the rule existed would be.
    const created = await h.create(pods, podNamed('old', { containers: [c('a')] }));
    expect(created.causes).toEqual([]);
    const planted = await h.storage.guaranteedUpdate(objectKey(pods, { namespace: 'default', name: 'old' }), {
      tryUpdate: ({ current }) => ({ ...current!, spec: { ...(current!.spec as object), schedulingGates: [{ name: 'g' }, { name: 'g' }] } }),
    });
    const current = planted.object;
    expect((current.spec as { schedulingGates?: unknown[] }).schedulingGates).toHaveLength(2);
    const relabelled = { ...current, metadata: { ...current.metadata, labels: { a: 'b' } } };
    expect((await h.update(pods, relabelled)).causes).toEqual([]);
    const { resourceVersion: _rv, ...meta } = current.metadata;
    const worse = { ...current, metadata: meta, spec: { ...(current.spec as object), schedulingGates: [{ name: 'g' }, { name: 'g' }, { name: 'h' }, { name: 'h' }] } };
    const refused = await h.update(pods, worse);
    // Only the new repeat; the old one is ratcheted (the pod's own rule also refuses the spec change).
    expect(refused.errors.filter((e) => e.startsWith('spec.schedulingGates['))).toEqual(['spec.schedulingGates[3].name: Duplicate value: "h"']);
  });
});
