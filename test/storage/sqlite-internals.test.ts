// SQLite-specific behaviour the shared suite cannot see: group commit batching,
// background compaction's retention rules (driven by an injected clock), values
// that survive the purge of the log rows they came from, and reopening a file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openSqliteKv } from '../../src/storage/sqlite/index.js';
import { isStorageError } from '../../src/errors/storage-error.js';
import { collectWatch } from '../../src/storage/testing/kv-watch-collector.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-sqlite-internals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const b = (s: string): Uint8Array => new TextEncoder().encode(s);
const t = (u: Uint8Array | undefined): string | undefined => (u === undefined ? undefined : new TextDecoder().decode(u));

describe('group commit', () => {
  test('writes issued together share one transaction, each checked on its own', async () => {
    const kv = openSqliteKv({ path: join(dir, 'group.db') });
    try {
      const r0 = (await kv.create('/x/a', b('a0'))).revision;
      const before = kv.stats().commits;
      const results = await Promise.allSettled([
        kv.create('/x/b', b('b')),
        kv.create('/x/a', b('dup')),
        kv.put('/x/a', b('a1'), { expectedRevision: r0 }),
        kv.put('/x/a', b('a2'), { expectedRevision: r0 }),
        kv.delete('/x/missing'),
        ...Array.from({ length: 12 }, (_, i) => kv.create(`/x/k${i}`, b(`${i}`))),
      ]);
      const outcome = results.map((r) =>
        r.status === 'fulfilled' ? 'ok' : isStorageError(r.reason) ? r.reason.code : String(r.reason),
      );
      expect(outcome.slice(0, 5)).toEqual(['ok', 'Exists', 'ok', 'Conflict', 'NotFound']);
      expect(outcome.slice(5).every((o) => o === 'ok')).toBe(true);
      expect({ commits: kv.stats().commits - before, largestBatch: kv.stats().largestBatch }).toEqual({ commits: 1, largestBatch: 14 });
      expect(t((await kv.get('/x/a'))?.value)).toBe('a1');
    } finally {
      await kv.close();
    }
  });
});

describe('background compaction', () => {
  test('keeps minRetentionMs of history and minRetainedRevisions, then purges', async () => {
    let now = 0;
    const kv = openSqliteKv({
      path: ':memory:',
      clock: () => now,
      // The timer never fires during the test; runCompaction() is one tick of it.
      compaction: { minRetentionMs: 1000, minRetainedRevisions: 5, intervalMs: 3_600_000, batchSize: 3 },
    });
    try {
      const rev = { current: (await kv.create('/c/k', b('0'))).revision };
      const write = async (n: number): Promise<void> => {
        for (let i = 0; i < n; i++) rev.current = (await kv.put('/c/k', b(`${i}`), { expectedRevision: rev.current })).revision;
      };
      const steps = [
        // The key's latest row at or below the compacted revision stays (it holds the value then).
        { name: 'nothing is old enough yet', at: 0, writes: 20, wantCompacted: 0, wantLogRows: 21 },
        { name: 'the revision seen 1000 ms ago', at: 1500, writes: 10, wantCompacted: 22, wantLogRows: 11 },
        { name: 'never closer than 5 revisions to the head', at: 3000, writes: 0, wantCompacted: 27, wantLogRows: 6 },
      ];
      for (const step of steps) {
        now = step.at;
        await write(step.writes);
        kv.runCompaction();
        const stats = kv.stats();
        expect({ compacted: stats.compactedRevision, logRows: stats.logRows }, step.name).toEqual({
          compacted: step.wantCompacted,
          logRows: step.wantLogRows,
        });
      }
      expect(await kv.oldestRevision()).toBe(28);
      expect((await kv.get('/c/k', { revision: 28 }))?.modRevision).toBe(28);
    } finally {
      await kv.close();
    }
  });

  test('an update keeps the value it replaced when that row is compacted', async () => {
    // Default retention: runCompaction() compacts nothing itself, it only finishes purging up to r1.
    const kv = openSqliteKv({ path: ':memory:' });
    try {
      const r1 = (await kv.create('/p/a', b('a1'))).revision;
      const r2 = (await kv.create('/p/b', b('b1'))).revision;
      const r3 = (await kv.put('/p/a', b('a2'), { expectedRevision: r1 })).revision;
      await kv.compact(r1);
      kv.runCompaction();
      // r1 is /p/a's latest row at the compacted revision: the update at r3 still needs it.
      expect(kv.stats().logRows).toBe(3);
      expect(t((await kv.get('/p/a', { revision: r2 }))?.value)).toBe('a1');
      expect((await kv.list('/p/', { revision: r2 })).entries.map((e) => t(e.value))).toEqual(['a1', 'b1']);
      const w = collectWatch(kv, '/p/', { afterRevision: r1 });
      try {
        await w.waitForRevision(r3);
        expect(w.events.map((e) => [e.revision, t(e.previous)])).toEqual([
          [r2, undefined],
          [r3, 'a1'],
        ]);
      } finally {
        w.close();
      }
    } finally {
      await kv.close();
    }
  });
});

