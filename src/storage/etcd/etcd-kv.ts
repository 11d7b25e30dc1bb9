// The etcd3 backend of the KV contract (src/storage/kv.ts), for HA deployments:
// every kapi replica talks to the same etcd cluster, which owns the revision.
// Writes are single transactions comparing create_revision (create) or
// mod_revision (put/delete), with the current entry read in the else branch so
// a Conflict costs no extra round trip. Requests go straight to the etcd3 KV
// client (no builders), keeping us within a few percent of raw client calls.
import type { ICompare, IRangeRequest, IRangeResponse, ITxnResponse } from 'etcd3';
import { StorageError } from '../../errors/storage-error.js';
import type {
  KV,
  KvDeleteOptions,
  KvDeleteResult,
  KvEntry,
  KvGetOptions,
  KvListOptions,
  KvListResult,
  KvPutOptions,
  KvWatch,
  KvWatchOptions,
  KvWriteResult,
} from '../kv.js';
import { connectEtcd, type EtcdTlsOptions } from './client.js';
import { startCompactor, type EtcdLogger } from './compactor.js';
import { isCompactedError, isFutureRevisionError } from './errors.js';
import { createKeySpace, toEntry } from './keys.js';
import { startWatch, startWatchAfter } from './watch.js';

export interface EtcdKvOptions {
  /** Client URLs (--etcd-servers); https ones, or `tls`, switch to TLS. */
  readonly endpoints: readonly string[];
  /** Prepended to every key (--etcd-prefix). Default '/registry'. */
  readonly prefix?: string;
  readonly tls?: EtcdTlsOptions;
  /** Periodic compaction interval; 0 disables. Default 5 minutes, as kube-apiserver. */
  readonly compactionIntervalMs?: number;
  /** How long a request waits for a connection before Unavailable. Default 20 s. */
  readonly dialTimeoutMs?: number;
  /**
   * Deadline of each etcd call; default 0, none: like kube-apiserver, a request is
   * bounded by the HTTP request timeout above us, a dead connection by grpc
   * keepalive (30 s + 10 s), and a leaderless etcd answers "request timed out"
   * itself. A per-call grpc deadline also costs a timer on every call.
   */
  readonly requestTimeoutMs?: number;
  /** How often each watch asks etcd for a progress notification; 0 never. Default 1 s. */
  readonly progressIntervalMs?: number;
  /** How long a watch retries a lost stream before Unavailable. Default 60 s. */
  readonly watchReconnectTimeoutMs?: number;
  readonly logger?: EtcdLogger;
}

const stderrLogger: EtcdLogger = {
  warn: (obj, msg) => process.stderr.write(`${JSON.stringify({ level: 'warn', msg, ...serialize(obj) })}\n`),
};

