// Subresources of the generic store, in process, against test-only kinds (STYLE §9):
// status writes change only their path, scale is a computed view that writes
// through the parent's strategy, and a deletionHold keeps a deleted object until a
// subresource write empties its finalizers.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../../src/admission/chain.js';
import { invalidValue, path } from '../../../src/schema/field-errors.js';
import { StatusError } from '../../../src/errors/status-error.js';
import { defineResource, type ResourceDefinition } from '../../../src/registry/define-resource.js';
import { createRegistry, type Registry } from '../../../src/registry/registry.js';
import { selectorString } from '../../../src/registry/store/subresource-scale.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { builtinSchema } from '../../../src/schema/definitions.js';
import { openMemoryKv } from '../../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../../src/storage/object-store.js';
import type { Storage } from '../../../src/storage/storage.js';
import { testNamespaces } from '../../support/example-group.js';

const gizmos: ResourceDefinition = defineResource({
  group: 'example.test',
  version: 'v1',
  kind: 'Gizmo',
  plural: 'gizmos',
  scope: 'Namespaced',
  schema: builtinSchema('test.example.v1.Gizmo'),
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    prepareForCreate: (obj) => {
      obj.metadata.generation = 1;
    },
    prepareForUpdate: (next, prev) => {
      if (JSON.stringify(next.spec) !== JSON.stringify(prev.spec)) next.metadata.generation = (prev.metadata.generation ?? 0) + 1;
    },
    validate: (obj) => {
      const replicas = (obj.spec as { replicas?: number } | undefined)?.replicas ?? 0;
      return replicas > 10 ? [invalidValue(path('spec', 'replicas'), replicas, 'must be at most 10')] : [];
    },
  },
  subresources: {
    status: {
      verbs: ['get', 'update'],
      path: 'status',
      validateUpdate: (next) => {
        const ready = (next.status as { ready?: unknown } | undefined)?.ready;
        return ready === undefined || typeof ready === 'boolean' ? [] : [invalidValue(path('status', 'ready'), ready, 'must be a boolean')];
      },
    },
    scale: {
      verbs: ['get', 'update'],
      responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: 'spec.selector' },
    },
  },
});

/** A cluster-scoped kind held by spec.finalizers, like a namespace. */
const vaults: ResourceDefinition = defineResource({
  group: 'example.test',
  version: 'v1',
  kind: 'Vault',
  plural: 'vaults',
  scope: 'Cluster',
  schema: builtinSchema('test.example.v1.Vault'),
  strategy: {
    deletionHold: {
      finalizers: (obj) => ((obj.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []),
      markDeleting: (obj) => {
        obj.status = { phase: 'Closing' };
      },
      conflictWhilePending: 'still closing',
    },
  },
  subresources: { finalize: { verbs: ['update'], path: 'spec.finalizers' } },
});

async function rejection(p: Promise<unknown>): Promise<StatusError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(StatusError);
  return err as StatusError;
}

