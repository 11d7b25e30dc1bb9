// The storage codec (registry/store/version-codec.ts) with a conversion that
// answers later, as a CRD conversion webhook will, on a test-only kind (STYLE §9):
// example.test Gauge, served as v1 (spec.value) and stored as v2 (spec.level).
// The two schemas disagree (v1 requires spec.unit, v2 requires spec.level), so the
// schema a write is judged by shows which version it was judged in.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../../src/admission/chain.js';
import { StatusError } from '../../../src/errors/status-error.js';
import { defineResource, type ResourceDefinition } from '../../../src/registry/define-resource.js';
import { objectKey } from '../../../src/registry/keys.js';
import { createRegistry, type Registry } from '../../../src/registry/registry.js';
import { invalidValue, path } from '../../../src/schema/field-errors.js';
import { builtinDefinitions, type Definitions } from '../../../src/schema/definitions.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { openMemoryKv } from '../../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../../src/storage/object-store.js';
import type { Storage, StorageWatchEvent } from '../../../src/storage/storage.js';
import { createHarness, type Harness } from '../../endpoints/harness.js';
import { testNamespaces } from '../../support/example-group.js';

const meta = { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' };
const typeMeta = { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: meta };

// A custom table: schemas read as structural ones (an absent required field is refused).
const definitions: Definitions = {
  ...builtinDefinitions,
  'test.example.v1.Gauge': {
    type: 'object',
    properties: { ...typeMeta, spec: { type: 'object', required: ['unit'], properties: { value: { type: 'integer' }, unit: { type: 'string' } } } },
  },
  'test.example.v2.Gauge': {
    type: 'object',
    properties: { ...typeMeta, spec: { type: 'object', required: ['level'], properties: { level: { type: 'integer' }, unit: { type: 'string' } } } },
  },
};

type Spec = Record<string, unknown>;

function renamed(obj: KubeObject, opts: { apiVersion: string; from: string; to: string }): KubeObject {
  const { [opts.from]: moved, ...spec } = (obj.spec as Spec | undefined) ?? {};
  return { ...obj, apiVersion: opts.apiVersion, spec: { ...spec, ...(moved === undefined ? {} : { [opts.to]: moved }) } };
}

/** What the conversion was asked, and the hooks a test holds it with. */
interface Webhook {
  /** `<name>@<resourceVersion>` of every stored object converted to v1. */
  calls: string[];
  /** While set, converting the object named `slow` to v1 waits for it. */
  gate: Promise<void> | undefined;
  /** Called after each conversion to v1 is asked for. */
  onCall: () => void;
}

function gauges(webhook: Webhook): { v1: ResourceDefinition; v2: ResourceDefinition } {
  const v2 = defineResource({
    group: 'example.test',
    version: 'v2',
    kind: 'Gauge',
    plural: 'gauges',
    scope: 'Namespaced',
    schema: { name: 'test.example.v2.Gauge', definitions },
    strategy: {
      // The kind's rules are written for the stored version: their paths are v2's.
      validate: (obj) => {
        const level = (obj.spec as Spec | undefined)?.level;
        return typeof level === 'number' && level < 0 ? [invalidValue(path('spec', 'level'), level, 'must be non-negative')] : [];
      },
      allowUnconditionalUpdate: true,
    },
  });
  const v1 = defineResource({
    group: 'example.test',
    version: 'v1',
    kind: 'Gauge',
    plural: 'gauges',
    scope: 'Namespaced',
    schema: { name: 'test.example.v1.Gauge', definitions },
    strategy: {
      // v1's own defaults, applied in v1 before the conversion.
      defaults: (obj) => {
        const spec = (obj.spec ??= {}) as Spec;
        spec.value ??= 1;
      },
    },
    conversion: {
      stored: v2,
      toStored: async (obj) => {
        await Promise.resolve();
        return renamed(obj, { apiVersion: 'example.test/v2', from: 'value', to: 'level' });
      },
      fromStored: async (obj) => {
        webhook.calls.push(`${obj.metadata.name}@${obj.metadata.resourceVersion}`);
        webhook.onCall();
        if (obj.metadata.name === 'broken') throw new Error('conversion webhook unavailable');
        if (obj.metadata.name === 'slow' && webhook.gate !== undefined) await webhook.gate;
        return renamed(obj, { apiVersion: 'example.test/v1', from: 'level', to: 'value' });
      },
    },
  });
  return { v1, v2 };
}

async function refusal(p: Promise<unknown>): Promise<StatusError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(StatusError);
  return err as StatusError;
}

const scope = { namespace: 'ns' };

