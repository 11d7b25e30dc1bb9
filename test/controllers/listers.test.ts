// The controllers read what they decide on from the watch cache (controllers/
// lister.ts), as kube's controllers read their informers: once the caches are
// filled, a new namespace gets its default ServiceAccount and kube-root-ca.crt
// without one read reaching the backend (counted under the cacher), and a stale
// read cannot make a controller undo someone else's write.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { configMaps, namespaces, secrets, serviceAccounts } from '../../src/apis/core/v1/index.js';
import { builtinResources } from '../../src/apis/index.js';
import { cachedGet, cachedList } from '../../src/controllers/lister.js';
import { createTokensController, registryTokensClient } from '../../src/controllers/serviceaccount-token.js';
import { createNamespaceCache, type NamespaceCache } from '../../src/registry/namespace-cache.js';
import { createRegistry, type Registry } from '../../src/registry/registry.js';
import type { KubeObject } from '../../src/schema/object.js';
import { startControllers, type RunningControllers } from '../../src/server/controllers.js';
import { createCacher, type CachingStorage } from '../../src/storage/cacher/index.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { countingStorage } from '../support/counting-storage.js';

const silent = { info: () => undefined, warn: () => undefined };
const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

async function until(what: string, check: () => Promise<boolean>, boundMs = 5000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const countingBackend = countingStorage;

describe('controllers over the watch cache', () => {
  let backend: ReturnType<typeof countingBackend>;
  let cacher: CachingStorage;
  let lookup: NamespaceCache;
  let registry: Registry;
  let controllers: RunningControllers | undefined;

  beforeEach(async () => {
    backend = countingBackend(createObjectStore({ kv: openMemoryKv() }));
    cacher = createCacher({ backend: backend.storage });
    lookup = createNamespaceCache({ storage: cacher, prefix: '/namespaces/', watchCache: true });
    registry = createRegistry({ storage: cacher, resources: builtinResources, admission: createAdmissionChain(), clock: () => new Date(), lookup });
    await registry.store(namespaces).create({ metadata: { name: 'before' } });
    for (const prefix of ['/namespaces/', '/serviceaccounts/', '/configmaps/', '/secrets/']) await cacher.whenReady(prefix);
  });
  afterEach(async () => {
    controllers?.stop();
    controllers = undefined;
    lookup.close();
    await cacher.close();
  });

  const cached = (def: typeof serviceAccounts, namespace: string, name: string) => cachedGet(registry.store(def), { namespace, name });

  test('a new namespace gets its defaults with no backend read', async () => {
    controllers = startControllers({ registry, logger: silent, rootCaPem: CA, controllers: ['serviceaccount', 'root-ca-cert-publisher'], retry: { initialMs: 5, maxMs: 20 } });
    await until('the first namespace\'s defaults', async () => (await cached(serviceAccounts, 'before', 'default')) !== undefined && (await cached(configMaps, 'before', 'kube-root-ca.crt')) !== undefined);
    // The syncs their own writes cause are answered from the cache too; wait for them to be in it.
    const before = backend.reads();
    await registry.store(namespaces).create({ metadata: { name: 'after' } });
    await until('the new namespace\'s defaults', async () => (await cached(serviceAccounts, 'after', 'default')) !== undefined && (await cached(configMaps, 'after', 'kube-root-ca.crt')) !== undefined);
    expect(backend.reads()).toBe(before);
  });

  test('lister reads are "Any" reads: served from memory, a little behind at most', async () => {
    const before = backend.reads();
    expect((await cachedGet(registry.store(namespaces), { name: 'before' }))?.metadata.name).toBe('before');
    expect(await cachedGet(registry.store(namespaces), { name: 'nope' })).toBeUndefined();
    expect((await cachedList(registry.store(namespaces))).map((n) => n.metadata.name)).toEqual(['before']);
    expect(backend.reads()).toBe(before);
  });

  test('tokens controller: a token Secret whose account the cache lacks is checked live, not deleted', async () => {
    const sas = registry.store(serviceAccounts);
    const sa = (await sas.create({ metadata: { name: 'builder' } }, { namespace: 'before' })).object;
    const secret = (
      await registry.store(secrets).create(
        { metadata: { name: 'builder-token', annotations: { 'kubernetes.io/service-account.name': 'builder' } }, type: 'kubernetes.io/service-account-token' } as KubeObject,
        { namespace: 'before' },
      )
    ).object;
    const client = registryTokensClient(registry, { serviceAccounts, secrets });
    // The account's cache has not seen it yet (another resource's cache ran ahead).
    const controller = createTokensController({ client: { ...client, getServiceAccount: async () => undefined }, sign: async () => 'signed.jwt.token', rootCaPem: CA });
    const key = JSON.stringify(['secret', 'before', 'builder-token', secret.metadata.uid, 'builder', '']);
    await controller.sync(key);
    const now = await registry.store(secrets).get({ namespace: 'before', name: 'builder-token' });
    expect(now.metadata.uid).toBe(secret.metadata.uid);
    expect((now.metadata.annotations ?? {})['kubernetes.io/service-account.uid']).toBe(sa.metadata.uid);
    expect(Buffer.from(String((now as { data?: Record<string, string> }).data?.token), 'base64').toString()).toBe('signed.jwt.token');

    // Absent live too: the Secret goes (kube's behaviour).
    await sas.delete({ namespace: 'before', name: 'builder' });
    await controller.sync(key);
    await expect(registry.store(secrets).get({ namespace: 'before', name: 'builder-token' })).rejects.toMatchObject({ reason: 'NotFound' });
  });

  test('root CA publisher: a stale ConfigMap read is a Conflict, never a lost write', async () => {
    controllers = startControllers({ registry, logger: silent, rootCaPem: CA, controllers: ['root-ca-cert-publisher'], retry: { initialMs: 5, maxMs: 20 } });
    await until('the bundle', async () => (await cached(configMaps, 'before', 'kube-root-ca.crt')) !== undefined);
    const cms = registry.store(configMaps);
    const cm = await cms.get({ namespace: 'before', name: 'kube-root-ca.crt' });
    // A user's edit, then ours from the old version: refused, the user's edit stays until the controller re-reads it.
    await cms.update({ ...cm, data: { 'ca.crt': 'tampered' } } as KubeObject, { namespace: 'before', name: 'kube-root-ca.crt' });
    await expect(cms.update({ ...cm, data: { 'ca.crt': CA } } as KubeObject, { namespace: 'before', name: 'kube-root-ca.crt' })).rejects.toMatchObject({ code: 409, reason: 'Conflict' });
    await until('the controller to put the bundle back', async () => JSON.stringify((await cms.get({ namespace: 'before', name: 'kube-root-ca.crt' }) as { data?: unknown }).data) === JSON.stringify({ 'ca.crt': CA }));
  });
});
