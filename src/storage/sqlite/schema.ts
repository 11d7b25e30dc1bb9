// The on-disk layout of the SQLite backend. Two tables, not kine's single log:
// `kv` is the current state (latest reads, lists and counts come from its key
// index no matter how long the history is), `log` is the bounded event history
// (one row per revision) that serves watches from a revision and reads at a
// recent revision; `previous` is filled lazily (see LOG_WITH_PREVIOUS in
// statements.ts). The global revision is not a separate counter row that every
// write would have to rewrite: it is max(log.revision), or the compacted
// revision once compaction emptied the log, both persisted by the same commit.
import Database from 'better-sqlite3';

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

const DDL = `
CREATE TABLE IF NOT EXISTS meta (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS kv (
  key             TEXT PRIMARY KEY,
  value           BLOB NOT NULL,
  create_revision INTEGER NOT NULL,
  mod_revision    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
  revision        INTEGER PRIMARY KEY,
  key             TEXT NOT NULL,
  type            INTEGER NOT NULL,
  value           BLOB NOT NULL,
  previous        BLOB,
  create_revision INTEGER NOT NULL,
  prev_revision   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS log_key_revision ON log (key, revision);
INSERT OR IGNORE INTO meta (name, value) VALUES ('compacted', 0);
`;

export interface OpenDatabaseOptions {
  readonly path: string;
  readonly synchronous: Synchronous;
}

export interface PersistedState {
  readonly revision: number;
  readonly compacted: number;
  /** The oldest revision still in the log minus one (rows up to it are gone). */
  readonly purgedThrough: number;
}

export function openDatabase(opts: OpenDatabaseOptions): Database.Database {
  const db = new Database(opts.path);
  // auto_vacuum only takes effect before the first table exists; INCREMENTAL lets
  // the compactor hand free pages back to the file system in small steps.
  db.pragma('auto_vacuum = INCREMENTAL');
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
  db.exec(DDL);
  return db;
}

export function readPersistedState(db: Database.Database): PersistedState {
  const compacted = (db.prepare("SELECT value FROM meta WHERE name = 'compacted'").get() as { value: number }).value;
  const bounds = db.prepare('SELECT min(revision) AS lo, max(revision) AS hi FROM log').get() as {
    lo: number | null;
    hi: number | null;
  };
  return {
    revision: Math.max(INITIAL_REVISION, compacted, bounds.hi ?? 0),
    compacted,
    purgedThrough: bounds.lo === null ? Math.max(compacted, bounds.hi ?? 0) : bounds.lo - 1,
  };
}
