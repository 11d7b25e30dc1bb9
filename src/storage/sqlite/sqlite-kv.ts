// The embedded SQLite KV backend (the default, one process, one file in the data
// dir). It implements kv.ts and nothing above it: schema.ts holds the layout
// (current-state table + bounded event log), writer.ts the group commit,
// reads.ts reads at any readable revision, watch-hub.ts pushes committed changes
// to watchers, compactor.ts bounds the log and the file. All state lives on the
// one thread that owns the connection, so every operation is atomic w.r.t. the
// others without locks.
import type Database from 'better-sqlite3';
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
import { StorageError } from '../../errors/storage-error.js';
import { openDatabase, readPersistedState, type Synchronous } from './schema.js';
import { prepareStatements } from './statements.js';
import { readCount, readGet, readList } from './reads.js';
import { assertOpen, type RevisionState } from './state.js';
import { GroupCommitWriter } from './writer.js';
import { WatchHub } from './watch-hub.js';
import { Compactor, type CompactionOptions } from './compactor.js';
import { LatestCache } from './latest-cache.js';

export type { CompactionOptions } from './compactor.js';
export type { Synchronous } from './schema.js';

export interface SqliteKvOptions {
  /** A file path, or ':memory:' for a private in-memory database. */
  readonly path: string;
  /** Default FULL; see schema.ts and docs/storage.md for what NORMAL gives up. */
  readonly synchronous?: Synchronous;
  readonly compaction?: CompactionOptions;
  /** Milliseconds; only compaction's retention reads it. Default Date.now. */
  readonly clock?: () => number;
  /** Bytes of recently read latest values kept in memory (latest-cache.ts); 0 turns it off. Default 16 MiB. */
  readonly latestCacheBytes?: number;
}

const DEFAULT_LATEST_CACHE_BYTES = 16 * 1024 * 1024;

export interface SqliteKvStats {
  readonly revision: number;
  readonly compactedRevision: number;
  readonly logRows: number;
  readonly keys: number;
  readonly commits: number;
  readonly writes: number;
  readonly largestBatch: number;
  readonly watchers: number;
  /** Keys whose latest entry is held in memory (latest-cache.ts). */
  readonly cachedKeys: number;
  readonly pageCount: number;
  readonly freePages: number;
}

/** The KV plus the maintenance hooks tests, benches and shutdown use. */
export interface SqliteKv extends KV {
  stats(): SqliteKvStats;
  /** One background compaction round now (retention rules apply), then its purge. */
  runCompaction(): void;
  /** Checkpoints the WAL into the database file and truncates the WAL. */
  checkpoint(): void;
}

export function openSqliteKv(opts: SqliteKvOptions): SqliteKv {
  const db = openDatabase({ path: opts.path, synchronous: opts.synchronous ?? 'FULL' });
  const persisted = readPersistedState(db);
  const state: RevisionState = { ...persisted, closed: false };
  const st = prepareStatements(db);
  const hub = new WatchHub({ st, state });
  const latest = new LatestCache(opts.latestCacheBytes ?? DEFAULT_LATEST_CACHE_BYTES);
  const writer = new GroupCommitWriter({
    db,
    st,
    state,
    onCommit: (events, rev) => {
      latest.apply(events);
      hub.publish(events, rev);
    },
    wantsPrevious: (key) => hub.covers(key),
  });
  const compactor = new Compactor({ db, st, state, clock: opts.clock ?? Date.now, compaction: opts.compaction ?? {} });
  compactor.start();

  const write = async <R>(op: Parameters<GroupCommitWriter['submit']>[0]): Promise<R> => {
    assertOpen(state);
    return (await writer.submit(op)) as R;
  };

  return {
    async get(key: string, o?: KvGetOptions): Promise<KvEntry | undefined> {
      assertOpen(state);
      const revision = o?.revision;
      if (revision !== undefined && revision !== 0) return readGet(st, state, key, revision);
      const cached = latest.get(key);
      if (cached !== undefined) return cached;
      const entry = readGet(st, state, key);
      if (entry !== undefined) latest.remember(entry);
      return entry;
    },
    async list(prefix: string, o?: KvListOptions): Promise<KvListResult> {
      assertOpen(state);
      return readList(st, state, prefix, o);
    },
    async count(prefix: string): Promise<number> {
      assertOpen(state);
      return readCount(st, prefix);
    },
    create: (key: string, value: Uint8Array) => write<KvWriteResult>({ kind: 'create', key, value }),
    put: (key: string, value: Uint8Array, o: KvPutOptions) =>
      write<KvWriteResult>({ kind: 'put', key, value, expectedRevision: o.expectedRevision }),
    delete: (key: string, o?: KvDeleteOptions) =>
      write<KvDeleteResult>({ kind: 'delete', key, expectedRevision: o?.expectedRevision }),
    watch(prefix: string, o: KvWatchOptions): KvWatch {
      assertOpen(state);
      return hub.watch(prefix, o);
    },
    async currentRevision(): Promise<number> {
      assertOpen(state);
      return state.revision;
    },
    async compact(revision: number): Promise<void> {
      assertOpen(state);
      if (revision > state.revision) {
        throw new StorageError('FutureRevision', `cannot compact to ${revision}, current is ${state.revision}`, {
          revision: state.revision,
        });
      }
      if (revision > state.compacted) compactor.compactTo(revision);
    },
    async oldestRevision(): Promise<number> {
      assertOpen(state);
      return state.compacted + 1;
    },
    async close(): Promise<void> {
      if (state.closed) return;
      // Writes already handed to us were promised a commit: commit them first.
      writer.flush();
      state.closed = true;
      compactor.stop();
      hub.closeAll();
      latest.clear();
      db.close();
    },
    stats: () => statsOf(db, state, writer, hub, latest),
    runCompaction(): void {
      assertOpen(state);
      compactor.tick();
      compactor.finish();
    },
    checkpoint(): void {
      assertOpen(state);
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
  };
}

function statsOf(db: Database.Database, state: RevisionState, writer: GroupCommitWriter, hub: WatchHub, latest: LatestCache): SqliteKvStats {
  assertOpen(state);
  const one = (sql: string): number => (db.prepare(sql).get() as { n: number }).n;
  return {
    revision: state.revision,
    compactedRevision: state.compacted,
    logRows: one('SELECT count(*) AS n FROM log'),
    keys: one('SELECT count(*) AS n FROM kv WHERE deleted = 0'),
    commits: writer.stats.commits,
    writes: writer.stats.writes,
    largestBatch: writer.stats.largestBatch,
    watchers: hub.size,
    cachedKeys: latest.size,
    pageCount: db.pragma('page_count', { simple: true }) as number,
    freePages: db.pragma('freelist_count', { simple: true }) as number,
  };
}
