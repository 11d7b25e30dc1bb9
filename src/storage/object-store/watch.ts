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
import { decodeObject, deepFreeze, type ObjectCodec } from './codec.js';
import { parseResourceVersion } from './resource-version.js';

/**
 * resourceVersion ""/"0" start from now. kube's "0" means "start from any
 * state", which its watch cache serves from its current snapshot; with no cache
 * below us the freshest state is now, so both mean the same here. Neither sends
 * synthetic ADDED events for existing objects: whoever needs the initial state
 * (the cacher, the watch handler) lists first and watches from the list's RV.
 * Throws BadRequest for a malformed resourceVersion.
 */
/** The objects decoded from one KV event, shared by every watcher it is delivered to. */
export interface DecodedEvent {
  object?: KubeObject;
  previous?: KubeObject;
}

/** Per store: KV event -> its decoded objects, alive as long as the backend keeps the event. */
export type DecodedEvents = WeakMap<KvEvent, DecodedEvent>;

export function watchObjects(
  ctx: { kv: KV; codec: ObjectCodec; decodedEvents?: DecodedEvents },
  prefix: string,
  opts: StorageWatchOptions,
): StorageWatch {
  const rv = parseResourceVersion(opts.resourceVersion);
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
    ...(rv !== undefined && rv > 0 ? { afterRevision: rv } : {}),
    onEvents: (events) => {
      for (const e of events) {
        if (closed) return;
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
      if (!closed) opts.onProgress?.(String(revision));
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
  ctx: { codec: ObjectCodec; decodedEvents?: DecodedEvents },
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
    (decoded[field] ??= deepFreeze(decodeObject(ctx.codec, { key: e.key, value, revision: e.revision })));
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
