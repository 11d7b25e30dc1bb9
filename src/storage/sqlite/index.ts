// Public entry of the SQLite backend: what main.ts, tests and benches import.
export { openSqliteKv } from './sqlite-kv.js';
export type { SqliteKv, SqliteKvOptions, SqliteKvStats, CompactionOptions, Synchronous } from './sqlite-kv.js';
