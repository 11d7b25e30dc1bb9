// The generic store used in process (bootstrap, controllers): same rules as over
// HTTP, options objects instead of URLs.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../../src/admission/chain.js';
import { StatusError } from '../../../src/errors/status-error.js';
import { StorageError } from '../../../src/errors/storage-error.js';
import { translateStorageError } from '../../../src/registry/errors.js';
import { collectionPrefix, objectKey } from '../../../src/registry/keys.js';
import { createRegistry, type Registry } from '../../../src/registry/registry.js';
import { openMemoryKv } from '../../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../../src/storage/object-store.js';
import type { Storage } from '../../../src/storage/storage.js';
import { exampleResources, gadgets, testNamespaces, widgets } from '../../support/example-group.js';

async function rejection(p: Promise<unknown>): Promise<StatusError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(StatusError);
  return err as StatusError;
}

describe('generic store in process', () => {
  let storage: Storage;
  let registry: Registry;
  beforeEach(async () => {
    storage = createObjectStore({ kv: openMemoryKv() });
    registry = createRegistry({ storage, resources: exampleResources, admission: createAdmissionChain(), clock: () => new Date(0), random: () => 0 });
    await registry.store(testNamespaces).create({ metadata: { name: 'default' } });
  });
  afterEach(async () => {
    await storage.close();
  });

  test('objects are stored under kube-style keys', async () => {
    await registry.store(widgets).create({ metadata: { name: 'w' } }, { namespace: 'default' });
    await registry.store(gadgets).create({ metadata: { name: 'g' } });
    expect((await storage.get('/example.test/widgets/default/w')).metadata.name).toBe('w');
    expect((await storage.get('/example.test/gadgets/g')).metadata.name).toBe('g');
    expect((await storage.get('/namespaces/default')).metadata.name).toBe('default');
  });

  test('store() also looks up by group/version/resource; unknown resources are a caller bug', () => {
    expect(registry.store({ group: 'example.test', version: 'v1', resource: 'widgets' }).definition).toBe(widgets);
    expect(registry.find({ group: 'example.test', version: 'v2', resource: 'widgets' })).toBeUndefined();
    expect(() => registry.store({ group: 'x', version: 'v1', resource: 'y' })).toThrow(/not registered/);
  });

  test('generateName retries collisions, then answers AlreadyExists with Retry-After', async () => {
    const store = registry.store(widgets);
    const first = await store.create({ metadata: { generateName: 'gen-' } }, { namespace: 'default' });
    expect(first.object.metadata.name).toBe('gen-bbbbb');
    const err = await rejection(store.create({ metadata: { generateName: 'gen-' } }, { namespace: 'default' }));
    expect(err.code).toBe(409);
    expect(err.message).toBe('widgets.example.test "gen-bbbbb" already exists, the server was not able to generate a unique name for the object');
    expect(err.details?.retryAfterSeconds).toBe(1);
    expect(err.headers['Retry-After']).toBe('1');
  });

  // kube's storage reads metadata.resourceVersion with strconv.ParseUint: a non-zero
  // uint64 is refused (a plain error: 500 without reason), anything else is dropped.
  const createVersions = [
    { name: 'a version', resourceVersion: '5', refused: true },
    { name: 'leading zeros still parse', resourceVersion: '05', refused: true },
    { name: 'the largest uint64', resourceVersion: '18446744073709551615', refused: true },
    { name: 'zero', resourceVersion: '0', refused: false },
    { name: 'zeros', resourceVersion: '00', refused: false },
    { name: 'empty', resourceVersion: '', refused: false },
    { name: 'past uint64', resourceVersion: '99999999999999999999', refused: false },
    { name: 'negative', resourceVersion: '-1', refused: false },
    { name: 'a sign', resourceVersion: '+5', refused: false },
    { name: 'an exponent', resourceVersion: '1e3', refused: false },
    { name: 'hexadecimal', resourceVersion: '0x5', refused: false },
  ];
  for (const c of createVersions) {
    test(`a resourceVersion on create: ${c.name} (${JSON.stringify(c.resourceVersion)}) is ${c.refused ? 'refused' : 'dropped'}`, async () => {
      const store = registry.store(gadgets);
      const create = store.create({ metadata: { name: 'g', resourceVersion: c.resourceVersion } });
      if (c.refused) {
        const err = await rejection(create);
        expect(err.toStatus()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'resourceVersion should not be set on objects to be created', code: 500 });
        await expect(storage.get('/example.test/gadgets/g')).rejects.toMatchObject({ code: 'NotFound' });
        // A dry run never reaches the storage check, as in kube.
        const dry = await store.create({ metadata: { name: 'g', resourceVersion: c.resourceVersion } }, { dryRun: true });
        expect(dry.object.metadata.name).toBe('g');
        return;
      }
      const created = await create;
      const stored = await storage.get('/example.test/gadgets/g');
      expect(created.object.metadata.resourceVersion).toBe(stored.metadata.resourceVersion);
      expect(stored.metadata.resourceVersion).toMatch(/^[1-9]\d*$/);
    });
  }

  test('an expired or future continue token: the 410 and 504 quote the token\'s version', async () => {
    const kv = openMemoryKv();
    const own = createObjectStore({ kv });
    try {
      const reg = createRegistry({ storage: own, resources: exampleResources, admission: createAdmissionChain(), clock: () => new Date(0), random: () => 0 });
      const store = reg.store(gadgets);
      for (const name of ['a', 'b', 'c']) await store.create({ metadata: { name } });
      const first = await store.list({ limit: 1 });
      const token = first.metadata.continue!;
      const tokenVersion = Number(first.metadata.resourceVersion);
      for (const name of ['d', 'e']) await store.create({ metadata: { name } });
      const current = await kv.currentRevision();
      await kv.compact(current);
      const expired = await rejection(store.list({ limit: 1, continue: token }));
      expect(expired.code).toBe(410);
      expect(expired.message).toBe(`too old resource version: ${tokenVersion} (${current + 1})`);
      const future = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: current + 1000, start: 'a\u0000' })).toString('base64url');
      const tooLarge = await rejection(store.list({ limit: 1, continue: future }));
      expect(tooLarge.code).toBe(504);
      expect(tooLarge.message).toBe(`Timeout: Too large resource version: ${current + 1000}, current: ${current}`);
    } finally {
      await own.close();
    }
  });

  test('cluster-scoped kinds drop a namespace; the store fills the namespace of namespaced ones', async () => {
    const g = await registry.store(gadgets).create({ metadata: { name: 'g', namespace: 'default' } });
    expect(g.object.metadata.namespace).toBeUndefined();
    const w = await registry.store(widgets).create({ metadata: { name: 'w' } }, { namespace: 'default' });
    expect(w.object.metadata.namespace).toBe('default');
  });

  test('dry-run update returns the would-be object and writes nothing', async () => {
    const store = registry.store(widgets);
    const created = await store.create({ metadata: { name: 'w' }, spec: { size: 1 } }, { namespace: 'default' });
    const before = await storage.currentResourceVersion();
    const dry = await store.update({ ...created.object, spec: { size: 9 } }, { namespace: 'default', name: 'w', dryRun: true });
    expect(dry.object.spec).toEqual({ size: 9 });
    expect(dry.object.metadata.generation).toBe(2);
    expect(await storage.currentResourceVersion()).toBe(before);
    expect((await store.get({ namespace: 'default', name: 'w' })).spec).toEqual({ size: 1 });
  });

  test('list across namespaces and in one', async () => {
    await registry.store(testNamespaces).create({ metadata: { name: 'other' } });
    await registry.store(widgets).create({ metadata: { name: 'a' } }, { namespace: 'default' });
    await registry.store(widgets).create({ metadata: { name: 'b' } }, { namespace: 'other' });
    const all = await registry.store(widgets).list();
    expect(all.items.map((i) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual(['default/a', 'other/b']);
    const one = await registry.store(widgets).list({ namespace: 'other' });
    expect(one.items.map((i) => i.metadata.name)).toEqual(['b']);
  });

  test('a watch by name sees that name in every namespace, from the initial list on, and nothing else', async () => {
    const store = registry.store(widgets);
    await registry.store(testNamespaces).create({ metadata: { name: 'other' } });
    await store.create({ metadata: { name: 'w' } }, { namespace: 'default' });
    await store.create({ metadata: { name: 'x' } }, { namespace: 'default' });
    const seen: string[] = [];
    const handle = await store.watch({ name: 'w', onEvent: (e) => seen.push(`${e.type} ${e.object.metadata.namespace}/${e.object.metadata.name}`), onError: () => undefined });
    try {
      await store.create({ metadata: { name: 'w' } }, { namespace: 'other' });
      await store.create({ metadata: { name: 'ww' } }, { namespace: 'other' });
      await store.delete({ namespace: 'default', name: 'w' });
      await store.create({ metadata: { name: 'done' } }, { namespace: 'other' });
      const deadline = Date.now() + 5000;
      while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
      expect(seen).toEqual(['ADDED default/w', 'ADDED other/w', 'DELETED default/w']);
    } finally {
      handle.close();
    }
  });
});