describe('an asynchronous conversion through the registry', () => {
  let storage: Storage;
  let registry: Registry;
  let webhook: Webhook;
  let v1: ResourceDefinition;
  let v2: ResourceDefinition;
  beforeEach(async () => {
    webhook = { calls: [], gate: undefined, onCall: () => {} };
    ({ v1, v2 } = gauges(webhook));
    storage = createObjectStore({ kv: openMemoryKv() });
    registry = createRegistry({ storage, resources: [v2, v1, testNamespaces], admission: createAdmissionChain(), clock: () => new Date(0), uid: () => 'uid-1' });
    await registry.store(testNamespaces).create({ metadata: { name: 'ns' } });
  });
  afterEach(async () => storage.close());

  const stored = (name: string) => storage.get(objectKey(v2, { namespace: 'ns', name }));

  test('a v1 write is stored as v2 and read, listed and updated in either version', async () => {
    const created = await registry.store(v1).create({ apiVersion: 'example.test/v1', kind: 'Gauge', metadata: { name: 'g' }, spec: { value: 5, unit: 'cm' } }, scope);
    expect(created.object).toMatchObject({ apiVersion: 'example.test/v1', kind: 'Gauge', spec: { value: 5, unit: 'cm' } });
    expect(await stored('g')).toMatchObject({ apiVersion: 'example.test/v2', kind: 'Gauge', spec: { level: 5, unit: 'cm' } });
    expect(await registry.store(v2).get({ ...scope, name: 'g' })).toMatchObject({ apiVersion: 'example.test/v2', spec: { level: 5 } });
    const read = await registry.store(v1).get({ ...scope, name: 'g' });
    expect(read).toMatchObject({ apiVersion: 'example.test/v1', spec: { value: 5, unit: 'cm' } });
    const listed = await registry.store(v1).list(scope);
    expect(listed).toMatchObject({ apiVersion: 'example.test/v1', kind: 'GaugeList', items: [{ spec: { value: 5, unit: 'cm' } }] });

    // A transform sees the v1 object a GET answers, and writes v1.
    const seen: unknown[] = [];
    const updated = await registry.store(v1).write({
      ...scope,
      verb: 'update',
      name: 'g',
      transform: (current) => {
        seen.push(current?.spec);
        return { object: { ...current!, spec: { ...(current!.spec as Spec), value: 7 } } };
      },
    });
    expect(seen).toEqual([{ value: 5, unit: 'cm' }]);
    expect(updated.object).toMatchObject({ apiVersion: 'example.test/v1', spec: { value: 7 } });
    expect((await stored('g')).spec).toEqual({ level: 7, unit: 'cm' });

    const deleted = await registry.store(v1).delete({ ...scope, name: 'g' });
    expect(deleted.object).toMatchObject({ apiVersion: 'example.test/v1', spec: { value: 7 } });
  });

  test('v1\'s defaults run in v1, before the conversion', async () => {
    await registry.store(v1).create({ metadata: { name: 'd' }, spec: { unit: 'cm' } }, scope);
    expect((await stored('d')).spec).toEqual({ level: 1, unit: 'cm' });
  });

  const schemaCases: readonly { name: string; version: 'v1' | 'v2'; spec: Spec; want: { code: number; field?: string } }[] = [
    { name: 'v1 requires unit: a v1 write without it is refused at v1\'s path', version: 'v1', spec: { value: 2 }, want: { code: 422, field: 'spec.unit' } },
    { name: 'v2 does not require unit', version: 'v2', spec: { level: 2 }, want: { code: 201 } },
    { name: 'v2 requires level: a v2 write without it is refused', version: 'v2', spec: { unit: 'cm' }, want: { code: 422, field: 'spec.level' } },
    { name: 'the kind\'s rules judge the stored version, with its paths', version: 'v1', spec: { value: -1, unit: 'cm' }, want: { code: 422, field: 'spec.level' } },
  ];
  for (const c of schemaCases) {
    test(c.name, async () => {
      const store = registry.store(c.version === 'v1' ? v1 : v2);
      const write = store.create({ metadata: { name: 's' }, spec: c.spec }, scope);
      if (c.want.code === 201) {
        await write;
        return;
      }
      const err = await refusal(write);
      expect(err.code).toBe(c.want.code);
      expect(err.details?.causes?.map((cause) => cause.field)).toEqual([c.want.field]);
      await expect(stored('s')).rejects.toThrow();
    });
  }

  test('watch: events are converted once for all watchers and delivered in storage\'s order', async () => {
    const from = (await registry.store(v2).list(scope)).metadata.resourceVersion!;
    const watchers = [0, 1].map(() => {
      const events: StorageWatchEvent[] = [];
      let wake = () => {};
      return { events, until: (n: number) => new Promise<void>((resolve) => {
        wake = () => events.length >= n && resolve();
        wake();
      }), onEvent: (e: StorageWatchEvent) => { events.push(e); wake(); } };
    });
    const handles = await Promise.all(
      watchers.map((w) => registry.store(v1).watch({ ...scope, resourceVersion: from, onEvent: w.onEvent, onError: (err) => { throw err; } })),
    );
    let release = () => {};
    webhook.gate = new Promise<void>((resolve) => (release = resolve));
    const fastAsked = new Promise<void>((resolve) => (webhook.onCall = () => webhook.calls.some((c) => c.startsWith('fast@')) && resolve()));
    // Written through v2, whose answers need no conversion: only the watches convert.
    await registry.store(v2).create({ metadata: { name: 'slow' }, spec: { level: 1 } }, scope);
    await registry.store(v2).create({ metadata: { name: 'fast' }, spec: { level: 2 } }, scope);
    await fastAsked;
    // fast's conversion is done, slow's waits: nothing may overtake slow.
    for (const w of watchers) expect(w.events).toEqual([]);
    release();
    await Promise.all(watchers.map((w) => w.until(2)));
    for (const w of watchers) {
      expect(w.events.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name, (e.object.spec as Spec).value])).toEqual([
        ['ADDED', 'example.test/v1', 'slow', 1],
        ['ADDED', 'example.test/v1', 'fast', 2],
      ]);
    }
    // One conversion per stored object, shared by both watchers (and frozen: shared objects are).
    expect(webhook.calls.map((c) => c.split('@')[0])).toEqual(['slow', 'fast']);
    expect(watchers[0]!.events[0]!.object).toBe(watchers[1]!.events[0]!.object);
    expect(Object.isFrozen(watchers[0]!.events[0]!.object)).toBe(true);
    for (const h of handles) h.close();
  });

  test('watch: a conversion that fails ends the watch with a 500, and nothing after it is delivered', async () => {
    const from = (await registry.store(v2).list(scope)).metadata.resourceVersion!;
    const events: string[] = [];
    const ended = new Promise<unknown>((resolve) => {
      void registry.store(v1).watch({ ...scope, resourceVersion: from, onEvent: (e) => events.push(e.object.metadata.name!), onError: resolve });
    });
    await registry.store(v2).create({ metadata: { name: 'ok' }, spec: { level: 1 } }, scope);
    await registry.store(v2).create({ metadata: { name: 'broken' }, spec: { level: 1 } }, scope);
    await registry.store(v2).create({ metadata: { name: 'after' }, spec: { level: 1 } }, scope);
    const err = await ended;
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).code).toBe(500);
    expect(events).toEqual(['ok']);
  });
});

