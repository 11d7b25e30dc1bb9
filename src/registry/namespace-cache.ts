// Admission reads namespaces on every namespaced write (NamespaceLifecycle). Like
// kube-apiserver's namespace informer, they are served from memory, so a create
// costs no extra storage read:
// - over the watch cache (--watch-cache, the default), by a get with
//   resourceVersion "0" ("Any"), which the cache answers from the namespaces it
//   already holds; keeping a second copy here would duplicate its list and watch;
// - without it, from a map of our own, fed by a list and a watch of the
//   namespaces prefix; a broken watch drops the map until a fresh list and watch
//   replace it.
// A miss falls back to a consistent read (a namespace created a moment ago may not
// have arrived yet, as kube's lifecycle plugin also re-checks live).
import type { AdmissionLookup } from '../admission/plugin.js';
import { isStorageError } from '../errors/storage-error.js';
import type { KubeObject } from '../schema/object.js';
import type { Storage, StorageWatch } from '../storage/storage.js';

export interface NamespaceCache extends AdmissionLookup {
  close(): void;
}

export interface NamespaceCacheOptions {
  readonly storage: Storage;
  /** The namespaces collection prefix, ending in "/". */
  readonly prefix: string;
  /** `storage` is the watch cache (storage/cacher/): read through it instead of keeping a map. */
  readonly watchCache?: boolean;
  /** Delay before re-listing after the watch broke (own map only). */
  readonly retryMs?: number;
  readonly onError?: (err: unknown) => void;
}

async function unlessNotFound(read: Promise<KubeObject>): Promise<KubeObject | undefined> {
  try {
    return await read;
  } catch (err) {
    if (isStorageError(err, 'NotFound')) return undefined;
    throw err;
  }
}

export function createNamespaceCache(opts: NamespaceCacheOptions): NamespaceCache {
  const { storage, prefix } = opts;
  const live = (name: string): Promise<KubeObject | undefined> => unlessNotFound(storage.get(`${prefix}${name}`));
  if (opts.watchCache === true) {
    return {
      async getNamespace(name) {
        return (await unlessNotFound(storage.get(`${prefix}${name}`, { resourceVersion: '0' }))) ?? live(name);
      },
      close() {},
    };
  }

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
      return cache?.get(name) ?? live(name);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      watch?.close();
    },
  };
}
