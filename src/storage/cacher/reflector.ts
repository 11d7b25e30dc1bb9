// Keeps one resource's cache in step with the backend (kube's reflector under the
// cacher): list, then watch from the list's revision; after a watch error, watch
// again from the last revision the cache applied, so no change is lost or applied
// twice; when the backend no longer has that revision (Compacted), list again.
// Retries back off between retryMinMs and retryMaxMs and never give up while open.
import { isStorageError } from '../../errors/storage-error.js';
import type { StorageWatch } from '../storage.js';
import type { CacherConfig } from './options.js';
import type { ResourceCache } from './resource-cache.js';

export interface Reflector {
  close(): void;
}

export interface ReflectorOptions {
  /** The backend cannot tell the keys of what it lists: the resource stays uncached. */
  readonly onUnkeyed: () => void;
}

export function startReflector(cache: ResourceCache, config: CacherConfig, opts: ReflectorOptions): Reflector {
  const backend = config.backend;
  let closed = false;
  let watch: StorageWatch | undefined;
  let timer: NodeJS.Timeout | undefined;
  let backoff = config.retryMinMs;

  const retry = (step: () => void | Promise<void>): void => {
    if (closed) return;
    timer = setTimeout(() => void step(), backoff);
    timer.unref();
    backoff = Math.min(backoff * 2, config.retryMaxMs);
  };

  const list = async (): Promise<void> => {
    if (closed) return;
    try {
      const listed = await backend.list(cache.prefix);
      const keys = listed.keys;
      if (closed) return;
      if (keys === undefined) {
        opts.onUnkeyed();
        return;
      }
      cache.replace(listed.items, keys, Number(listed.resourceVersion));
      backoff = config.retryMinMs;
      watchFrom();
    } catch (err) {
      config.onBackendError(err, cache.prefix);
      retry(list);
    }
  };

  const watchFrom = (): void => {
    if (closed) return;
    watch = backend.watch(cache.prefix, {
      resourceVersion: String(cache.revision),
      // The state came from the list; only changes after it (a store at revision 0 starts from now).
      sendInitialEvents: false,
      // The object store puts each event's key on it; a store that does not cannot be
      // cached (as with a list without keys).
      onEvent: (e) => {
        if (e.key !== undefined) cache.apply(e, e.key);
        else if (!closed) {
          closed = true;
          watch?.close();
          opts.onUnkeyed();
        }
      },
      onProgress: (rv) => cache.progress(Number(rv)),
      onError: (err) => {
        watch = undefined;
        config.onBackendError(err, cache.prefix);
        if (isStorageError(err, 'Compacted')) {
          cache.invalidate();
          retry(list);
        } else {
          retry(watchFrom);
        }
      },
    });
  };

  void list();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      watch?.close();
    },
  };
}
