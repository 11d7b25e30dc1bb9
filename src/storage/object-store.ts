// The one Storage implementation, over any KV (sqlite/, etcd/, memory/). The
// registry calls it; it turns objects into bytes and revisions into
// resourceVersions, and carries kube's etcd3 store semantics (store.go): read
// revisions, paging, preconditions, the guaranteed-update loop, watch predicate
// transitions. Each verb lives in object-store/ so this file is only the wiring.
import { StorageError } from '../errors/storage-error.js';
import type { KubeObject } from '../schema/object.js';
import type { KV } from './kv.js';
import { encodeForStorage, jsonObjectCodec, type ObjectCodec } from './object-store/codec.js';
import { DecodedValues } from './object-store/decoded.js';
import { asPrefix, listObjects } from './object-store/list.js';
import { ensureReached, parseResourceVersion } from './object-store/resource-version.js';
import { deleteObject, guaranteedUpdate, notFound } from './object-store/update.js';
import { watchObjects, type DecodedEvents } from './object-store/watch.js';
import type {
  GuaranteedUpdateOptions,
  GuaranteedUpdateResult,
  Storage,
  StorageDeleteOptions,
  StorageGetOptions,
  StorageListOptions,
  StorageListResult,
  StorageWatch,
  StorageWatchOptions,
} from './storage.js';

export { jsonObjectCodec, type ObjectCodec } from './object-store/codec.js';

export interface ObjectStoreOptions {
  readonly kv: KV;
  /** Stored bytes <-> objects; JSON by default. */
  readonly codec?: ObjectCodec;
  /**
   * close() also closes the KV (default true: the composition root hands each
   * KV to one store). Pass false when several stores share one KV.
   */
  readonly ownsKv?: boolean;
}

export function createObjectStore(opts: ObjectStoreOptions): Storage {
  return new ObjectStore(opts.kv, opts.codec ?? jsonObjectCodec, opts.ownsKv ?? true);
}

class ObjectStore implements Storage {
  private readonly watches = new Set<StorageWatch>();
  /** What the per-verb modules need: one decoded object per stored value, one decode per event for every watcher. */
  private readonly ctx: { readonly kv: KV; readonly codec: ObjectCodec; readonly decoded: DecodedValues; readonly decodedEvents: DecodedEvents };

  constructor(
    private readonly kv: KV,
    private readonly codec: ObjectCodec,
    private readonly ownsKv: boolean,
  ) {
    this.ctx = { kv, codec, decoded: new DecodedValues(codec), decodedEvents: new WeakMap() };
  }

  async create(key: string, obj: KubeObject): Promise<KubeObject> {
    // kube's store refuses this rather than ignoring it: the caller has a bug
    // (the registry clears resourceVersion before create).
    const rv = obj.metadata?.resourceVersion;
    if (rv !== undefined && rv !== '' && rv !== '0') {
      throw new StorageError('InvalidObject', 'resourceVersion should not be set on objects to be created', { key });
    }
    // The bytes just stored are this object: answer it with its revision rather
    // than decoding them again, and let its watch event find it the same way.
    return this.ctx.decoded.write(key, obj, encodeForStorage(this.codec, obj), (value) => this.kv.create(key, value));
  }

  async get(key: string, opts: StorageGetOptions = {}): Promise<KubeObject> {
    const rv = parseResourceVersion(opts.resourceVersion);
    const exact = opts.resourceVersionMatch === 'Exact' && rv !== undefined && rv > 0;
    // NotOlderThan: check the store reached N before reading, so the read that
    // follows is at least N (revisions only grow).
    if (!exact && rv !== undefined && rv > 0) await ensureReached(this.kv, rv);
    const entry = await this.kv.get(key, exact ? { revision: rv } : {});
    if (entry === undefined) throw notFound(key);
    return this.ctx.decoded.decode(key, entry.value, entry.modRevision);
  }

  list(prefix: string, opts: StorageListOptions = {}): Promise<StorageListResult> {
    return listObjects(this.ctx, prefix, opts);
  }

  guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions): Promise<GuaranteedUpdateResult> {
    return guaranteedUpdate(this.ctx, key, opts);
  }

  delete(key: string, opts: StorageDeleteOptions = {}): Promise<KubeObject> {
    return deleteObject(this.ctx, key, opts);
  }

  /**
   * `prefix` is used as given (no "/" appended, unlike list) so the registry can
   * watch one object by its key; keys extending it (".../a" and ".../ab") match
   * too, so such a watch also carries a name predicate, as kube's does.
   */
  watch(prefix: string, opts: StorageWatchOptions): StorageWatch {
    // Tracked so close() can end it; a backend may fail the watch while it is
    // still being set up, so the handle exists before the inner watch does.
    let inner: StorageWatch | undefined;
    let ended = false;
    const handle: StorageWatch = {
      close: () => {
        ended = true;
        this.watches.delete(handle);
        inner?.close();
      },
    };
    this.watches.add(handle);
    inner = watchObjects(this.ctx, prefix, {
      ...opts,
      onError: (err) => {
        ended = true;
        this.watches.delete(handle);
        opts.onError(err);
      },
    });
    if (ended) inner.close();
    return handle;
  }

  count(prefix: string): Promise<number> {
    return this.kv.count(asPrefix(prefix));
  }

  async currentResourceVersion(): Promise<string> {
    return String(await this.kv.currentRevision());
  }

  async ping(): Promise<void> {
    try {
      await this.kv.currentRevision();
    } catch (err) {
      throw new StorageError('Unavailable', `storage backend unavailable: ${String(err)}`, { cause: err });
    }
  }

  async close(): Promise<void> {
    for (const w of [...this.watches]) w.close();
    if (this.ownsKv) await this.kv.close();
  }
}
