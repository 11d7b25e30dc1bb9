// A watched write decodes nothing: SQLite hands a commit's events to its watchers
// before the write's promise settles, so the watch event and the write's answer
// race for the stored object. Whichever comes first makes it from the write's own
// object (object-store/decoded.ts DecodedValues.write), the other finds it: the watch cache
// holds the very object the write answered, with the JSON answer kept beside it,
// and a failed write leaves nothing behind for a later event to pick up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeJson, jsonCodec } from '../../src/codecs/json.js';
import { encodeShared } from '../../src/codecs/shared-encoding.js';
import type { KubeObject } from '../../src/schema/object.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { openSqliteKv } from '../../src/storage/sqlite/index.js';
import type { Storage, StorageWatchEvent } from '../../src/storage/storage.js';

/** The test's one data field. */
const dataV = (obj: KubeObject | undefined): string | undefined => (obj as unknown as { data?: { v?: string } } | undefined)?.data?.v;

const cm = (name: string, v: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'd' }, data: { v } });

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function sqliteStore(): Storage {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-watched-write-'));
  dirs.push(dir);
  return createObjectStore({ kv: openSqliteKv({ path: join(dir, 'db'), synchronous: 'NORMAL' }) });
}

/** Collects a watch's events; `next(n)` waits (bounded) until n have arrived. */
function collect(store: Storage, prefix: string): { events: StorageWatchEvent[]; next: (n: number) => Promise<void>; close: () => void } {
  const events: StorageWatchEvent[] = [];
  const waiters: Array<() => void> = [];
  const watch = store.watch(prefix, {
    sendInitialEvents: false,
    onEvent: (e) => {
      events.push(e);
      for (const w of waiters.splice(0)) w();
    },
    onError: (err) => {
      throw err;
    },
  });
  const next = async (n: number): Promise<void> => {
    const deadline = Date.now() + 5000;
    while (events.length < n) {
      if (Date.now() > deadline) throw new Error(`only ${events.length} of ${n} events`);
      await new Promise<void>((ok) => {
        waiters.push(ok);
        setTimeout(ok, 50);
      });
    }
  };
  return { events, next, close: () => watch.close() };
}

describe('a watched write shares its object with its watch event (SQLite)', () => {
  it('create and update: the event object is the answered object, and its JSON is the kept answer', async () => {
    const store = sqliteStore();
    const watch = collect(store, '/cm/');
    try {
      const created = await store.create('/cm/a', cm('a', '1'));
      await watch.next(1);
      expect(watch.events[0]!.type).toBe('ADDED');
      expect(watch.events[0]!.object).toBe(created);
      expect(Object.isFrozen(created) && Object.isFrozen(created.metadata)).toBe(true);
      const kept = encodeShared(jsonCodec, created);
      expect(kept.toString('utf8')).toBe(encodeJson(created).toString('utf8'));
      expect(encodeShared(jsonCodec, watch.events[0]!.object)).toBe(kept);

      const updated = await store.guaranteedUpdate('/cm/a', { tryUpdate: ({ current }) => ({ ...current!, data: { v: '2' } }) as KubeObject });
      await watch.next(2);
      expect(watch.events[1]!.type).toBe('MODIFIED');
      expect(watch.events[1]!.object).toBe(updated.object);
      expect(watch.events[1]!.object.metadata.resourceVersion).toBe(updated.object.metadata.resourceVersion);
      expect(encodeShared(jsonCodec, updated.object).toString('utf8')).toBe(encodeJson(updated.object).toString('utf8'));
      // What a read returns now is that object too.
      expect(await store.get('/cm/a')).toBe(updated.object);
    } finally {
      watch.close();
      await store.close();
    }
  });

  it('writes committed together each keep their own object; a refused write leaves no trace', async () => {
    const store = sqliteStore();
    const watch = collect(store, '/cm/');
    try {
      // Issued in one turn, these commit in one batch: every event precedes every answer.
      const results = await Promise.allSettled([
        store.create('/cm/x', cm('x', '1')),
        store.create('/cm/y', cm('y', '1')),
        store.create('/cm/x', cm('x', 'duplicate')),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      await watch.next(2);
      const [x, y] = results.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
      expect(watch.events.map((e) => e.object)).toEqual([x, y]);
      expect(watch.events[0]!.object).toBe(x);
      expect(watch.events[1]!.object).toBe(y);
      expect(dataV(x)).toBe('1');
      // Deleting answers the last state at the deleting revision: a new object.
      await store.delete('/cm/x');
      await watch.next(3);
      expect(watch.events[2]!.type).toBe('DELETED');
      expect(watch.events[2]!.object).not.toBe(x);
      expect(dataV(watch.events[2]!.object)).toBe('1');
      expect(Number(watch.events[2]!.object.metadata.resourceVersion)).toBeGreaterThan(Number(x!.metadata.resourceVersion));
    } finally {
      watch.close();
      await store.close();
    }
  });
});
