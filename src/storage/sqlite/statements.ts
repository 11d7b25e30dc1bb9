// Every SQL statement of the backend, prepared once per open database. Keeping
// them together makes the access paths reviewable: each one is a range or point
// lookup on a primary key or the log's (key, revision) index.
import type Database from 'better-sqlite3';
import type { EventCode } from './schema.js';

export interface KvRow {
  readonly key: string;
  readonly value: Buffer;
  readonly create_revision: number;
  readonly mod_revision: number;
}

export interface LogRow {
  readonly revision: number;
  readonly key: string;
  readonly type: EventCode;
  readonly value: Buffer;
  readonly previous: Buffer | null;
  readonly create_revision: number;
  readonly prev_revision: number;
}

const KV_COLUMNS = 'key, value, create_revision, mod_revision';
const LOG_COLUMNS = 'revision, key, type, value, previous, create_revision, prev_revision';
/**
 * An update's log row leaves `previous` NULL while the row it replaced (at
 * prev_revision) is still in the log: that row holds the same bytes, and not
 * writing them again keeps an update's log row within one page. The compactor
 * copies the value into `previous` before it deletes the older row.
 */
const LOG_WITH_PREVIOUS = `l.revision, l.key, l.type, l.value, COALESCE(l.previous, p.value) AS previous,
  l.create_revision, l.prev_revision FROM log l LEFT JOIN log p ON p.revision = l.prev_revision AND l.type = 1`;

/**
 * The state of a key range as of revision :rev. A key whose current row is no
 * newer than :rev is unchanged since; every other key that existed at :rev was
 * changed after it, so its first log row after :rev holds the value it had then
 * (in `previous`, or `value` for a delete, which stores the last value). A first
 * change that is a create means the key was absent at :rev. The two halves are
 * disjoint, and both only need log rows newer than :rev, which compaction keeps.
 */
function listAtSql(lowOp: '>=' | '>'): string {
  return `
SELECT key, value, create_revision, mod_revision FROM kv
 WHERE key ${lowOp} :low AND key < :high AND mod_revision <= :rev
UNION ALL
SELECT g.key, CASE g.type WHEN 2 THEN g.value ELSE COALESCE(g.previous, p.value) END AS value,
       g.create_revision, g.prev_revision AS mod_revision
  FROM (SELECT key, type, value, previous, create_revision, prev_revision, min(revision)
          FROM log WHERE key ${lowOp} :low AND key < :high AND revision > :rev GROUP BY key) g
  LEFT JOIN log p ON p.revision = g.prev_revision
 WHERE g.type <> 0
ORDER BY 1 LIMIT :limit`;
}

export function prepareStatements(db: Database.Database) {
  return {
    getKv: db.prepare<[string], KvRow>(`SELECT ${KV_COLUMNS} FROM kv WHERE key = ?`),
    insertKv: db.prepare<[string, Uint8Array, number, number]>(
      'INSERT INTO kv (key, value, create_revision, mod_revision) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO NOTHING',
    ),
    updateKv: db.prepare<[Uint8Array, number, string]>('UPDATE kv SET value = ?, mod_revision = ? WHERE key = ?'),
    deleteKv: db.prepare<[string]>('DELETE FROM kv WHERE key = ?'),
    insertLog: db.prepare<[number, string, EventCode, Uint8Array, Uint8Array | null, number, number]>(
      `INSERT INTO log (${LOG_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    listFrom: db.prepare<[string, string, number], KvRow>(
      `SELECT ${KV_COLUMNS} FROM kv WHERE key >= ? AND key < ? ORDER BY key LIMIT ?`,
    ),
    listAfter: db.prepare<[string, string, number], KvRow>(
      `SELECT ${KV_COLUMNS} FROM kv WHERE key > ? AND key < ? ORDER BY key LIMIT ?`,
    ),
    listAtFrom: db.prepare<[{ low: string; high: string; rev: number; limit: number }], KvRow>(listAtSql('>=')),
    listAtAfter: db.prepare<[{ low: string; high: string; rev: number; limit: number }], KvRow>(listAtSql('>')),
    count: db.prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM kv WHERE key >= ? AND key < ?'),
    logAtOrBefore: db.prepare<[string, number], LogRow>(
      `SELECT ${LOG_COLUMNS} FROM log WHERE key = ? AND revision <= ? ORDER BY revision DESC LIMIT 1`,
    ),
    logFirstAfter: db.prepare<[string, number], LogRow>(
      `SELECT ${LOG_WITH_PREVIOUS} WHERE l.key = ? AND l.revision > ? ORDER BY l.revision LIMIT 1`,
    ),
    watchRange: db.prepare<[number, string, string, number], LogRow>(
      `SELECT ${LOG_WITH_PREVIOUS} WHERE l.revision > ? AND l.key >= ? AND l.key < ? ORDER BY l.revision LIMIT ?`,
    ),
    // Before rows (lo, hi] go, each one's next write of the same key, if it stays,
    // gets its own copy of the value it replaced (see LOG_WITH_PREVIOUS).
    keepPrevious: db.prepare<[{ lo: number; hi: number }]>(`
UPDATE log SET previous = (SELECT p.value FROM log p WHERE p.revision = log.prev_revision)
 WHERE revision IN (SELECT (SELECT n.revision FROM log n WHERE n.key = d.key AND n.revision > d.revision
                             ORDER BY n.revision LIMIT 1)
                      FROM log d WHERE d.revision > :lo AND d.revision <= :hi AND d.type <> 2)
   AND revision > :hi AND type = 1 AND previous IS NULL`),
    purgeLog: db.prepare<[number]>('DELETE FROM log WHERE revision <= ?'),
    setCompacted: db.prepare<[number]>("UPDATE meta SET value = ? WHERE name = 'compacted'"),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
