// One page of a list served from a snapshot: keys under the prefix after the
// continue position, filtered by the predicate until `limit` items, with kube's
// continue token (version + last key) and remainingItemCount, exactly as the
// cacher's GetList pages (storage.PrepareContinueToken).
import type { KubeObject } from '../../schema/object.js';
import { encodeContinue } from '../continue-token.js';
import type { ObjectPredicate, StorageListResult } from '../storage.js';
import { lowerBound, type Snapshot } from './object-index.js';

export interface PageOptions {
  /** Ends in "/". */
  readonly prefix: string;
  /** Start strictly after this key. */
  readonly after?: string;
  /** 0: everything. */
  readonly limit: number;
  readonly predicate?: ObjectPredicate;
}

/** The end of the key range under `prefix` ("/" is followed by "0" in byte order). */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

export function pageOf(snapshot: Snapshot, opts: PageOptions): StorageListResult {
  const { keys, objects } = snapshot;
  let i = lowerBound(keys, opts.prefix);
  if (opts.after !== undefined) {
    let j = lowerBound(keys, opts.after);
    if (j < keys.length && keys[j] === opts.after) j++;
    i = Math.max(i, j);
  }
  const end = lowerBound(keys, prefixEnd(opts.prefix));
  const items: KubeObject[] = [];
  const predicate = opts.predicate;
  let lastKey: string | undefined;
  let more = false;
  // Without a predicate the page is one slice, no per-item work.
  if (predicate === undefined) {
    const stop = opts.limit > 0 ? Math.min(end, i + opts.limit) : end;
    for (let k = i; k < stop; k++) items.push(objects[k]!);
    more = stop < end;
    if (stop > i) lastKey = keys[stop - 1];
    i = stop;
  } else {
    for (; i < end; i++) {
      if (opts.limit > 0 && items.length >= opts.limit) {
        more = true;
        break;
      }
      const obj = objects[i]!;
      if (predicate(obj)) {
        items.push(obj);
        lastKey = keys[i];
      }
    }
  }
  const result: { -readonly [K in keyof StorageListResult]: StorageListResult[K] } = {
    items,
    resourceVersion: String(snapshot.revision),
  };
  if (more && lastKey !== undefined) {
    result.continue = encodeContinue({ prefix: opts.prefix, lastKey, revision: snapshot.revision });
    // A count of keys says nothing about how many of them match a predicate.
    if (predicate === undefined) result.remainingItemCount = end - i;
  }
  return result;
}