describe('an asynchronous conversion over HTTP', () => {
  let h: Harness;
  let v1: ResourceDefinition;
  let v2: ResourceDefinition;
  beforeEach(async () => {
    h = await createHarness();
    ({ v1, v2 } = gauges({ calls: [], gate: undefined, onCall: () => {} }));
    h.registry.catalog.add(v2);
    h.registry.catalog.add(v1);
  });
  afterEach(async () => h.close());

  const V1 = '/apis/example.test/v1/namespaces/default/gauges';
  const V2 = '/apis/example.test/v2/namespaces/default/gauges';

  test('POST in v1, GET in v2 and v1, LIST in v1; a v1 schema refusal names v1\'s path', async () => {
    const created = await h.app.inject({ method: 'POST', url: V1, payload: { apiVersion: 'example.test/v1', kind: 'Gauge', metadata: { name: 'g' }, spec: { value: 3, unit: 'cm' } } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ apiVersion: 'example.test/v1', spec: { value: 3, unit: 'cm' } });
    expect((await h.app.inject({ method: 'GET', url: `${V2}/g` })).json()).toMatchObject({ apiVersion: 'example.test/v2', spec: { level: 3, unit: 'cm' } });
    expect((await h.app.inject({ method: 'GET', url: `${V1}/g` })).json()).toMatchObject({ apiVersion: 'example.test/v1', spec: { value: 3, unit: 'cm' } });
    expect((await h.app.inject({ method: 'GET', url: V1 })).json()).toMatchObject({ kind: 'GaugeList', items: [{ spec: { value: 3 } }] });

    const refused = await h.app.inject({ method: 'POST', url: V1, payload: { apiVersion: 'example.test/v1', kind: 'Gauge', metadata: { name: 'n' }, spec: { value: 3 } } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().details.causes).toEqual([expect.objectContaining({ field: 'spec.unit', reason: 'FieldValueRequired' })]);
  });
});
