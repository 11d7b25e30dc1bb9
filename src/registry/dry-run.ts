// dryRun=All: a Storage whose writes are checked but never persisted, so the store
// runs the exact same steps for real and dry-run requests (kube's
// DryRunnableStorage). Create still answers AlreadyExists, update still runs the
// caller's tryUpdate against the stored object, delete still checks preconditions.
import { StorageError, isStorageError } from '../errors/storage-error.js';
import type { KubeObject } from '../schema/object.js';
import type { Preconditions, Storage } from '../storage/storage.js';

async function getIfExists(storage: Storage, key: string): Promise<KubeObject | undefined> {
  try {
    return await storage.get(key);
  } catch (err) {
    if (isStorageError(err, 'NotFound')) return undefined;
    throw err;
  }
}

function checkPreconditions(key: string, obj: KubeObject, pre: Preconditions | undefined): void {
  if (pre?.uid !== undefined && pre.uid !== obj.metadata.uid) {
    throw new StorageError('Conflict', `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`, { key });
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== obj.metadata.resourceVersion) {
    throw new StorageError('Conflict', `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`, { key });
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
      if (current !== undefined) checkPreconditions(key, current, opts.preconditions);
      const object = await opts.tryUpdate({ current });
      return { object: structuredClone(object), created: current === undefined };
    },
    async delete(key, opts) {
      const current = await getIfExists(storage, key);
      if (current === undefined) throw new StorageError('NotFound', `key ${key} not found`, { key });
      checkPreconditions(key, current, opts?.preconditions);
      await opts?.validateDeletion?.(current);
      return current;
    },
  };
}