describe('keys', () => {
  const cases: { name: string; got: string; want: string }[] = [
    { name: 'core namespaced', got: objectKey({ group: '', plural: 'configmaps', scope: 'Namespaced' }, { namespace: 'ns', name: 'x' }), want: '/configmaps/ns/x' },
    { name: 'core cluster', got: objectKey({ group: '', plural: 'namespaces', scope: 'Cluster' }, { name: 'ns' }), want: '/namespaces/ns' },
    { name: 'group namespaced', got: objectKey({ group: 'apps', plural: 'deployments', scope: 'Namespaced' }, { namespace: 'ns', name: 'd' }), want: '/apps/deployments/ns/d' },
    { name: 'group cluster', got: objectKey({ group: 'rbac.authorization.k8s.io', plural: 'clusterroles', scope: 'Cluster' }, { name: 'r' }), want: '/rbac.authorization.k8s.io/clusterroles/r' },
    { name: 'collection in a namespace', got: collectionPrefix({ group: '', plural: 'pods', scope: 'Namespaced' }, { namespace: 'ns' }), want: '/pods/ns/' },
    { name: 'collection across namespaces', got: collectionPrefix({ group: '', plural: 'pods', scope: 'Namespaced' }), want: '/pods/' },
  ];
  for (const c of cases) test(c.name, () => expect(c.got).toBe(c.want));
});

