// dryRun=All: a Storage whose writes are checked but never persisted, so the store
// runs the exact same steps for real and dry-run requests (kube's
// DryRunnableStorage). Create still answers AlreadyExists, update still runs the
// caller's tryUpdate against the stored object, delete still checks preconditions.
import { StorageError, isStorageError } from '../errors/storage-error.js';
import type { KubeObject } from '../schema/object.js';
import { checkPreconditions, type Storage } from '../storage/storage.js';

async function getIfExists(storage: Storage, key: string): Promise<KubeObject | undefined> {
  try {
    return await storage.get(key);
  } catch (err) {
    if (isStorageError(err, 'NotFound')) return undefined;
    throw err;
  }
}

export function dryRunStorage(storage: Storage): Storage {
  return {
    get: (key, opts) => storage.get(key, opts),
    list: (prefix, opts) => storage.list(prefix, opts),
    watch: (prefix, opts) => storage.watch(prefix, opts),
    count: (prefix) => storage.count(prefix),
    currentResourceVersion: () => storage.currentResourceVersion(),
    ping: () => storage.ping(),
    // The dry-run view never owns the underlying storage.
    close: async () => undefined,
    async create(key, obj) {
      if ((await getIfExists(storage, key)) !== undefined) throw new StorageError('Exists', `key ${key} already exists`, { key });
      return structuredClone(obj);
    },
    async guaranteedUpdate(key, opts) {
      const current = await getIfExists(storage, key);
      if (current === undefined && opts.allowCreate !== true) throw new StorageError('NotFound', `key ${key} not found`, { key });
      // The storage's own check, so a dry run fails exactly where the real write would.
      checkPreconditions(key, opts.preconditions, current);
      const object = await opts.tryUpdate({ current });
      return { object: structuredClone(object), created: current === undefined };
    },
    async delete(key, opts) {
      const current = await getIfExists(storage, key);
      if (current === undefined) throw new StorageError('NotFound', `key ${key} not found`, { key });
      checkPreconditions(key, opts?.preconditions, current);
      await opts?.validateDeletion?.(current);
      return current;
    },
  };
}
