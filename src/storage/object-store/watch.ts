// Watch over kv.watch with kube's etcd3 watcher semantics: objects carry the
// event's revision as resourceVersion, and with a predicate an update that makes
// an object start matching is ADDED and one that makes it stop matching is
// DELETED carrying the previous (last matching) state at the event's revision.
// Backends that hand one event object to every watcher of a prefix (SQLite's watch
// hub, the memory KV) get it decoded once: every watcher then receives the same
// deep-frozen object, and the watch handler frames it once per codec
// (codecs/framing.ts). etcd opens a stream per watcher, so there each watcher still
// decodes its own copy until the watch cache (#11) sits in front.
import { StorageError, isStorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';
import type { KV, KvEvent, KvWatch } from '../kv.js';
import type { ObjectPredicate, StorageWatch, StorageWatchEvent, StorageWatchOptions } from '../storage.js';
import type { DecodedValues } from './decoded.js';
import { parseResourceVersion } from './resource-version.js';

/** The objects decoded from one KV event, shared by every watcher it is delivered to. */
export interface DecodedEvent {
  object?: KubeObject;
  previous?: KubeObject;
}

/** Per store: KV event -> its decoded objects, alive as long as the backend keeps the event. */
export type DecodedEvents = WeakMap<KvEvent, DecodedEvent>;

/**
 * A watch by kube's etcd3 watcher: "N" follows every change after N; ""/"0"
 * first sends the current state (kube: "Get State and Start at Most Recent" and,
 * with no cache below us to serve an older one, "Start at Any" too) as ADDED
 * events read by one list, then every change after that list's revision, so
 * nothing is missed or doubled. sendInitialEvents false skips the state.
 * Throws BadRequest for a malformed resourceVersion.
 */
export function watchObjects(ctx: WatchContext, prefix: string, opts: StorageWatchOptions): StorageWatch {
  const rv = parseResourceVersion(opts.resourceVersion);
  if ((rv !== undefined && rv > 0) || opts.sendInitialEvents === false) {
    return watchChanges(ctx, prefix, rv !== undefined && rv > 0 ? rv : undefined, opts);
  }
  let closed = false;
  let inner: StorageWatch | undefined;
  const fail = (err: unknown): void => {
    if (closed) return;
    closed = true;
    opts.onError(isStorageError(err) ? err : new StorageError('Unavailable', `watch failed: ${String(err)}`, { cause: err }));
  };
  ctx.kv.list(prefix).then((listed) => {
    if (closed) return;
    for (const entry of listed.entries) {
      if (closed) return;
      if (opts.keyFilter !== undefined && !opts.keyFilter(entry.key)) continue;
      const object = ctx.decoded.decode(entry.key, entry.value, entry.modRevision);
      if (opts.predicate === undefined || opts.predicate(object)) opts.onEvent({ type: 'ADDED', object, key: entry.key });
    }
    if (!closed) inner = watchChanges(ctx, prefix, listed.revision, { ...opts, onError: fail });
  }).catch(fail);
  return {
    close() {
      closed = true;
      inner?.close();
    },
  };
}

/** What a watch needs of its store. */
export interface WatchContext {
  readonly kv: KV;
  /** Decodes stored values, sharing the objects of values already decoded or just written. */
  readonly decoded: DecodedValues;
  readonly decodedEvents?: DecodedEvents;
}

/** Every change after `after` (absent: after the current revision). */
function watchChanges(ctx: WatchContext, prefix: string, after: number | undefined, opts: StorageWatchOptions): StorageWatch {
  let closed = false;
  // A backend may report an error while kv.watch() is still running; the
  // handle then does not exist yet and is closed right after it does.
  let kvWatch: KvWatch | undefined;
  const fail = (err: Error): void => {
    if (closed) return;
    closed = true;
    kvWatch?.close();
    opts.onError(err);
  };
  kvWatch = ctx.kv.watch(prefix, {
    ...(after === undefined ? {} : { afterRevision: after }),
    onEvents: (events) => {
      for (const e of events) {
        if (closed) return;
        // A backend asked for changes after a revision it has not reached may
        // deliver from where it is; kube's (etcd's) watch starts after it.
        if (after !== undefined && e.revision <= after) continue;
        if (opts.keyFilter !== undefined && !opts.keyFilter(e.key)) continue;
        let event: StorageWatchEvent | undefined;
        try {
          event = toWatchEvent(ctx, e, opts.predicate);
        } catch (err) {
          fail(isStorageError(err) ? err : new StorageError('InvalidObject', String(err), { key: e.key, cause: err }));
          return;
        }
        if (event !== undefined) opts.onEvent(event);
      }
    },
    onError: (err) => {
      fail(isStorageError(err) ? err : new StorageError('Unavailable', `watch failed: ${err.message}`, { cause: err }));
    },
    onProgress: (revision) => {
      if (!closed && (after === undefined || revision >= after)) opts.onProgress?.(String(revision));
    },
  });
  if (closed) kvWatch.close();
  const handle = kvWatch;
  return {
    close() {
      closed = true;
      handle.close();
    },
  };
}

function toWatchEvent(
  ctx: WatchContext,
  e: KvEvent,
  predicate: ObjectPredicate | undefined,
): StorageWatchEvent | undefined {
  let shared = ctx.decodedEvents?.get(e);
  if (shared === undefined) {
    shared = {};
    ctx.decodedEvents?.set(e, shared);
  }
  const decoded = shared;
  // Both are stamped with the event's revision, so they depend on the event alone.
  const decode = (field: 'object' | 'previous', value: Uint8Array): KubeObject =>
    (decoded[field] ??= ctx.decoded.decode(e.key, value, e.revision));
  const matches = (obj: KubeObject): boolean => predicate === undefined || predicate(obj);
  // For a delete the KV gives the last value, so the object is the last state.
  const obj = decode('object', e.value);
  if (e.type === 'create') return matches(obj) ? { type: 'ADDED', object: obj, key: e.key } : undefined;
  if (e.type === 'delete') return matches(obj) ? { type: 'DELETED', object: obj, key: e.key } : undefined;
  if (predicate === undefined) return { type: 'MODIFIED', object: obj, key: e.key };
  const old = e.previous === undefined ? undefined : decode('previous', e.previous);
  const was = old !== undefined && matches(old);
  const is = matches(obj);
  if (is) return { type: was ? 'MODIFIED' : 'ADDED', object: obj, key: e.key };
  return was ? { type: 'DELETED', object: old, key: e.key } : undefined;
}
