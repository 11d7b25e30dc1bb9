// The on-disk layout of the SQLite backend. Two tables, not kine's single log:
// `kv` is the current state of each key (create and mod revision; latest reads,
// lists and counts walk its key order no matter how long the history is), `log`
// is the bounded event history (one row per revision) that serves watches from
// a revision and reads at a recent revision.
//
// Each value is stored once, in the log row of the revision that wrote it: `kv`
// points at it through mod_revision (the log's primary key), and an update's
// replaced value is the log row at its prev_revision. So an update dirties two
// pages per commit (its kv row, the appended log row) where a copy of the value
// in `kv` plus a (key, revision) log index cost three or more; see
// docs/storage.md for the measurements. Without that index, reads at an older
// revision follow prev_revision back from the current row (reads.ts), which is
// why a delete leaves a tombstone in `kv` until compaction drops its log row.
//
// The global revision is not a separate counter row that every write would have
// to rewrite: it is max(log.revision), or the compacted revision when that is
// higher, both persisted by the same commit as the write.
import Database from 'better-sqlite3';
import { StorageError } from '../../errors/storage-error.js';

export type Synchronous = 'FULL' | 'NORMAL';

/** Log row types; stored as small integers to keep the log narrow. */
export const EVENT_CREATE = 0;
export const EVENT_UPDATE = 1;
export const EVENT_DELETE = 2;
export type EventCode = typeof EVENT_CREATE | typeof EVENT_UPDATE | typeof EVENT_DELETE;

/**
 * Revisions start above 1 like etcd's, so no object ever carries
 * resourceVersion "0", which Kubernetes reads as "any".
 */
export const INITIAL_REVISION = 1;

/** PRAGMA user_version of this layout; files of the older layout (value in kv) are refused. */
const LAYOUT_VERSION = 2;

// kv is WITHOUT ROWID: the key is the b-tree key, so a create dirties one page,
// not a table page plus a separate primary-key index page.
// log: `value` is NULL for deletes (the deleted value is the row at
// prev_revision). For an update or delete prev_revision is the mod revision it
// replaced; for a create it is the revision of the tombstone it replaced, or 0.
// Columns are ordered so the fixed-size ones are decoded before the value.
const DDL = `
CREATE TABLE IF NOT EXISTS meta (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS kv (
  key             TEXT PRIMARY KEY,
  create_revision INTEGER NOT NULL,
  mod_revision    INTEGER NOT NULL,
  deleted         INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS log (
  revision        INTEGER PRIMARY KEY,
  key             TEXT NOT NULL,
  type            INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision   INTEGER NOT NULL,
  value           BLOB
);
INSERT OR IGNORE INTO meta (name, value) VALUES ('compacted', 0);
INSERT OR IGNORE INTO meta (name, value) VALUES ('purged', 0);
PRAGMA user_version = ${LAYOUT_VERSION};
`;

export interface OpenDatabaseOptions {
  readonly path: string;
  readonly synchronous: Synchronous;
}

export interface PersistedState {
  readonly revision: number;
  readonly compacted: number;
  /** Compaction has finished deleting the log rows it may delete up to this revision. */
  readonly purgedThrough: number;
}

export function openDatabase(opts: OpenDatabaseOptions): Database.Database {
  const db = new Database(opts.path);
  // auto_vacuum only takes effect before the first table exists; INCREMENTAL lets
  // the compactor hand free pages back to the file system in small steps.
  // page_size and auto_vacuum only take effect before the first table exists.
  // 2 KiB pages: a value of a few KiB lives in the log row's overflow pages and
  // the row itself is small, so an update dirties ~4 small pages (header, kv
  // leaf, log leaf, overflow) instead of a whole 4 KiB leaf per value plus the
  // leaf's parent: measured 0.50 -> 0.58 of a raw in-place UPDATE (docs/storage.md).
  db.pragma('page_size = 2048');
  // INCREMENTAL lets the compactor hand free pages back to the file system in
  // small steps (it costs one pointer-map page per commit that grows the file).
  db.pragma('auto_vacuum = INCREMENTAL');
  // One process owns the file: exclusive locking skips the shared-memory
  // wal-index and its lock calls on every transaction (another process can open
  // the file only after this one closes it).
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before its promise resolves, even across power loss.
  // NORMAL: in WAL mode a commit survives a crash of this process, but the last
  // commits before a power loss or OS crash may roll back (never corruption).
  db.pragma(`synchronous = ${opts.synchronous}`);
  // After each checkpoint the WAL is truncated back to this size, so a burst does
  // not leave a large WAL file behind for ever.
  db.pragma('journal_size_limit = 16777216');
  db.pragma('wal_autocheckpoint = 1000');
  // Busy waits only matter if another process opens the file (e.g. a backup tool).
  db.pragma('busy_timeout = 5000');
  assertLayout(db);
  db.transaction(() => db.exec(DDL))();
  return db;
}

/** A file written by the first layout (values copied into kv) cannot be read by these statements. */
function assertLayout(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  const hasKv = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kv'").get() !== undefined;
  if (version === LAYOUT_VERSION || (version === 0 && !hasKv)) return;
  const path = db.name;
  db.close();
  throw new StorageError(
    'Unavailable',
    `${path}: sqlite layout version ${version} is not ${LAYOUT_VERSION}; start from an empty data dir`,
  );
}

export function readPersistedState(db: Database.Database): PersistedState {
  const meta = (name: string): number =>
    (db.prepare('SELECT value FROM meta WHERE name = ?').get(name) as { value: number }).value;
  const compacted = meta('compacted');
  const hi = (db.prepare('SELECT max(revision) AS hi FROM log').get() as { hi: number | null }).hi;
  return { revision: Math.max(INITIAL_REVISION, compacted, hi ?? 0), compacted, purgedThrough: meta('purged') };
}
