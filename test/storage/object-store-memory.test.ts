import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { describeStorageConformance } from '../../src/storage/testing/storage.suite.js';

describeStorageConformance('object store over memory KV', () => {
  const kv = openMemoryKv();
  return { storage: createObjectStore({ kv }), compact: (revision) => kv.compact(revision) };
});
