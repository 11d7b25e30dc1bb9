import { afterEach, describe, expect, test } from 'vitest';
import { createNamespaceCache, type NamespaceCache } from '../../src/registry/namespace-cache.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import type { Storage } from '../../src/storage/storage.js';
import { createCacher, type CachingStorage } from '../../src/storage/cacher/index.js';
import { createRegistry } from '../../src/registry/registry.js';
import { builtinResources } from '../../src/apis/index.js';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { configMaps, namespaces } from '../../src/apis/core/v1/index.js';
import { countingStorage } from '../support/counting-storage.js';

/** Counts storage reads so the test can tell a cache hit from a fallback. */
function counting(storage: Storage): { storage: Storage; gets: () => number } {
  let gets = 0;
  return {
    storage: { ...storage, get: (...args: Parameters<Storage['get']>) => ((gets += 1), storage.get(...args)), list: storage.list.bind(storage), watch: storage.watch.bind(storage) } as Storage,
    gets: () => gets,
  };
}

async function eventually(check: () => boolean | Promise<boolean>, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('namespace cache', () => {
  let cache: NamespaceCache | undefined;
  afterEach(() => cache?.close());

  test('serves listed and watched namespaces without reading storage', async () => {
    const base = createObjectStore({ kv: openMemoryKv() });
    await base.create('/namespaces/a', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } });
    const { storage, gets } = counting(base);
    cache = createNamespaceCache({ storage, prefix: '/namespaces/' });
    const servedFromCache = async (name: string) => {
      const before = gets();
      const found = await cache!.getNamespace(name);
      return found?.metadata.name === name && gets() === before;
    };
    await eventually(() => servedFromCache('a'));
    await base.create('/namespaces/b', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b' } });
    await eventually(() => servedFromCache('b'));
    await base.delete('/namespaces/a');
    await eventually(async () => (await cache!.getNamespace('a')) === undefined);
  });

  test('a miss falls back to storage and answers undefined for absent ones', async () => {
    const base = createObjectStore({ kv: openMemoryKv() });
    const { storage, gets } = counting(base);
    cache = createNamespaceCache({ storage, prefix: '/namespaces/' });
    expect(await cache.getNamespace('nope')).toBeUndefined();
    expect(gets()).toBe(1);
  });
});

const countingBackend = countingStorage;

describe('namespace cache over the watch cache (--watch-cache)', () => {
  let cache: NamespaceCache | undefined;
  let cacher: CachingStorage | undefined;
  afterEach(async () => {
    cache?.close();
    await cacher?.close();
  });

  test('hits are the watch cache\'s "Any" reads; a miss is one consistent read; no list or watch of its own', async () => {
    const backend = countingBackend(createObjectStore({ kv: openMemoryKv() }));
    cacher = createCacher({ backend: backend.storage });
    await cacher.create('/namespaces/a', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } });
    let watches = 0;
    const viaCacher: Storage = Object.assign(Object.create(cacher) as Storage, { watch: (...a: Parameters<Storage['watch']>) => ((watches += 1), cacher!.watch(...a)) });
    cache = createNamespaceCache({ storage: viaCacher, prefix: '/namespaces/', watchCache: true });
    await cacher.whenReady('/namespaces/');
    const before = backend.reads();
    expect((await cache.getNamespace('a'))?.metadata.name).toBe('a');
    expect(backend.reads()).toBe(before);
    expect(watches).toBe(0);

    await cacher.create('/namespaces/b', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b' } });
    // Just created: found, from memory once the cache has it, else by the consistent fallback.
    expect((await cache.getNamespace('b'))?.metadata.name).toBe('b');
    await eventually(async () => {
      const n = backend.reads();
      return (await cache!.getNamespace('b')) !== undefined && backend.reads() === n;
    });

    const missBefore = backend.reads();
    expect(await cache.getNamespace('nope')).toBeUndefined();
    expect(backend.reads()).toBe(missBefore + 1);
  });
});

describe('a namespaced create costs no backend read for its namespace', () => {
  const modes: [string, (backend: Storage) => { storage: Storage; ready: () => Promise<void> }][] = [
    ['watch cache on', (backend) => {
      const c = createCacher({ backend });
      return { storage: c, ready: () => c.whenReady('/namespaces/') };
    }],
    ['watch cache off', (backend) => ({ storage: backend, ready: async () => undefined })],
  ];
  for (const [label, wrap] of modes) {
    test(label, async () => {
      const backend = countingBackend(createObjectStore({ kv: openMemoryKv() }));
      const { storage, ready } = wrap(backend.storage);
      const lookup = createNamespaceCache({ storage, prefix: '/namespaces/', watchCache: label === 'watch cache on' });
      const registry = createRegistry({ storage, resources: builtinResources, admission: createAdmissionChain(), clock: () => new Date(), lookup });
      try {
        await registry.store(namespaces).create({ metadata: { name: 'team' } });
        await ready();
        // Once the namespace is in memory (either way), a create of a ConfigMap in it reads nothing from the backend.
        await eventually(async () => {
          const n = backend.reads();
          return (await lookup.getNamespace('team')) !== undefined && backend.reads() === n;
        });
        const before = backend.reads();
        await registry.store(configMaps).create({ metadata: { name: 'cm' }, data: { k: 'v' } }, { namespace: 'team' });
        expect(backend.reads()).toBe(before);
        // And a create in an absent namespace is still refused (the miss is checked live).
        await expect(registry.store(configMaps).create({ metadata: { name: 'cm' } }, { namespace: 'absent' })).rejects.toMatchObject({ code: 404, reason: 'NotFound' });
      } finally {
        lookup.close();
        await storage.close();
      }
    });
  }
});
