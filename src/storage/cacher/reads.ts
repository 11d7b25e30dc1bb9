// get and list by the resourceVersion tables of the API concepts page
// ("Semantics for get and list"), as kube-apiserver's cache delegator decides:
//   unset            Most recent: the backend's current revision, then wait for
//                    the cache to reach it and serve from memory (a backend read
//                    when it does not in time); get goes to the backend.
//   "0"              Any: from memory at once.
//   N (NotOlderThan) from memory once the cache reached N; 504 Too large
//                    resource version when it does not within the bound.
//   N Exact, or N with a limit and no match (legacy), and continue tokens:
//                    a snapshot at N (kept 75 s, or rebuilt from history), else
//                    the backend, which answers 410 when it no longer has N.
import { StorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';
import { decodeContinue } from '../continue-token.js';
import { asPrefix } from '../object-store/list.js';
import { parseResourceVersion, tooLarge } from '../object-store/resource-version.js';
import { notFound } from '../object-store/update.js';
import type { StorageGetOptions, StorageListOptions, StorageListResult } from '../storage.js';
import { pageOf } from './list-snapshot.js';
import type { Snapshot } from './object-index.js';
import type { CacherConfig } from './options.js';
import type { ResourceCache } from './resource-cache.js';

/** How long consistent reads skip a cache after it missed one. */
const CONSISTENT_MISS_BACKOFF_MS = 5_000;

export async function getFromCache(cache: ResourceCache, config: CacherConfig, key: string, opts: StorageGetOptions): Promise<KubeObject> {
  const rv = parseResourceVersion(opts.resourceVersion);
  // Most recent and Exact gets read the backend, as kube's delegator does for gets.
  if (rv === undefined || (opts.resourceVersionMatch === 'Exact' && rv > 0)) return config.backend.get(key, opts);
  if (rv === 0) {
    if (!cache.ready) return config.backend.get(key, opts);
  } else if (!(await cache.waitFresh(rv, config.freshnessTimeoutMs))) {
    if (cache.isClosed) return config.backend.get(key, opts);
    throw tooLarge(rv, cache.revision);
  }
  const obj = cache.index.get(key);
  if (obj === undefined) throw notFound(key);
  return obj;
}

export async function listFromCache(cache: ResourceCache, config: CacherConfig, key: string, opts: StorageListOptions): Promise<StorageListResult> {
  const prefix = asPrefix(key);
  const rv = parseResourceVersion(opts.resourceVersion);
  const limit = opts.limit !== undefined && opts.limit > 0 ? Math.floor(opts.limit) : 0;
  const page = (snapshot: Snapshot, after?: string): StorageListResult => {
    const result = pageOf(snapshot, { prefix, limit, ...(after === undefined ? {} : { after }), ...(opts.predicate ? { predicate: opts.predicate } : {}) });
    // A page that hands out a token keeps its snapshot so the next pages read the same state.
    if (result.continue !== undefined) cache.snapshots.keep(snapshot);
    return result;
  };
  const atOrBackend = (revision: number, after?: string): Promise<StorageListResult> | StorageListResult => {
    const snapshot = cache.ready ? cache.snapshots.at(revision, cache.index, cache.history) : undefined;
    return snapshot === undefined ? config.backend.list(key, opts) : page(snapshot, after);
  };

  if (opts.continue !== undefined && opts.continue !== '') {
    if (rv !== undefined && rv !== 0) {
      throw new StorageError('BadRequest', 'specifying resource version is not allowed when using continue');
    }
    const pos = decodeContinue(opts.continue, prefix);
    // A negative token revision is kube's "inconsistent continuation": the backend's latest.
    return pos.revision > 0 ? atOrBackend(pos.revision, pos.after) : config.backend.list(key, opts);
  }
  if (rv !== undefined && rv > 0 && (opts.resourceVersionMatch === 'Exact' || (opts.resourceVersionMatch === undefined && limit > 0))) {
    return atOrBackend(rv);
  }
  if (rv === undefined) {
    if (!config.consistentReadsFromCache) return config.backend.list(key, opts);
    // A cache that just missed a consistent read (its backend reports progress
    // only now and then, as etcd does every second) sends the next ones straight
    // to the backend for a while rather than making each wait the bound again.
    if (cache.ready && config.clock() - cache.consistentMissAt < CONSISTENT_MISS_BACKOFF_MS) return config.backend.list(key, opts);
    // Before the first list is in, wait as long as a fresh read may, so a resource's
    // first list after start-up is served (and watched) from the cache too.
    const current = Number(await config.backend.currentResourceVersion());
    const bound = cache.ready ? config.consistentReadTimeoutMs : config.freshnessTimeoutMs;
    if (!(await cache.waitFresh(current, bound))) {
      cache.consistentMissAt = config.clock();
      return config.backend.list(key, opts);
    }
  } else if (rv === 0) {
    if (!cache.ready) return config.backend.list(key, opts);
  } else if (!(await cache.waitFresh(rv, config.freshnessTimeoutMs))) {
    if (cache.isClosed) return config.backend.list(key, opts);
    throw tooLarge(rv, cache.revision);
  }
  return page(cache.index.snapshot());
}