export function openEtcdKv(opts: EtcdKvOptions): KV {
  const conn = connectEtcd({
    endpoints: opts.endpoints,
    ...(opts.tls === undefined ? {} : { tls: opts.tls }),
    dialTimeoutMs: opts.dialTimeoutMs ?? 20_000,
    requestTimeoutMs: opts.requestTimeoutMs ?? 0,
  });
  const { kv } = conn.client;
  const keys = createKeySpace(opts.prefix ?? '/registry');
  // The highest revision known compacted, by us or (learnt from etcd) anyone.
  // The contract says history *at and before* a compacted revision is gone, while
  // etcd keeps the compacted revision itself readable: we refuse it ourselves.
  let compacted = 0;
  // The highest store revision any response has shown us. A watch "from now"
  // starts right after it: every write this client completed before watch() was
  // called is at or below it, and etcd's own "now" (when the watch stream is
  // created) would race with writes issued right after watch() returns.
  let observed = 0;
  const observe = <T extends { header: { revision: string } }>(res: T): T => {
    const revision = Number(res.header.revision);
    if (revision > observed) observed = revision;
    return res;
  };
  // Set while a watch on a fresh client pins "now" with a read: writes wait for
  // it, so a write issued after watch() is always after the watch's start.
  let writeGate: Promise<unknown> | undefined;
  const noteCompacted = (revision: number): void => {
    compacted = Math.max(compacted, revision);
  };

  const interval = opts.compactionIntervalMs ?? 5 * 60_000;
  const compactor =
    interval > 0
      ? startCompactor({ conn, intervalMs: interval, logger: opts.logger ?? stderrLogger, onCompacted: noteCompacted })
      : undefined;

  const currentRevision = async (): Promise<number> => {
    // A count-only range of one key: the cheapest linearizable read carrying a header.
    const res = await conn.run('read', undefined, () => kv.range({ key: keys.full(''), count_only: true }));
    return Number(observe(res).header.revision);
  };

  /**
   * The oldest readable revision. Our own compactions are known; another
   * server's are found by asking etcd: one read at our guess, and if that is
   * compacted, a binary search for the first readable revision.
   */
  const oldestRevision = async (): Promise<number> => {
    const readable = async (revision: number): Promise<boolean> => {
      try {
        await conn.run('read', undefined, () => kv.range({ key: keys.full(''), count_only: true, revision }));
        return true;
      } catch (err) {
        if (isCompactedError(err)) return false;
        throw err;
      }
    };
    let low = compacted + 1;
    const current = await currentRevision();
    if (low >= current || (await readable(low))) return low;
    let high = current; // the current revision is always readable
    while (low + 1 < high) {
      const mid = Math.floor((low + high) / 2);
      if (await readable(mid)) high = mid;
      else low = mid;
    }
    noteCompacted(high - 1);
    return high;
  };

  /** Runs a read at `revision`, turning etcd's revision errors into StorageErrors. */
  const readAt = <T extends { header: { revision: string } }>(
    key: string,
    revision: number,
    fn: () => Promise<T>,
  ): Promise<T> => {
    if (revision > 0 && revision <= compacted) return Promise.reject(compactedError(key, compacted + 1, revision));
    return conn.run('read', key, fn).then(observe, async (err: unknown) => {
      if (isCompactedError(err)) throw compactedError(key, await oldestRevision(), revision);
      if (isFutureRevisionError(err)) {
        throw new StorageError('FutureRevision', `revision ${revision} is newer than the current one`, {
          key,
          revision: await currentRevision(),
          requested: revision,
        });
      }
      throw err;
    });
  };

  const range = (key: string, req: IRangeRequest): Promise<IRangeResponse> =>
    readAt(key, Number(req.revision ?? 0), () => kv.range(req));

  const txn = (key: string, run: () => Promise<ITxnResponse>): Promise<ITxnResponse> =>
    writeGate === undefined
      ? conn.run('write', key, run).then(observe)
      : writeGate.then(() => conn.run('write', key, run)).then(observe);

  const watchDeps = {
    conn,
    keys,
    compactedRevision: () => compacted,
    progressIntervalMs: opts.progressIntervalMs ?? 1000,
    reconnectTimeoutMs: opts.watchReconnectTimeoutMs ?? 60_000,
  };

  /** The entry the else branch of a compare-and-swap read, or NotFound. */
  const failed = (key: string, res: ITxnResponse): StorageError => {
    const kvs = res.responses[0]?.response_range?.kvs ?? [];
    if (kvs.length === 0) return new StorageError('NotFound', `key ${key} not found`, { key });
    return new StorageError('Conflict', `key ${key} was modified`, { key, current: toEntry(keys, kvs[0]!) });
  };

  const openWatch = (prefix: string, watchOpts: KvWatchOptions): KvWatch => {
    if (watchOpts.afterRevision !== undefined) return startWatch(watchDeps, prefix, watchOpts);
    if (observed > 0) return startWatch(watchDeps, prefix, { ...watchOpts, afterRevision: observed });
    const now = currentRevision();
    // Writes wait for every start read still in flight, not only the newest: the
    // reads of watches opened together may come back in any order.
    const mine = now.catch(() => undefined);
    const gate = writeGate === undefined ? mine : Promise.all([writeGate, mine]);
    writeGate = gate;
    void gate.then(() => {
      if (writeGate === gate) writeGate = undefined;
    });
    return startWatchAfter(watchDeps, prefix, watchOpts, now);
  };
  // Open watches, closed with the KV: otherwise they would outlive the client,
  // retrying a closed connection until their reconnect timeout.
  const watches = new Set<KvWatch>();

  return {
    async get(key: string, getOpts: KvGetOptions = {}): Promise<KvEntry | undefined> {
      const res = await range(key, { key: keys.full(key), revision: getOpts.revision ?? 0 });
      const found = res.kvs[0];
      return found === undefined ? undefined : toEntry(keys, found);
    },

    async list(prefix: string, listOpts: KvListOptions = {}): Promise<KvListResult> {
      const { start, end } = keys.range(prefix);
      // One range, however large: the grpc receive limit is lifted in client.ts,
      // and callers that want bounded pages pass `limit` (the registry does).
      const res = await range(prefix, {
        key: listOpts.after === undefined ? start : Buffer.concat([keys.full(listOpts.after), Buffer.from([0])]),
        range_end: end,
        revision: listOpts.revision ?? 0,
        limit: listOpts.limit ?? 0,
      });
      return {
        entries: res.kvs.map((kv) => toEntry(keys, kv)),
        revision: listOpts.revision ? listOpts.revision : Number(res.header.revision),
        more: res.more,
        // etcd counts every key of the range, not only those it returned.
        ...(res.more ? { remaining: Number(res.count) - res.kvs.length } : {}),
      };
    },

    async count(prefix: string): Promise<number> {
      const { start, end } = keys.range(prefix);
      const res = await range(prefix, { key: start, range_end: end, count_only: true });
      return Number(res.count);
    },

    async create(key: string, value: Uint8Array): Promise<KvWriteResult> {
      const full = keys.full(key);
      const res = await txn(key, () =>
        kv.txn({
          compare: [{ key: full, target: 'Create', result: 'Equal', create_revision: 0 }],
          // etcd3 types values as Buffer; its protobuf encoder takes any Uint8Array.
          success: [{ request_put: { key: full, value: value as Buffer } }],
          failure: [{ request_range: { key: full } }],
        }),
      );
      if (res.succeeded) return { revision: Number(res.header.revision) };
      const kvs = res.responses[0]?.response_range?.kvs ?? [];
      throw new StorageError('Exists', `key ${key} already exists`, {
        key,
        ...(kvs[0] === undefined ? {} : { current: toEntry(keys, kvs[0]) }),
      });
    },

    async put(key: string, value: Uint8Array, putOpts: KvPutOptions): Promise<KvWriteResult> {
      const full = keys.full(key);
      const res = await txn(key, () =>
        kv.txn({
          compare: casOn(full, putOpts.expectedRevision),
          success: [{ request_put: { key: full, value: value as Buffer } }],
          failure: [{ request_range: { key: full } }],
        }),
      );
      if (!res.succeeded) throw failed(key, res);
      return { revision: Number(res.header.revision) };
    },

    async delete(key: string, deleteOpts: KvDeleteOptions = {}): Promise<KvDeleteResult> {
      const full = keys.full(key);
      const expected = deleteOpts.expectedRevision;
      const res = await txn(key, () =>
        kv.txn({
          // Unconditional deletes still compare "exists" so the else branch tells
          // NotFound apart without a second request.
          compare:
            expected === undefined
              ? [{ key: full, target: 'Create', result: 'Greater', create_revision: 0 }]
              : casOn(full, expected),
          success: [{ request_delete_range: { key: full, prev_kv: true } }],
          failure: [{ request_range: { key: full } }],
        }),
      );
      if (!res.succeeded) throw failed(key, res);
      const prev = res.responses[0]?.response_delete_range?.prev_kvs[0];
      if (prev === undefined) throw new StorageError('NotFound', `key ${key} not found`, { key });
      return { revision: Number(res.header.revision), previous: toEntry(keys, prev) };
    },

    watch(prefix: string, watchOpts: KvWatchOptions): KvWatch {
      const watch = openWatch(prefix, watchOpts);
      watches.add(watch);
      return {
        close() {
          watches.delete(watch);
          watch.close();
        },
      };
    },

    currentRevision,

    async compact(revision: number): Promise<void> {
      if (revision <= compacted) return;
      try {
        // physical: return only once etcd has removed the history, so a read at a
        // compacted revision fails from the moment this resolves.
        await conn.run('write', undefined, () => kv.compact({ revision, physical: true }));
      } catch (err) {
        if (isFutureRevisionError(err)) {
          throw new StorageError('FutureRevision', `cannot compact to future revision ${revision}`, {
            revision: await currentRevision(),
          });
        }
        // Already compacted further by someone else: the goal is met.
        if (!isCompactedError(err)) throw err;
      }
      noteCompacted(revision);
    },

    oldestRevision,

    async close(): Promise<void> {
      compactor?.stop();
      for (const w of watches) w.close();
      watches.clear();
      conn.close();
    },
  };
}

/** Compares for a write that must see the key at `expected` (and present). */
function casOn(full: Buffer, expected: number): ICompare[] {
  const cas: ICompare = { key: full, target: 'Mod', result: 'Equal', mod_revision: expected };
  // mod_revision of an absent key is 0, so expecting 0 alone would let a put
  // create the key; requiring existence keeps the else branch's NotFound honest.
  if (expected > 0) return [cas];
  return [cas, { key: full, target: 'Create', result: 'Greater', create_revision: 0 }];
}

function compactedError(key: string, oldest: number, requested: number): StorageError {
  return new StorageError('Compacted', `required revision has been compacted (oldest is ${oldest})`, {
    key,
    revision: oldest,
    requested,
  });
}

function serialize(obj: object): object {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = v instanceof Error ? v.message : v;
  return out;
}
