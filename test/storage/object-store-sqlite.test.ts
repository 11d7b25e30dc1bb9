// The object-level Storage conformance suite over the SQLite KV, on a file (the
// production shape) and in memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openSqliteKv } from '../../src/storage/sqlite/index.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { describeStorageConformance } from '../../src/storage/testing/storage.suite.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-object-store-sqlite-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

for (const shape of [
  { name: 'sqlite file', path: () => join(dir, `store-${++files}.db`) },
  { name: 'sqlite :memory:', path: () => ':memory:' },
]) {
  describeStorageConformance(`object store over ${shape.name}`, async () => {
    const kv = await openSqliteKv({ path: shape.path() });
    return { storage: createObjectStore({ kv }), compact: (revision) => kv.compact(revision) };
  });
}
