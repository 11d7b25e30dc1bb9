// A collection kept in memory from storage (RBAC's policy index, the Node graph):
// a list, then a watch from the list's
// resourceVersion, as a client-go informer does. A broken watch (compaction, a
// backend restart) re-lists after a delay and swaps the whole map in at once, so
// readers keep deciding from the last good state meanwhile and never see half a
// collection. Objects are the storage's frozen values, shared, never changed.
import type { KubeObject } from '../../schema/object.js';
import type { Storage, StorageWatch } from '../../storage/storage.js';

export interface Mirror {
  /** Resolves once the first list has been applied. */
  readonly synced: Promise<void>;
  close(): void;
}

export interface MirrorOptions {
  readonly storage: Storage;
  /** The collection prefix, ending in "/". */
  readonly prefix: string;
  /** The whole collection, keyed `<namespace>/<name>` ('' namespace for cluster-scoped). */
  readonly onReplace: (objects: ReadonlyMap<string, KubeObject>) => void;
  readonly onUpsert: (key: string, obj: KubeObject) => void;
  readonly onDelete: (key: string, obj: KubeObject) => void;
  readonly onError?: (err: unknown) => void;
  /** Delay before re-listing after a failure. */
  readonly retryMs?: number;
}

export function keyOf(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

export function createMirror(opts: MirrorOptions): Mirror {
  let watch: StorageWatch | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let markSynced: () => void = () => {};
  const synced = new Promise<void>((resolve) => (markSynced = resolve));

  const schedule = (): void => {
    if (closed) return;
    timer = setTimeout(() => void sync(), opts.retryMs ?? 1000);
    timer.unref();
  };

  const sync = async (): Promise<void> => {
    if (closed) return;
    try {
      const list = await opts.storage.list(opts.prefix);
      if (closed) return;
      opts.onReplace(new Map(list.items.map((o) => [keyOf(o), o])));
      markSynced();
      watch = opts.storage.watch(opts.prefix, {
        resourceVersion: list.resourceVersion,
        onEvent: (event) => {
          if (event.type === 'ADDED' || event.type === 'MODIFIED') opts.onUpsert(keyOf(event.object), event.object);
          else if (event.type === 'DELETED') opts.onDelete(keyOf(event.object), event.object);
        },
        onError: (err) => {
          watch = undefined;
          opts.onError?.(err);
          schedule();
        },
      });
    } catch (err) {
      opts.onError?.(err);
      schedule();
    }
  };

  void sync();
  return {
    synced,
    close() {
      closed = true;
      clearTimeout(timer);
      watch?.close();
    },
  };
}
