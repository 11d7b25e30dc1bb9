import { afterEach, describe, expect, test } from 'vitest';
import { createNamespaceCache, type NamespaceCache } from '../../src/registry/namespace-cache.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import type { Storage } from '../../src/storage/storage.js';

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
