// Conformance cases for compaction: reads at and below the compacted revision
// answer Compacted (410 later), newer history stays readable, the latest state is
// untouched, and a watch that needs compacted history ends with Compacted.
import { expect } from 'vitest';
import { isStorageError } from '../../errors/storage-error.js';
import { collectWatch } from './kv-watch-collector.js';
import { bytes, expectStorageError, text, type KvCase } from './kv-case.js';

export const compactionCases: readonly KvCase[] = [
  {
    group: 'compaction',
    name: 'reads at and below the compacted revision throw Compacted',
    run: async ({ kv, key, prefix }) => {
      const r1 = (await kv.create(key('a'), bytes('v1'))).revision;
      const r2 = (await kv.put(key('a'), bytes('v2'), { expectedRevision: r1 })).revision;
      const r3 = (await kv.put(key('a'), bytes('v3'), { expectedRevision: r2 })).revision;
      await kv.compact(r2);
      expect(await kv.oldestRevision()).toBe(r2 + 1);
      const err = await expectStorageError(kv.get(key('a'), { revision: r1 }), 'Compacted');
      expect(err.revision === undefined || err.revision === r2 + 1).toBe(true);
      // The revision asked for is carried, so the 410 can quote it (a continue token's).
      expect(err.requested).toBe(r1);
      expect((await expectStorageError(kv.get(key('a'), { revision: r2 }), 'Compacted')).requested).toBe(r2);
      expect((await expectStorageError(kv.list(prefix, { revision: r2 }), 'Compacted')).requested).toBe(r2);
      expect(text((await kv.get(key('a'), { revision: r3 }))?.value)).toBe('v3');
      expect(text((await kv.get(key('a')))?.value)).toBe('v3');
    },
  },
  {
    group: 'compaction',
    name: 'history after the compacted revision stays readable',
    run: async ({ kv, key, prefix }) => {
      const ra = (await kv.create(key('a'), bytes('a1'))).revision;
      const rb = (await kv.create(key('b'), bytes('b1'))).revision;
      const compactAt = (await kv.put(key('a'), bytes('a2'), { expectedRevision: ra })).revision;
      const then = (await kv.create(key('c'), bytes('c1'))).revision;
      await kv.delete(key('b'));
      await kv.put(key('c'), bytes('c2'), { expectedRevision: then });
      await kv.compact(compactAt);
      const old = await kv.list(prefix, { revision: then });
      expect(old.entries.map((e) => [e.key, text(e.value), e.modRevision])).toEqual([
        [key('a'), 'a2', compactAt],
        [key('b'), 'b1', rb],
        [key('c'), 'c1', then],
      ]);
      expect(text((await kv.get(key('b'), { revision: then }))?.value)).toBe('b1');
    },
  },
  {
    group: 'compaction',
    name: 'values written at or before the compacted revision stay readable where still current',
    run: async ({ kv, key, prefix }) => {
      const r1 = (await kv.create(key('a'), bytes('a1'))).revision;
      const r2 = (await kv.create(key('b'), bytes('b1'))).revision;
      const r3 = (await kv.put(key('a'), bytes('a2'), { expectedRevision: r1 })).revision;
      await kv.compact(r1);
      // A few more writes give a backend's background work (deleting history) its turn.
      for (let i = 0; i < 3; i++) await kv.create(key(`pad${i}`), bytes('p'));
      expect(text((await kv.get(key('a'), { revision: r2 }))?.value)).toBe('a1');
      const old = await kv.list(prefix, { revision: r2 });
      expect(old.entries.map((e) => [e.key, text(e.value), e.modRevision])).toEqual([
        [key('a'), 'a1', r1],
        [key('b'), 'b1', r2],
      ]);
      const w = collectWatch(kv, prefix, { afterRevision: r1 });
      try {
        await w.waitForRevision(r3);
        expect(w.events.slice(0, 2).map((e) => [e.type, e.revision, text(e.value), text(e.previous)])).toEqual([
          ['create', r2, 'b1', undefined],
          ['update', r3, 'a2', 'a1'],
        ]);
      } finally {
        w.close();
      }
    },
  },
  {
    group: 'compaction',
    name: 'leaves the latest state and new writes untouched',
    run: async ({ kv, key, prefix }) => {
      const r1 = (await kv.create(key('a'), bytes('v1'))).revision;
      const r2 = (await kv.put(key('a'), bytes('v2'), { expectedRevision: r1 })).revision;
      await kv.create(key('b'), bytes('b'));
      const current = await kv.currentRevision();
      await kv.compact(current);
      expect(await kv.currentRevision()).toBe(current);
      expect(await kv.count(prefix)).toBe(2);
      expect((await kv.list(prefix)).entries.map((e) => text(e.value))).toEqual(['v2', 'b']);
      const r4 = (await kv.put(key('a'), bytes('v3'), { expectedRevision: r2 })).revision;
      expect(r4).toBeGreaterThan(current);
      expect(text((await kv.get(key('a'), { revision: r4 }))?.value)).toBe('v3');
    },
  },
  {
    group: 'compaction',
    name: 'a watch from a compacted revision ends with Compacted',
    run: async ({ kv, key, prefix }) => {
      const start = await kv.currentRevision();
      const r1 = (await kv.create(key('a'), bytes('v1'))).revision;
      const r2 = (await kv.put(key('a'), bytes('v2'), { expectedRevision: r1 })).revision;
      await kv.put(key('a'), bytes('v3'), { expectedRevision: r2 });
      await kv.compact(r2);
      const w = collectWatch(kv, prefix, { afterRevision: start });
      try {
        const err = await w.waitForError();
        expect(isStorageError(err, 'Compacted'), String(err)).toBe(true);
        expect(w.events).toEqual([]);
      } finally {
        w.close();
      }
    },
  },
  {
    group: 'compaction',
    name: 'a watch from the compacted revision onwards still replays',
    run: async ({ kv, key, prefix }) => {
      const r1 = (await kv.create(key('a'), bytes('v1'))).revision;
      const r2 = (await kv.put(key('a'), bytes('v2'), { expectedRevision: r1 })).revision;
      const r3 = (await kv.put(key('a'), bytes('v3'), { expectedRevision: r2 })).revision;
      await kv.compact(r2);
      const w = collectWatch(kv, prefix, { afterRevision: r2 });
      try {
        await w.waitForRevision(r3);
        expect(w.events.map((e) => [e.revision, text(e.value), text(e.previous)])).toEqual([[r3, 'v3', 'v2']]);
        expect(w.errors).toEqual([]);
      } finally {
        w.close();
      }
    },
  },
];
