// Conformance cases for racing writers: the optimistic-concurrency loop the
// object store runs on every update must lose no increment, and exactly one of
// several racing creates may win.
import { expect } from 'vitest';
import { isStorageError } from '../../errors/storage-error.js';
import { bytes, text, type KvCase } from './kv-case.js';

const WRITERS = 32;
const INCREMENTS_PER_WRITER = 5;

export const concurrencyCases: readonly KvCase[] = [
  {
    group: 'concurrency',
    name: '32 compare-and-swap writers on one key lose no update',
    timeoutMs: 60_000,
    run: async ({ kv, key }) => {
      const k = key('counter');
      await kv.create(k, bytes('0'));
      const revisions: number[] = [];
      let conflicts = 0;
      const writer = async (): Promise<void> => {
        let seen = (await kv.get(k))!;
        for (let done = 0; done < INCREMENTS_PER_WRITER; ) {
          const next = bytes(String(Number(text(seen.value)) + 1));
          try {
            const { revision } = await kv.put(k, next, { expectedRevision: seen.modRevision });
            revisions.push(revision);
            seen = { ...seen, value: next, modRevision: revision };
            done++;
          } catch (err) {
            if (!isStorageError(err, 'Conflict') || err.current === undefined) throw err;
            conflicts++;
            // The Conflict carries the current entry: retry without another read.
            seen = err.current;
          }
        }
      };
      await Promise.all(Array.from({ length: WRITERS }, writer));
      const final = (await kv.get(k))!;
      expect(text(final.value)).toBe(String(WRITERS * INCREMENTS_PER_WRITER));
      expect(new Set(revisions).size).toBe(WRITERS * INCREMENTS_PER_WRITER);
      expect(final.modRevision).toBe(Math.max(...revisions));
      // With 32 racing writers some attempts must have collided; otherwise nothing raced.
      expect(conflicts).toBeGreaterThan(0);
    },
  },
  {
    group: 'concurrency',
    name: 'racing creates of one key: exactly one wins',
    run: async ({ kv, key }) => {
      const results = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => kv.create(key('once'), bytes(`${i}`))));
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected' && isStorageError(r.reason, 'Exists'));
      expect({ won: won.length, lost: lost.length }).toEqual({ won: 1, lost: 15 });
      const winner = results.findIndex((r) => r.status === 'fulfilled');
      expect(text((await kv.get(key('once')))?.value)).toBe(String(winner));
    },
  },
  {
    group: 'concurrency',
    name: 'concurrent writes to different keys all commit with distinct revisions',
    run: async ({ kv, key, prefix }) => {
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => kv.create(key(`k${i}`), bytes(`${i}`))));
      expect(new Set(results.map((r) => r.revision)).size).toBe(100);
      expect(await kv.count(prefix)).toBe(100);
      const listed = await kv.list(prefix);
      expect(listed.entries.length).toBe(100);
      for (const e of listed.entries) expect(text(e.value)).toBe(e.key.slice(prefix.length + 1));
    },
  },
];
