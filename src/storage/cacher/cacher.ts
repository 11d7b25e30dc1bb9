// The watch cache: a Storage that serves get, list and watch of each resource
// from memory (one ResourceCache per resource prefix, fed by reflector.ts) and
// passes every write, and every read the cache cannot answer, to the backend
// Storage it decorates. It satisfies the same contract and conformance suite
// (storage/testing/storage.suite.ts) as the store it wraps. Caches start on the
// first read of their resource and live until close().
import type { KubeObject } from '../../schema/object.js';
import { parseResourceVersion } from '../object-store/resource-version.js';
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
} from '../storage.js';
import { configOf, type CacherConfig, type CacherOptions } from './options.js';
import { getFromCache, listFromCache } from './reads.js';
import { startReflector, type Reflector } from './reflector.js';
import { ResourceCache } from './resource-cache.js';

export type { CacherOptions } from './options.js';

/** A Storage served from the watch cache, plus what operators and tests may ask of the cache. */
export interface CachingStorage extends Storage {
  /**
   * Forgets history at and before `revision` in every cache, as the window
   * passing it would (and as the backend's compaction does to its own): watches
   * and Exact or continued lists from there are then 410.
   */
  forgetHistoryThrough(revision: number): void;
  /** Resolves once the cache of `prefix`'s resource holds its first list (starting it if needed). */
  whenReady(prefix: string): Promise<void>;
}

interface Entry {
  readonly cache: ResourceCache;
  readonly reflector: Reflector;
  /** The backend cannot report keys for this resource: it is served by the backend. */
  uncached: boolean;
  readonly progressTimer: NodeJS.Timeout;
}

export function createCacher(opts: CacherOptions): CachingStorage {
  return new Cacher(configOf(opts));
}

class Cacher implements CachingStorage {
  private readonly entries = new Map<string, Entry>();
  private readonly backend: Storage;
  private closed = false;

  constructor(private readonly config: CacherConfig) {
    this.backend = config.backend;
  }

  /** The cache serving `key`, started on first use; undefined when the backend must answer. */
  private cacheFor(key: string): ResourceCache | undefined {
    if (this.closed) return undefined;
    const prefix = this.config.resourcePrefix(key);
    if (prefix === undefined || !key.startsWith(prefix.slice(0, -1))) return undefined;
    let entry = this.entries.get(prefix);
    if (entry === undefined) {
      const cache = new ResourceCache(prefix, this.config);
      const progressTimer = setInterval(() => cache.tellProgress(), this.config.progressIntervalMs);
      progressTimer.unref();
      const created: Entry = {
        cache,
        uncached: false,
        progressTimer,
        reflector: startReflector(cache, this.config, {
          onUnkeyed: () => {
            created.uncached = true;
            cache.close();
          },
        }),
      };
      entry = created;
      this.entries.set(prefix, entry);
    }
    return entry.uncached ? undefined : entry.cache;
  }

  create(key: string, obj: KubeObject): Promise<KubeObject> {
    return this.backend.create(key, obj);
  }

  async get(key: string, opts: StorageGetOptions = {}): Promise<KubeObject> {
    // "unset" and Exact read the backend: no need to start a cache for them.
    const rv = parseResourceVersion(opts.resourceVersion);
    if (rv === undefined || (opts.resourceVersionMatch === 'Exact' && rv > 0)) return this.backend.get(key, opts);
    const cache = this.cacheFor(key);
    return cache === undefined ? this.backend.get(key, opts) : getFromCache(cache, this.config, key, opts);
  }

  async list(prefix: string, opts: StorageListOptions = {}): Promise<StorageListResult> {
    const cache = this.cacheFor(prefix);
    if (cache === undefined) return this.backend.list(prefix, opts);
    return listFromCache(cache, this.config, prefix, opts);
  }

