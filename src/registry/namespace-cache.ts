// Admission reads namespaces on every namespaced write (NamespaceLifecycle). Like
// kube-apiserver's namespace informer, this keeps them in memory, fed by a list
// and a watch of the namespaces prefix, so a create costs no extra storage read.
// A miss falls back to storage (a namespace created a moment ago may not have
// arrived yet, as kube's lifecycle plugin also re-checks live); a broken watch
// drops the cache until a fresh list and watch replace it.
import type { AdmissionLookup } from '../admission/plugin.js';
import { isStorageError } from '../errors/storage-error.js';
import type { KubeObject } from '../schema/object.js';
import type { Storage, StorageWatch } from '../storage/storage.js';

export interface NamespaceCache extends AdmissionLookup {
  close(): void;
}

export function createNamespaceCache(opts: {
  storage: Storage;
  /** The namespaces collection prefix, ending in "/". */
  prefix: string;
  /** Delay before re-listing after the watch broke. */
  retryMs?: number;
  onError?: (err: unknown) => void;
}): NamespaceCache {
  const { storage, prefix } = opts;
  let cache: Map<string, KubeObject> | undefined;
  let watch: StorageWatch | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const keyName = (obj: KubeObject): string => obj.metadata.name ?? '';

  const resync = async (): Promise<void> => {
    if (closed) return;
    try {
      const list = await storage.list(prefix);
      const next = new Map(list.items.map((ns) => [keyName(ns), ns]));
      watch = storage.watch(prefix, {
        resourceVersion: list.resourceVersion,
        onEvent: (event) => {
          if (event.type === 'DELETED') next.delete(keyName(event.object));
          else if (event.type === 'ADDED' || event.type === 'MODIFIED') next.set(keyName(event.object), event.object);
        },
        onError: (err) => {
          cache = undefined;
          watch = undefined;
          opts.onError?.(err);
          schedule();
        },
      });
      cache = next;
    } catch (err) {
      opts.onError?.(err);
      schedule();
    }
  };

  const schedule = (): void => {
    if (closed) return;
    timer = setTimeout(() => void resync(), opts.retryMs ?? 1000);
    timer.unref();
  };

  void resync();

  return {
    async getNamespace(name) {
      const cached = cache?.get(name);
      if (cached !== undefined) return cached;
      try {
        return await storage.get(`${prefix}${name}`);
      } catch (err) {
        if (isStorageError(err, 'NotFound')) return undefined;
        throw err;
      }
    },
    close() {
      closed = true;
      clearTimeout(timer);
      watch?.close();
    },
  };
}
