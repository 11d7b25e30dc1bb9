// The watch cache over a KV, as the Storage conformance suite and the cacher's
// own tests run it: short freshness bounds so "not reached yet" rows answer in
// milliseconds, and a compact hook that forgets the cache's history too (the
// cache keeps its own window; compaction cases then see it answer 410 itself).
import { createCacher, type CacherOptions, type CachingStorage } from '../cacher/index.js';
import type { KV } from '../kv.js';
import { createObjectStore } from '../object-store.js';
import type { StorageUnderTest } from './storage.suite.js';

/** The prefix every conformance case's keys share ("/registry/conformance/t<n>/"): one cache. */
export const SUITE_PREFIX = '/registry/conformance/';

export async function cacherUnderTest(
  kv: KV,
  opts: Partial<Omit<CacherOptions, 'backend'>> = {},
): Promise<StorageUnderTest & { readonly storage: CachingStorage }> {
  const cacher = createCacher({ backend: createObjectStore({ kv }), freshnessTimeoutMs: 300, ...opts });
  await cacher.whenReady(SUITE_PREFIX);
  return {
    storage: cacher,
    compact: async (revision) => {
      await kv.compact(revision);
      cacher.forgetHistoryThrough(revision);
    },
  };
}