describe('storage error translation', () => {
  const gr = { group: 'example.test', resource: 'widgets' };
  const cases: { name: string; err: StorageError; rv?: string; want: { code: number; reason: string; message: string } }[] = [
    { name: 'NotFound', err: new StorageError('NotFound', 'x'), want: { code: 404, reason: 'NotFound', message: 'widgets.example.test "w" not found' } },
    { name: 'Exists', err: new StorageError('Exists', 'x'), want: { code: 409, reason: 'AlreadyExists', message: 'widgets.example.test "w" already exists' } },
    { name: 'Conflict', err: new StorageError('Conflict', 'x'), want: { code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on widgets.example.test "w": the object has been modified; please apply your changes to the latest version and try again' } },
    { name: 'Compacted', err: new StorageError('Compacted', 'x', { revision: 1000 }), rv: '5', want: { code: 410, reason: 'Expired', message: 'too old resource version: 5 (1000)' } },
    { name: 'FutureRevision', err: new StorageError('FutureRevision', 'x', { revision: 12 }), rv: '900', want: { code: 504, reason: 'Timeout', message: 'Timeout: Too large resource version: 900, current: 12' } },
    { name: 'Unavailable', err: new StorageError('Unavailable', 'etcd down'), want: { code: 503, reason: 'ServiceUnavailable', message: 'etcd down' } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = translateStorageError(c.err, { operation: 'get', resource: gr, name: 'w', ...(c.rv === undefined ? {} : { resourceVersion: c.rv }) }) as StatusError;
      expect({ code: got.code, reason: got.reason, message: got.message }).toEqual(c.want);
    });
  }

  test('too large resource version carries the cause clients retry on', () => {
    const got = translateStorageError(new StorageError('FutureRevision', 'x', { revision: 1 }), { operation: 'list', resource: gr, name: '', resourceVersion: '9' }) as StatusError;
    expect(got.details).toEqual({ causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
  });

  test('other errors pass through untouched', () => {
    const err = new Error('boom');
    expect(translateStorageError(err, { operation: 'get', resource: gr, name: 'w' })).toBe(err);
  });
});