describe('subresources of the generic store', () => {
  let storage: Storage;
  let registry: Registry;
  let stored: KubeObject;
  const at = { namespace: 'default', name: 'g' };
  beforeEach(async () => {
    storage = createObjectStore({ kv: openMemoryKv() });
    registry = createRegistry({ storage, resources: [gizmos, vaults, testNamespaces], admission: createAdmissionChain(), clock: () => new Date(0) });
    await registry.store(testNamespaces).create({ metadata: { name: 'default' } });
    const created = await registry.store(gizmos).create(
      { metadata: { name: 'g', labels: { a: 'b' } }, spec: { replicas: 2, selector: { matchLabels: { app: 'g' } } } },
      { namespace: 'default' },
    );
    stored = created.object;
    stored = (await registry.store(gizmos).subresource('status')!.update({ ...stored, status: { replicas: 1 } }, at)).object;
  });
  afterEach(async () => {
    await storage.close();
  });
  const current = () => registry.store(gizmos).get(at);

  test('undeclared subresources have no store', () => {
    expect(registry.store(gizmos).subresource('binding')).toBeUndefined();
    expect(registry.store(gizmos).subresource('toString')).toBeUndefined();
  });

  test('status: GET answers the parent', async () => {
    expect(await registry.store(gizmos).subresource('status')!.get(at)).toEqual(await current());
  });

  test('status: PUT replaces only status; spec, labels and generation stay', async () => {
    const status = registry.store(gizmos).subresource('status')!;
    const result = await status.update({ ...stored, metadata: { ...stored.metadata, labels: { x: 'y' } }, spec: { replicas: 9 }, status: { ready: true } }, at);
    const now = await current();
    expect(result.object).toEqual(now);
    expect(now.status).toEqual({ ready: true });
    expect(now.spec).toEqual(stored.spec);
    expect(now.metadata.labels).toEqual({ a: 'b' });
    expect(now.metadata.generation).toBe(1);
    expect(Number(now.metadata.resourceVersion)).toBeGreaterThan(Number(stored.metadata.resourceVersion));
  });

  const statusFailures: { name: string; body: (o: KubeObject) => KubeObject; want: { code: number; reason: string; message: RegExp } }[] = [
    {
      name: 'stale resourceVersion',
      body: (o) => ({ ...o, metadata: { ...o.metadata, resourceVersion: '1' }, status: { ready: true } }),
      want: { code: 409, reason: 'Conflict', message: /^Operation cannot be fulfilled on gizmos.example.test "g": the object has been modified/ },
    },
    {
      name: 'the subresource validation hook',
      body: (o) => ({ ...o, status: { ready: 'yes' } }),
      want: { code: 422, reason: 'Invalid', message: /^Gizmo.example.test "g" is invalid: status.ready: Invalid value: "yes": must be a boolean$/ },
    },
    {
      name: 'a name other than the URL names',
      body: (o) => ({ ...o, metadata: { ...o.metadata, name: 'other' }, status: { ready: true } }),
      want: { code: 400, reason: 'BadRequest', message: /does not match the name on the URL \(g\)/ },
    },
  ];
  for (const c of statusFailures) {
    test(`status: PUT refuses ${c.name} and stores nothing`, async () => {
      const err = await rejection(registry.store(gizmos).subresource('status')!.update(c.body(stored), at));
      expect({ code: err.code, reason: err.reason }).toEqual({ code: c.want.code, reason: c.want.reason });
      expect(err.message).toMatch(c.want.message);
      expect(await current()).toEqual(stored);
    });
  }

  test('status: dry run answers the would-be object and writes nothing', async () => {
    const result = await registry.store(gizmos).subresource('status')!.update({ ...stored, status: { ready: false } }, { ...at, dryRun: true });
    expect(result.object.status).toEqual({ ready: false });
    expect(await current()).toEqual(stored);
  });

  test('scale: GET answers an autoscaling/v1 Scale of the parent', async () => {
    expect(await registry.store(gizmos).subresource('scale')!.get(at)).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'g', namespace: 'default', uid: stored.metadata.uid, resourceVersion: stored.metadata.resourceVersion, creationTimestamp: '1970-01-01T00:00:00Z' },
      spec: { replicas: 2 },
      status: { replicas: 1, selector: 'app=g' },
    });
  });

  test('scale: PUT sets spec.replicas through the parent strategy (generation moves)', async () => {
    const scale = registry.store(gizmos).subresource('scale')!;
    const view = await scale.get(at);
    const result = await scale.update({ ...view, spec: { replicas: 5 }, status: { replicas: 99 } }, at);
    const now = await current();
    expect(result.object).toMatchObject({ kind: 'Scale', spec: { replicas: 5 }, status: { replicas: 1 }, metadata: { resourceVersion: now.metadata.resourceVersion } });
    expect(now.spec).toEqual({ replicas: 5, selector: { matchLabels: { app: 'g' } } });
    expect(now.status).toEqual({ replicas: 1 });
    expect(now.metadata.generation).toBe(2);
  });

  const scaleFailures: { name: string; replicas: unknown; resourceVersion?: string; want: { code: number; message: string } }[] = [
    { name: 'negative replicas (the Scale is invalid)', replicas: -1, want: { code: 422, message: 'Scale.autoscaling "g" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0' } },
    { name: 'replicas the parent refuses', replicas: 11, want: { code: 422, message: 'Gizmo.example.test "g" is invalid: spec.replicas: Invalid value: 11: must be at most 10' } },
    { name: 'a stale resourceVersion', replicas: 3, resourceVersion: '1', want: { code: 409, message: 'Operation cannot be fulfilled on gizmos.example.test "g": the object has been modified; please apply your changes to the latest version and try again' } },
  ];
  for (const c of scaleFailures) {
    test(`scale: PUT refuses ${c.name}`, async () => {
      const scale = registry.store(gizmos).subresource('scale')!;
      const view = await scale.get(at);
      const body = { ...view, metadata: { ...view.metadata, ...(c.resourceVersion === undefined ? {} : { resourceVersion: c.resourceVersion }) }, spec: { replicas: c.replicas } };
      const err = await rejection(scale.update(body, at));
      expect({ code: err.code, message: err.message }).toEqual(c.want);
      expect(await current()).toEqual(stored);
    });
  }

  test('a write through the scale subresource applies its transform to the current view (the PATCH entry point)', async () => {
    const seen: KubeObject[] = [];
    await registry.store(gizmos).write({
      ...at,
      verb: 'update',
      subresource: 'scale',
      transform: (view) => (seen.push(view!), { object: { ...view!, spec: { replicas: 7 } } }),
    });
    expect(seen[0]?.spec).toEqual({ replicas: 2 });
    expect((await current()).spec).toMatchObject({ replicas: 7 });
  });

  test('a held kind: DELETE marks, a repeated DELETE conflicts, /finalize removes it', async () => {
    const store = registry.store(vaults);
    await store.create({ metadata: { name: 'v' }, spec: { finalizers: ['example.test/close'] } });
    const first = await store.delete({ name: 'v' });
    expect(first.response).toMatchObject({ metadata: { name: 'v', deletionTimestamp: '1970-01-01T00:00:00Z' }, status: { phase: 'Closing' } });
    expect((first.response as KubeObject).metadata.deletionGracePeriodSeconds).toBeUndefined();
    const again = await rejection(store.delete({ name: 'v' }));
    expect({ code: again.code, message: again.message }).toEqual({ code: 409, message: 'Operation cannot be fulfilled on vaults.example.test "v": still closing' });

    const marked = await store.get({ name: 'v' });
    const finalized = await store.subresource('finalize')!.update({ ...marked, spec: { finalizers: [] } }, { name: 'v' });
    expect(finalized.object.metadata.name).toBe('v');
    expect((await rejection(store.get({ name: 'v' }))).code).toBe(404);
  });

  test('a held kind without its own finalizers is deleted at once', async () => {
    const store = registry.store(vaults);
    await store.create({ metadata: { name: 'w' } });
    await store.delete({ name: 'w' });
    expect((await rejection(store.get({ name: 'w' }))).code).toBe(404);
  });
});

describe('selectorString', () => {
  const cases: { name: string; input: unknown; want: string }[] = [
    { name: 'a plain label map, sorted by key', input: { tier: 'web', app: 'a' }, want: 'app=a,tier=web' },
    { name: 'a string passes through', input: 'app=a', want: 'app=a' },
    {
      name: 'a LabelSelector with expressions',
      input: { matchLabels: { b: '1' }, matchExpressions: [{ key: 'c', operator: 'In', values: ['y', 'x'] }, { key: 'a', operator: 'Exists' }, { key: 'd', operator: 'DoesNotExist' }, { key: 'e', operator: 'NotIn', values: ['z'] }] },
      want: 'a,b=1,c in (x,y),!d,e notin (z)',
    },
    { name: 'absent', input: undefined, want: '' },
  ];
  for (const c of cases) test(c.name, () => expect(selectorString(c.input)).toBe(c.want));
});
