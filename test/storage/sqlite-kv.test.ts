// The shared KV conformance suite against the SQLite backend, on a file (the
// production shape, WAL + fsync) and in memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeKvConformance } from '../../src/storage/testing/kv.suite.js';
import { openSqliteKv } from '../../src/storage/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-sqlite-kv-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeKvConformance('sqlite file', () => openSqliteKv({ path: join(dir, `kv-${++files}.db`) }));
describeKvConformance('sqlite :memory:', () => openSqliteKv({ path: ':memory:' }));

// The whole suite again with the latest-value cache off, so every read goes to the file.
describeKvConformance('sqlite file, no latest cache', () => openSqliteKv({ path: join(dir, `kv-${++files}.db`), latestCacheBytes: 0 }));
