// The Storage conformance suite through the watch cache over SQLite, on a file
// (the production shape) and in memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openSqliteKv } from '../../src/storage/sqlite/index.js';
import { cacherUnderTest } from '../../src/storage/testing/cacher-under-test.js';
import { describeStorageConformance } from '../../src/storage/testing/storage.suite.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-cacher-sqlite-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

for (const shape of [
  { name: 'sqlite file', path: () => join(dir, `store-${++files}.db`) },
  { name: 'sqlite :memory:', path: () => ':memory:' },
]) {
  describeStorageConformance(`watch cache over ${shape.name}`, async () => cacherUnderTest(await openSqliteKv({ path: shape.path() })));
}