  /**
   * As kube's Cacher: the write starts from the cache's copy of the object
   * (cachedExisting), so its first attempt reads nothing from the backend; the
   * backend store treats the copy as possibly stale. A caller's own hint is
   * replaced, or dropped when the cache has no copy.
   */
  guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions): Promise<GuaranteedUpdateResult> {
    const { cachedExisting: _caller, ...rest } = opts;
    const cachedExisting = this.cachedObject(key);
    return this.backend.guaranteedUpdate(key, cachedExisting === undefined ? rest : { ...rest, cachedExisting });
  }

  delete(key: string, opts: StorageDeleteOptions = {}): Promise<KubeObject> {
    const { cachedExisting: _caller, ...rest } = opts;
    const cachedExisting = this.cachedObject(key);
    return this.backend.delete(key, cachedExisting === undefined ? rest : { ...rest, cachedExisting });
  }

  /**
   * The cache's copy of `key`'s object, when its resource's cache is ready and
   * has one. A write does not start a cache: only reads do.
   */
  private cachedObject(key: string): KubeObject | undefined {
    if (this.closed) return undefined;
    const prefix = this.config.resourcePrefix(key);
    const entry = prefix === undefined ? undefined : this.entries.get(prefix);
    if (entry === undefined || entry.uncached || !entry.cache.ready || entry.cache.isClosed) return undefined;
    return entry.cache.index.get(key);
  }

  /**
   * kube's watch table, from the cache: "0" sends the cache's state as ADDED
   * ("Start at Any"), "N" replays history after N (Compacted through onError when
   * N left the window); both start once the cache is ready. "" is the state at the
   * backend's current revision or later (watchMostRecent). sendInitialEvents false
   * skips the state.
   */
  watch(prefix: string, opts: StorageWatchOptions): StorageWatch {
    const rv = parseResourceVersion(opts.resourceVersion);
    const withState = (rv === undefined || rv === 0) && opts.sendInitialEvents !== false;
    const cache = this.cacheFor(prefix);
    if (cache === undefined) return this.backend.watch(prefix, opts);
    if (rv === undefined) return this.watchMostRecent(prefix, withState, opts);
    const start = rv > 0 ? rv : withState ? 'state' : undefined;
    if (cache.ready) return cache.watch(prefix, start, opts);
    let inner: StorageWatch | undefined;
    let closed = false;
    void cache.whenReady().then(() => {
      if (closed || this.closed) return;
      const again = this.cacheFor(prefix);
      inner = again === undefined ? this.backend.watch(prefix, opts) : again.watch(prefix, start, opts);
    });
    return {
      close() {
        closed = true;
        inner?.close();
      },
    };
  }

  /**
   * A watch without a resourceVersion starts at the backend's current revision
   * (kube's "Most Recent"), not at whatever the cache has reached: once the cache
   * has that revision it serves the watch (its state then, or its changes after
   * that revision), else (etcd reports progress only now and then) the backend does.
   */
  private watchMostRecent(prefix: string, withState: boolean, opts: StorageWatchOptions): StorageWatch {
    let inner: StorageWatch | undefined;
    let closed = false;
    if (!this.config.consistentReadsFromCache) return this.backend.watch(prefix, opts);
    const start = async (): Promise<void> => {
      const current = Number(await this.backend.currentResourceVersion());
      const cache = this.cacheFor(prefix);
      // A cache still making its first list gets as long as a fresh read would.
      const bound = cache?.ready === true ? this.config.consistentReadTimeoutMs : this.config.freshnessTimeoutMs;
      const fresh = cache !== undefined && (await cache.waitFresh(current, bound));
      if (closed || this.closed) return;
      if (fresh && cache !== undefined) inner = cache.watch(prefix, withState ? 'state' : current, opts);
      else inner = this.backend.watch(prefix, withState ? opts : { ...opts, resourceVersion: String(current) });
    };
    start().catch((err: unknown) => {
      if (!closed) opts.onError(err instanceof Error ? err : new Error(String(err)));
    });
    return {
      close() {
        closed = true;
        inner?.close();
      },
    };
  }

  count(prefix: string): Promise<number> {
    return this.backend.count(prefix);
  }

  currentResourceVersion(): Promise<string> {
    return this.backend.currentResourceVersion();
  }

  ping(): Promise<void> {
    return this.backend.ping();
  }

  forgetHistoryThrough(revision: number): void {
    for (const entry of this.entries.values()) entry.cache.forgetThrough(revision);
  }

  async whenReady(prefix: string): Promise<void> {
    await this.cacheFor(prefix)?.whenReady();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.entries.values()) {
      clearInterval(entry.progressTimer);
      entry.reflector.close();
      entry.cache.close();
    }
    this.entries.clear();
    await this.backend.close();
  }
}
