// Bounded size under churn: 1,000,000 updates of 1,000 keys must leave the file
// (database + WAL) under twice its steady-state size, measured after the first
// 100,000 updates. Compaction runs on its real background timer with small
// retention settings and an injected clock (1 ms per update), so the log is
// trimmed many times during the run; group commit (64 in flight) and
// synchronous=NORMAL keep the run short.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openSqliteKv } from '../../src/storage/sqlite/index.js';

const KEYS = 1000;
const UPDATES = 1_000_000;
const STEADY_AFTER = 100_000;
const IN_FLIGHT = 64;

const dir = mkdtempSync(join(tmpdir(), 'kapi-sqlite-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileBytes(path: string): number {
  const size = (p: string): number => {
    try {
      return statSync(p).size;
    } catch {
      return 0; // no WAL file right now
    }
  };
  return size(path) + size(`${path}-wal`);
}

describe('sqlite KV file size under churn', () => {
  test('1M updates of 1k keys stay under 2x the steady-state size', async () => {
    const path = join(dir, 'size.db');
    let now = 0;
    const kv = openSqliteKv({
      path,
      synchronous: 'NORMAL',
      clock: () => now,
      compaction: { minRetentionMs: 20_000, minRetainedRevisions: 10_000, intervalMs: 20, batchSize: 2000 },
    });
    try {
      const value = (i: number): Uint8Array => new TextEncoder().encode(`${i}:`.padEnd(200, 'x'));
      const revisions: number[] = [];
      for (let k = 0; k < KEYS; k++) revisions.push((await kv.create(`/configmaps/size/k${k}`, value(k))).revision);
      let next = 0;
      let steady = 0;
      let peak = 0;
      // Each lane owns the keys congruent to it, so CAS never conflicts.
      const lane = async (id: number): Promise<void> => {
        for (let k = id; ; k = (k + IN_FLIGHT) % KEYS) {
          const i = next++;
          if (i >= UPDATES) return;
          now = i;
          const { revision } = await kv.put(`/configmaps/size/k${k}`, value(i), { expectedRevision: revisions[k]! });
          revisions[k] = revision;
          if (i === STEADY_AFTER) steady = fileBytes(path);
          if (i > STEADY_AFTER && i % 10_000 === 0) peak = Math.max(peak, fileBytes(path));
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, (_, id) => lane(id)));
      const stats = kv.stats();
      const final = fileBytes(path);
      peak = Math.max(peak, final);
      expect(stats.writes).toBeGreaterThanOrEqual(UPDATES);
      expect(stats.compactedRevision).toBeGreaterThan(UPDATES - 40_000);
      expect(stats.logRows).toBeLessThan(60_000);
      expect(steady).toBeGreaterThan(0);
      expect(peak, `steady ${steady} B, peak ${peak} B, ${JSON.stringify(stats)}`).toBeLessThan(2 * steady);
      expect(await kv.count('/configmaps/size/')).toBe(KEYS);
    } finally {
      await kv.close();
    }
  }, 180_000);
});
