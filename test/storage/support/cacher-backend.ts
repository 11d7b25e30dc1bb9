// A backend for the watch cache's own tests: the object store over a memory KV,
// counting the reads that reach it and letting a test break the watch the cache
// keeps open on it.
import type { KV } from '../../../src/storage/kv.js';
import { openMemoryKv } from '../../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../../src/storage/object-store.js';
import type { Storage, StorageWatchOptions } from '../../../src/storage/storage.js';

export interface TestBackend {
  readonly kv: KV;
  readonly storage: Storage;
  /** Reads that reached the backend, by verb. */
  readonly reads: { get: number; list: number; watch: number };
  /** Fails every open backend watch with `err` (as a dropped connection would). */
  breakWatches(err: Error): void;
}

/** `progress: false` hides the KV's progress reports, as a backend that cannot tell (etcd with progress off). */
export function testBackend(opts: { progress?: boolean } = {}): TestBackend {
  const kv = openMemoryKv();
  const inner = createObjectStore({ kv });
  const reads = { get: 0, list: 0, watch: 0 };
  const open = new Set<{ fail: (err: Error) => void }>();
  const storage: Storage = {
    ...bind(inner),
    get: (key, opts) => (reads.get++, inner.get(key, opts)),
    list: (prefix, opts) => (reads.list++, inner.list(prefix, opts)),
    watch: (prefix, watchOpts: StorageWatchOptions) => {
      reads.watch++;
      let ended = false;
      const { onProgress, ...rest } = watchOpts;
      const w = inner.watch(prefix, {
        ...rest,
        ...(opts.progress === false || onProgress === undefined ? {} : { onProgress }),
        onError: (err) => entry.fail(err),
      });
      const entry = {
        fail: (err: Error) => {
          if (ended) return;
          ended = true;
          open.delete(entry);
          w.close();
          watchOpts.onError(err);
        },
      };
      open.add(entry);
      return {
        close: () => {
          ended = true;
          open.delete(entry);
          w.close();
        },
      };
    },
  };
  return { kv, storage, reads, breakWatches: (err) => [...open].forEach((e) => e.fail(err)) };
}

function bind(s: Storage): Storage {
  return {
    create: (k, o) => s.create(k, o),
    get: (k, o) => s.get(k, o),
    list: (p, o) => s.list(p, o),
    guaranteedUpdate: (k, o) => s.guaranteedUpdate(k, o),
    delete: (k, o) => s.delete(k, o),
    watch: (p, o) => s.watch(p, o),
    count: (p) => s.count(p),
    currentResourceVersion: () => s.currentResourceVersion(),
    ping: () => s.ping(),
    close: () => s.close(),
  };
}
