// List with kube's etcd3 store semantics (store.go GetList): which revision to
// read at, paging with continue tokens pinned to the first page's revision, and
// predicate filtering that keeps reading until `limit` matches are collected.
import { StorageError, isStorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';
import { decodeContinue, encodeContinue } from '../continue-token.js';
import type { KV, KvListResult } from '../kv.js';
import type { StorageListOptions, StorageListResult } from '../storage.js';
import { decodeObject, type ObjectCodec } from './codec.js';
import { parseResourceVersion, tooLarge } from './resource-version.js';

/** kube's cap on how far a predicate list grows its page size while filtering. */
const MAX_PAGE = 10_000;

interface ReadPlan {
  /** Revision to read at; undefined: latest. */
  readonly revision: number | undefined;
  /** The latest read must have reached this revision (NotOlderThan). */
  readonly minimum: number | undefined;
  /** Read keys strictly after this one. */
  readonly after: string | undefined;
}

/** Kube appends the "/" too, so listing /pods/ns never includes /pods/ns2. */
export function asPrefix(key: string): string {
  return key.endsWith('/') ? key : key + '/';
}

function planRead(prefix: string, opts: StorageListOptions, limit: number): ReadPlan {
  const rv = parseResourceVersion(opts.resourceVersion);
  if (opts.continue !== undefined && opts.continue !== '') {
    if (rv !== undefined && rv !== 0) {
      throw new StorageError('BadRequest', 'specifying resource version is not allowed when using continue');
    }
    const pos = decodeContinue(opts.continue, prefix);
    // A negative token revision is kube's "inconsistent continuation": latest.
    return { revision: pos.revision > 0 ? pos.revision : undefined, minimum: undefined, after: pos.after };
  }
  if (rv === undefined || rv === 0) return { revision: undefined, minimum: undefined, after: undefined };
  // Unset match with a limit is the legacy "exact" paging start kube still honours.
  const exact = opts.resourceVersionMatch === 'Exact' || (opts.resourceVersionMatch === undefined && limit > 0);
  return exact
    ? { revision: rv, minimum: undefined, after: undefined }
    : { revision: undefined, minimum: rv, after: undefined };
}

export async function listObjects(
  ctx: { kv: KV; codec: ObjectCodec },
  key: string,
  opts: StorageListOptions,
): Promise<StorageListResult> {
  const prefix = asPrefix(key);
  const limit = opts.limit !== undefined && opts.limit > 0 ? Math.floor(opts.limit) : 0;
  const plan = planRead(prefix, opts, limit);
  const continuing = opts.continue !== undefined && opts.continue !== '';
  const predicate = opts.predicate;
  const items: KubeObject[] = [];
  const keys: string[] = [];
  let revision = plan.revision;
  let after = plan.after;
  let pageSize = limit;
  let lastKey: string | undefined;
  let page: KvListResult;
  let more = false;
  for (;;) {
    page = await readPage(ctx.kv, prefix, { revision, limit: pageSize, after }, continuing);
    if (revision === undefined && plan.minimum !== undefined && page.revision < plan.minimum) {
      throw tooLarge(plan.minimum, page.revision);
    }
    // Every further page reads at the first page's revision: one consistent snapshot.
    revision = page.revision;
    let full = false;
    for (const entry of page.entries) {
      if (limit > 0 && items.length >= limit) {
        full = true;
        break;
      }
      lastKey = entry.key;
      const obj = decodeObject(ctx.codec, { key: entry.key, value: entry.value, revision: entry.modRevision });
      if (predicate === undefined || predicate(obj)) {
        items.push(obj);
        keys.push(entry.key);
      }
    }
    if (full || (page.more && limit > 0 && items.length >= limit)) {
      more = true;
      break;
    }
    if (!page.more || page.entries.length === 0) break;
    after = lastKey;
    pageSize = limit === 0 ? 0 : Math.min(pageSize * 2, MAX_PAGE);
  }
  const result: { -readonly [K in keyof StorageListResult]: StorageListResult[K] } = {
    items,
    resourceVersion: String(revision),
    keys,
  };
  if (more && lastKey !== undefined) {
    result.continue = encodeContinue({ prefix, lastKey, revision });
    // A count of keys says nothing about how many of them match a predicate.
    if (predicate === undefined && page.remaining !== undefined) result.remainingItemCount = page.remaining;
  }
  return result;
}

async function readPage(
  kv: KV,
  prefix: string,
  opts: { revision: number | undefined; limit: number; after: string | undefined },
  continuing: boolean,
): Promise<KvListResult> {
  try {
    return await kv.list(prefix, opts);
  } catch (err) {
    // kube words an expired continue token differently from an expired list RV;
    // the registry adds the 410 details, we keep the message it expects.
    if (continuing && isStorageError(err, 'Compacted')) {
      throw new StorageError(
        'Compacted',
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
        { revision: err.revision, ...(err.requested === undefined ? {} : { requested: err.requested }), cause: err },
      );
    }
    throw err;
  }
}
