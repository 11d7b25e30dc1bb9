// The in-process controller runner over a real registry (memory storage, built-in
// kinds): DELETE of a namespace empties it and removes it without anyone calling
// sync by hand; an object held by a finalizer keeps the namespace Terminating and
// the backoff retry finishes once that object is gone. Each runs over plain storage
// (--watch-cache=false) and over the watch cache.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { builtinResources } from '../../src/apis/index.js';
import { isStatusError } from '../../src/errors/status-error.js';
import { createRegistry, type Registry } from '../../src/registry/registry.js';
import { startControllers, type RunningControllers } from '../../src/server/controllers.js';
import type { KubeObject } from '../../src/schema/object.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { createCacher } from '../../src/storage/cacher/index.js';
import type { Storage } from '../../src/storage/storage.js';

const gvr = (resource: string) => ({ group: '', version: 'v1', resource });
const silent = { info: () => undefined, warn: () => undefined };

const storages: [string, () => Storage][] = [
  ['watch cache off', () => createObjectStore({ kv: openMemoryKv() })],
  ['watch cache on', () => createCacher({ backend: createObjectStore({ kv: openMemoryKv() }) })],
];

/** Polls a condition until it holds or the bound passes (no fixed sleeps). */
async function until(what: string, check: () => Promise<boolean>, boundMs = 5000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

async function exists(registry: Registry, resource: string, opts: { namespace?: string; name: string }): Promise<KubeObject | undefined> {
  try {
    return await registry.store(gvr(resource)).get(opts);
  } catch (err) {
    if (isStatusError(err) && err.reason === 'NotFound') return undefined;
    throw err;
  }
}

describe.each(storages)('startControllers: namespace lifecycle (%s)', (_label, open) => {
  let storage: Storage;
  let registry: Registry;
  let controllers: RunningControllers;
  beforeEach(async () => {
    storage = open();
    registry = createRegistry({ storage, resources: builtinResources, admission: createAdmissionChain(), clock: () => new Date() });
    await registry.store(gvr('namespaces')).create({ metadata: { name: 'team-x' } });
    await registry.store(gvr('configmaps')).create({ metadata: { name: 'cm' }, data: { k: 'v' } }, { namespace: 'team-x' });
    await registry.store(gvr('pods')).create({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, { namespace: 'team-x' });
    controllers = startControllers({ registry, logger: silent, retry: { initialMs: 5, maxMs: 20 } });
  });
  afterEach(async () => {
    controllers.stop();
    await storage.close();
  });

  test('DELETE of a namespace: contents deleted, then the namespace itself', async () => {
    const deleted = await registry.store(gvr('namespaces')).delete({ name: 'team-x' });
    expect(deleted.response).toMatchObject({ status: { phase: 'Terminating' }, spec: { finalizers: ['kubernetes'] } });
    await until('the namespace to be gone', async () => (await exists(registry, 'namespaces', { name: 'team-x' })) === undefined);
    expect(await exists(registry, 'configmaps', { namespace: 'team-x', name: 'cm' })).toBeUndefined();
    expect(await exists(registry, 'pods', { namespace: 'team-x', name: 'p' })).toBeUndefined();
  });

  test('a namespace deleted before the controllers started is finished at start', async () => {
    controllers.stop();
    await registry.store(gvr('namespaces')).delete({ name: 'team-x' });
    controllers = startControllers({ registry, logger: silent, retry: { initialMs: 5, maxMs: 20 } });
    await until('the namespace to be gone', async () => (await exists(registry, 'namespaces', { name: 'team-x' })) === undefined);
  });

  test('an object held by a finalizer keeps the namespace Terminating until it is gone', async () => {
    const cms = registry.store(gvr('configmaps'));
    await cms.create({ metadata: { name: 'held', finalizers: ['example.com/hold'] } }, { namespace: 'team-x' });
    await registry.store(gvr('namespaces')).delete({ name: 'team-x' });
    await until('the unheld contents to be deleted', async () => (await exists(registry, 'configmaps', { namespace: 'team-x', name: 'cm' })) === undefined);
    const ns = await exists(registry, 'namespaces', { name: 'team-x' });
    expect(ns?.status).toEqual({ phase: 'Terminating' });
    const held = await exists(registry, 'configmaps', { namespace: 'team-x', name: 'held' });
    expect(held?.metadata.deletionTimestamp).toBeDefined();

    // The finalizer's owner lets go; the controller's retry then finishes the namespace.
    await storage.delete(`/configmaps/team-x/held`);
    await until('the namespace to be gone', async () => (await exists(registry, 'namespaces', { name: 'team-x' })) === undefined);
  });
});

describe.each(storages)('startControllers: namespace defaults (%s)', (_label, open) => {
  const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
  let storage: Storage;
  let registry: Registry;
  let controllers: RunningControllers;
  beforeEach(async () => {
    storage = open();
    registry = createRegistry({ storage, resources: builtinResources, admission: createAdmissionChain(), clock: () => new Date() });
    await registry.store(gvr('namespaces')).create({ metadata: { name: 'before' } });
    controllers = startControllers({ registry, logger: silent, retry: { initialMs: 5, maxMs: 20 }, rootCaPem: CA });
  });
  afterEach(async () => {
    controllers.stop();
    await storage.close();
  });

  const rootCa = async (ns: string) => (await exists(registry, 'configmaps', { namespace: ns, name: 'kube-root-ca.crt' })) as (KubeObject & { data?: Record<string, string> }) | undefined;

  test('namespaces old and new get the default service account and kube-root-ca.crt', async () => {
    await registry.store(gvr('namespaces')).create({ metadata: { name: 'after' } });
    for (const ns of ['before', 'after']) {
      await until(`defaults in ${ns}`, async () => (await exists(registry, 'serviceaccounts', { namespace: ns, name: 'default' })) !== undefined && (await rootCa(ns)) !== undefined);
      expect((await rootCa(ns))?.data).toEqual({ 'ca.crt': CA });
    }
  });

  test('a deleted default service account comes back; an edited CA bundle is put back', async () => {
    await until('defaults', async () => (await exists(registry, 'serviceaccounts', { namespace: 'before', name: 'default' })) !== undefined && (await rootCa('before')) !== undefined);
    const first = await exists(registry, 'serviceaccounts', { namespace: 'before', name: 'default' });
    await registry.store(gvr('serviceaccounts')).delete({ namespace: 'before', name: 'default' });
    await until('the account to come back', async () => {
      const sa = await exists(registry, 'serviceaccounts', { namespace: 'before', name: 'default' });
      return sa !== undefined && sa.metadata.uid !== first?.metadata.uid;
    });
    const cm = (await rootCa('before'))!;
    await registry.store(gvr('configmaps')).update({ ...cm, data: { 'ca.crt': 'tampered', extra: 'x' } } as KubeObject, { namespace: 'before', name: 'kube-root-ca.crt' });
    await until('the bundle to be put back', async () => JSON.stringify((await rootCa('before'))?.data) === JSON.stringify({ 'ca.crt': CA }));
  });

  test('a namespace being deleted gets nothing back and goes away', async () => {
    await until('defaults', async () => (await rootCa('before')) !== undefined);
    await registry.store(gvr('namespaces')).delete({ name: 'before' });
    await until('the namespace to be gone', async () => (await exists(registry, 'namespaces', { name: 'before' })) === undefined);
    expect(await exists(registry, 'serviceaccounts', { namespace: 'before', name: 'default' })).toBeUndefined();
    expect(await rootCa('before')).toBeUndefined();
  });
});