describe('compaction drops superseded rows and tombstones', () => {
  test('each live key keeps one row below the compacted revision; deleted keys leave nothing', async () => {
    const kv = openSqliteKv({ path: ':memory:' });
    try {
      const a1 = (await kv.create('/d/a', b('a1'))).revision;
      const a2 = (await kv.put('/d/a', b('a2'), { expectedRevision: a1 })).revision;
      await kv.create('/d/b', b('b1'));
      const gone = (await kv.delete('/d/b')).revision;
      const b2 = (await kv.create('/d/b', b('b2'))).revision;
      await kv.create('/d/c', b('c1'));
      const cGone = (await kv.delete('/d/c')).revision;
      // Reads at every revision before compaction, following prev_revision (and a create's tombstone link).
      const at = async (rev: number): Promise<string[]> =>
        (await kv.list('/d/', { revision: rev })).entries.map((e) => `${e.key}=${t(e.value)}`);
      expect(await at(gone - 1)).toEqual(['/d/a=a2', '/d/b=b1']);
      expect(await at(gone)).toEqual(['/d/a=a2']);
      expect(t((await kv.get('/d/b', { revision: gone - 1 }))?.value)).toBe('b1');
      expect(await kv.get('/d/b', { revision: gone })).toBeUndefined();
      expect(t((await kv.get('/d/a', { revision: a1 }))?.value)).toBe('a1');
      await kv.compact(cGone);
      kv.runCompaction();
      // Left: /d/a at a2 and /d/b at b2; a1, b1, both tombstones and c1 are gone.
      expect({ logRows: kv.stats().logRows, keys: kv.stats().keys }).toEqual({ logRows: 2, keys: 2 });
      expect((await kv.list('/d/')).entries.map((e) => `${e.key}=${t(e.value)}`)).toEqual(['/d/a=a2', '/d/b=b2']);
      expect((await kv.get('/d/a'))?.modRevision).toBe(a2);
      expect((await kv.get('/d/b'))?.modRevision).toBe(b2);
      expect(await kv.count('/d/')).toBe(2);
      expect((await kv.create('/d/c', b('c2'))).revision).toBe(cGone + 1);
    } finally {
      await kv.close();
    }
  });
});

describe('reopening a file', () => {
  test('keeps the revision, the compacted revision and the data', async () => {
    const path = join(dir, 'reopen.db');
    const first = openSqliteKv({ path });
    const r1 = (await first.create('/r/a', b('1'))).revision;
    const r2 = (await first.put('/r/a', b('2'), { expectedRevision: r1 })).revision;
    await first.delete('/r/a');
    await first.compact(r2);
    const revision = await first.currentRevision();
    await first.close();
    await expect(first.get('/r/a')).rejects.toMatchObject({ code: 'Unavailable' });
    const again = openSqliteKv({ path });
    try {
      expect({ revision: await again.currentRevision(), oldest: await again.oldestRevision() }).toEqual({
        revision,
        oldest: r2 + 1,
      });
      await expect(again.get('/r/a', { revision: r2 })).rejects.toMatchObject({ code: 'Compacted' });
      expect((await again.create('/r/a', b('3'))).revision).toBe(revision + 1);
    } finally {
      await again.close();
    }
  });
});
