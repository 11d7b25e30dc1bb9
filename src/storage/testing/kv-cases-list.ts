// Conformance cases for list: key order, prefix boundaries, limit/after paging,
// lists at an older revision, and paging at a fixed revision while writers write
// (the continue-token guarantee Kubernetes pagination relies on).
import { expect } from 'vitest';
import type { KV, KvEntry } from '../kv.js';
import { bytes, runConcurrently, text, waitFor, type KvCase } from './kv-case.js';

const summary = (entries: readonly KvEntry[]) =>
  entries.map((e) => ({ key: e.key, value: text(e.value), createRevision: e.createRevision, modRevision: e.modRevision }));

/** Pages through prefix at `revision` with `limit`, following `after`; checks `more` on the way. */
async function pageAll(
  kv: KV,
  prefix: string,
  opts: { revision: number; limit: number; betweenPages?: () => Promise<void> },
): Promise<KvEntry[]> {
  const all: KvEntry[] = [];
  let after: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const res = await kv.list(prefix, { revision: opts.revision, limit: opts.limit, ...(after === undefined ? {} : { after }) });
    expect(res.revision).toBe(opts.revision);
    expect(res.entries.length).toBeLessThanOrEqual(opts.limit);
    all.push(...res.entries);
    if (!res.more) return all;
    expect(res.entries.length).toBe(opts.limit);
    after = res.entries[res.entries.length - 1]!.key;
    await opts.betweenPages?.();
  }
  throw new Error('paging did not end');
}

export const listCases: readonly KvCase[] = [
  {
    group: 'list',
    name: 'returns the keys under the prefix in ascending order',
    run: async ({ kv, key, prefix, siblingPrefix }) => {
      const names = ['m', 'b', 'z', 'a', 'b/c', 'aa'];
      const revisions = new Map<string, number>();
      for (const name of names) revisions.set(key(name), (await kv.create(key(name), bytes(name))).revision);
      await kv.create(`${siblingPrefix}a`, bytes('sibling'));
      const res = await kv.list(prefix);
      expect(res.entries.map((e) => e.key)).toEqual([...revisions.keys()].sort());
      for (const e of res.entries) expect(e.modRevision).toBe(revisions.get(e.key));
      expect(res.more).toBe(false);
      expect(res.revision).toBe(await kv.currentRevision());
    },
  },
  {
    group: 'list',
    name: 'an empty prefix range returns nothing',
    run: async ({ kv, prefix }) => {
      const res = await kv.list(prefix);
      expect({ entries: res.entries.length, more: res.more }).toEqual({ entries: 0, more: false });
    },
  },
  {
    group: 'list',
    name: 'limit and after page through every key',
    run: async ({ kv, key, prefix }) => {
      const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
      for (const name of names) await kv.create(key(name), bytes(name));
      const table = [
        { name: 'first page', after: undefined, limit: 3, want: ['a', 'b', 'c'], more: true },
        { name: 'middle page', after: 'c', limit: 3, want: ['d', 'e', 'f'], more: true },
        { name: 'last page', after: 'f', limit: 3, want: ['g'], more: false },
        { name: 'limit equal to what is left', after: 'd', limit: 3, want: ['e', 'f', 'g'], more: false },
        { name: 'no limit', after: 'e', limit: 0, want: ['f', 'g'], more: false },
        { name: 'after the last key', after: 'g', limit: 3, want: [], more: false },
      ];
      for (const row of table) {
        const res = await kv.list(prefix, { limit: row.limit, ...(row.after === undefined ? {} : { after: key(row.after) }) });
        expect({ keys: res.entries.map((e) => e.key), more: res.more }, row.name).toEqual({
          keys: row.want.map(key),
          more: row.more,
        });
      }
    },
  },
  {
    group: 'list',
    name: 'at a revision shows the state of then',
    run: async ({ kv, key, prefix }) => {
      const ra = (await kv.create(key('a'), bytes('a1'))).revision;
      const rb = (await kv.create(key('b'), bytes('b1'))).revision;
      const then = await kv.currentRevision();
      await kv.put(key('a'), bytes('a2'), { expectedRevision: ra });
      await kv.delete(key('b'));
      const rc = (await kv.create(key('c'), bytes('c1'))).revision;
      const old = await kv.list(prefix, { revision: then });
      expect(old.revision).toBe(then);
      expect(summary(old.entries)).toEqual([
        { key: key('a'), value: 'a1', createRevision: ra, modRevision: ra },
        { key: key('b'), value: 'b1', createRevision: rb, modRevision: rb },
      ]);
      const oldPage = await kv.list(prefix, { revision: then, limit: 1, after: key('a') });
      expect({ keys: oldPage.entries.map((e) => e.key), more: oldPage.more }).toEqual({ keys: [key('b')], more: false });
      const latest = await kv.list(prefix);
      expect(summary(latest.entries).map((e) => [e.key, e.value])).toEqual([
        [key('a'), 'a2'],
        [key('c'), 'c1'],
      ]);
      expect(latest.entries[1]!.modRevision).toBe(rc);
    },
  },
  {
    group: 'list',
    name: 'paging at a fixed revision is consistent while writers write',
    timeoutMs: 60_000,
    run: async ({ kv, key, prefix }) => {
      const names = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, '0')}`);
      await runConcurrently({ count: names.length, concurrency: 8, worker: async (i) => void (await kv.create(key(names[i]!), bytes('v0'))) });
      const snapshot = await kv.list(prefix);
      let stop = false;
      let writes = 0;
      // Writers update, delete and create keys across the whole range while the pages are read.
      const writer = async (lane: number): Promise<void> => {
        for (let i = lane; !stop; i += 4) {
          const name = names[i % names.length]!;
          const cur = await kv.get(key(name));
          if (cur === undefined) await kv.create(key(name), bytes(`v${i}`)).catch(() => undefined);
          else if (i % 3 === 0) await kv.delete(key(name), { expectedRevision: cur.modRevision }).catch(() => undefined);
          else await kv.put(key(name), bytes(`v${i}`), { expectedRevision: cur.modRevision }).catch(() => undefined);
          await kv.create(key(`new-${lane}-${i}`), bytes('n')).catch(() => undefined);
          writes++;
          // A backend that answers without I/O (memory) would otherwise never let
          // the reader's turn come: yield to the event loop between writes.
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      const pages: KvEntry[] = [];
      try {
        // Let the writers get going so every page is read against a moving store.
        await waitFor(() => writes >= 8, 'the writers to start');
        // Wait for a write between pages so every page is read after the store moved on.
        const betweenPages = async (): Promise<void> => {
          const seen = writes;
          await waitFor(() => writes > seen, 'a write between pages');
        };
        pages.push(...(await pageAll(kv, prefix, { revision: snapshot.revision, limit: 4, betweenPages })));
      } finally {
        stop = true;
        await Promise.all(writers);
      }
      expect(writes).toBeGreaterThan(8 + 7);
      expect(await kv.currentRevision()).toBeGreaterThan(snapshot.revision);
      expect(summary(pages)).toEqual(summary(snapshot.entries));
    },
  },
];
