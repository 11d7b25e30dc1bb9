// Every SQL statement of the backend, prepared once per open database. Keeping
// them together makes the access paths reviewable: each one is a range or point
// lookup on a primary key (kv by key, log by revision). The log has no index
// on key: reads at an older revision follow prev_revision instead (reads.ts).
import type Database from 'better-sqlite3';
import type { EventCode } from './schema.js';

/** A kv row without its value (what preconditions and old-revision reads start from). */
export interface KvMeta {
  readonly key: string;
  readonly create_revision: number;
  readonly mod_revision: number;
  /** 1 for a tombstone: the key was deleted at mod_revision. */
  readonly deleted: 0 | 1;
}

/** A kv row joined with the log row at its mod revision; `value` is null for a tombstone. */
export interface KvRow extends KvMeta {
  readonly value: Buffer | null;
}

export interface LogRow {
  readonly revision: number;
  readonly key: string;
  readonly type: EventCode;
  readonly create_revision: number;
  readonly prev_revision: number;
  /** Null for a delete. */
  readonly value: Buffer | null;
}

/** A log row with the value it replaced (the row at prev_revision), for watch events. */
export interface WatchRow extends LogRow {
  readonly previous: Buffer | null;
}

const KV_META = 'key, create_revision, mod_revision, deleted';
const LOG_COLUMNS = 'revision, key, type, create_revision, prev_revision, value';
// CROSS JOIN keeps kv as the outer loop: a key-range scan of kv, one log lookup
// by primary key per row, in key order.
const KV_WITH_VALUE = `SELECT k.key, k.create_revision, k.mod_revision, k.deleted, l.value
  FROM kv k CROSS JOIN log l ON l.revision = k.mod_revision`;

export interface PurgeRange {
  readonly lo: number;
  readonly hi: number;
}

export function prepareStatements(db: Database.Database) {
  return {
    getKv: db.prepare<[string], KvRow>(`${KV_WITH_VALUE} WHERE k.key = ?`),
    getKvMeta: db.prepare<[string], KvMeta>(`SELECT ${KV_META} FROM kv WHERE key = ?`),
    /** Creates the row, or turns a tombstone back into a live key. */
    upsertKv: db.prepare<[string, number, number]>(
      `INSERT INTO kv (key, create_revision, mod_revision, deleted) VALUES (?, ?, ?, 0)
       ON CONFLICT (key) DO UPDATE SET create_revision = excluded.create_revision,
         mod_revision = excluded.mod_revision, deleted = 0`,
    ),
    setKv: db.prepare<[number, 0 | 1, string]>('UPDATE kv SET mod_revision = ?, deleted = ? WHERE key = ?'),
    insertLog: db.prepare<[number, string, EventCode, number, number, Uint8Array | null]>(
      `INSERT INTO log (${LOG_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    listFrom: db.prepare<[string, string, number], KvRow>(
      `${KV_WITH_VALUE} WHERE k.key >= ? AND k.key < ? AND k.deleted = 0 ORDER BY k.key LIMIT ?`,
    ),
    listAfter: db.prepare<[string, string, number], KvRow>(
      `${KV_WITH_VALUE} WHERE k.key > ? AND k.key < ? AND k.deleted = 0 ORDER BY k.key LIMIT ?`,
    ),
    // Tombstones included: a key deleted after the revision being read existed then.
    listMetaFrom: db.prepare<[string, string, number], KvMeta>(
      `SELECT ${KV_META} FROM kv WHERE key >= ? AND key < ? ORDER BY key LIMIT ?`,
    ),
    listMetaAfter: db.prepare<[string, string, number], KvMeta>(
      `SELECT ${KV_META} FROM kv WHERE key > ? AND key < ? ORDER BY key LIMIT ?`,
    ),
    count: db.prepare<[string, string], { n: number }>(
      'SELECT count(*) AS n FROM kv WHERE key >= ? AND key < ? AND deleted = 0',
    ),
    countAfter: db.prepare<[string, string], { n: number }>(
      'SELECT count(*) AS n FROM kv WHERE key > ? AND key < ? AND deleted = 0',
    ),
    logAt: db.prepare<[number], LogRow>(`SELECT ${LOG_COLUMNS} FROM log WHERE revision = ?`),
    // A create's prev_revision points at a tombstone, not at a value it replaced.
    watchRange: db.prepare<[number, string, string, number], WatchRow>(
      `SELECT l.revision, l.key, l.type, l.create_revision, l.prev_revision, l.value, p.value AS previous
         FROM log l LEFT JOIN log p ON p.revision = l.prev_revision AND l.type <> 0
        WHERE l.revision > ? AND l.key >= ? AND l.key < ? ORDER BY l.revision LIMIT ?`,
    ),
    // Compaction of the rows in (lo, hi], like etcd's: every key keeps its latest
    // row at or below the compacted revision unless that row is a tombstone, so
    // the value an update or delete above it replaced, and a live key's current
    // value, stay readable. An update or delete in the range supersedes the row
    // at its prev_revision (wherever that is); a tombstone in the range goes
    // itself, with its kv row unless the key was created again since.
    purgeSuperseded: db.prepare<[PurgeRange]>(`DELETE FROM log WHERE revision IN
      (SELECT prev_revision FROM log WHERE revision > :lo AND revision <= :hi AND type <> 0)`),
    purgeTombstoneKeys: db.prepare<[PurgeRange]>(`DELETE FROM kv WHERE deleted = 1 AND mod_revision <= :hi AND key IN
      (SELECT key FROM log WHERE revision > :lo AND revision <= :hi AND type = 2)`),
    purgeTombstones: db.prepare<[PurgeRange]>('DELETE FROM log WHERE revision > :lo AND revision <= :hi AND type = 2'),
    setPurged: db.prepare<[number]>("UPDATE meta SET value = ? WHERE name = 'purged'"),
    setCompacted: db.prepare<[number]>("UPDATE meta SET value = ? WHERE name = 'compacted'"),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
