// The watch cache's watches beyond the shared suite: how the cache survives a
// broken backend watch (no change lost or doubled), re-lists after Compacted,
// bounds its history by time and count, cuts off a watcher that falls behind,
// and reports progress for bookmarks.
import { afterEach, describe, expect, test } from 'vitest';
import { isStorageError } from '../../src/errors/storage-error.js';
import type { KubeObject } from '../../src/schema/object.js';
import { createCacher, type CacherOptions, type CachingStorage } from '../../src/storage/cacher/index.js';
import { StorageError } from '../../src/errors/storage-error.js';
import { recordWatch } from '../../src/storage/testing/storage-suite/harness.js';
import { testBackend, type TestBackend } from './support/cacher-backend.js';

const PREFIX = '/configmaps/';
const cm = (name: string, v = '1'): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', uid: `u-${name}` }, data: { v } });
const key = (name: string): string => `${PREFIX}ns/${name}`;

let open: CachingStorage[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});

async function setup(opts: Partial<Omit<CacherOptions, 'backend'>> = {}): Promise<{ backend: TestBackend; cacher: CachingStorage }> {
  const backend = testBackend();
  const cacher = createCacher({ backend: backend.storage, retryMinMs: 20, freshnessTimeoutMs: 200, ...opts });
  open.push(cacher);
  await cacher.whenReady(PREFIX);
  return { backend, cacher };
}

const summary = (events: readonly { type: string; object: KubeObject }[]) => events.map((e) => `${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`);

describe('watch cache watches', () => {
  for (const rv of ['', '0']) {
    test(`resourceVersion ${JSON.stringify(rv)}: the state comes from memory (no backend list or watch), then live changes`, async () => {
      const { backend, cacher } = await setup();
      const a = await cacher.create(key('a'), cm('a'));
      await cacher.create(`/configmaps/other/x`, cm('x'));
      await cacher.list(PREFIX); // the cache has a's change
      const listed = backend.reads.list;
      const watched = backend.reads.watch;
      const w = recordWatch(cacher, `${PREFIX}ns/`, { resourceVersion: rv });
      try {
        await w.until('the state', () => w.events.length === 1);
        const b = await cacher.create(key('b'), cm('b'));
        await w.until('b', () => w.events.length === 2);
        expect(summary(w.events)).toEqual([`ADDED a ${a.metadata.resourceVersion}`, `ADDED b ${b.metadata.resourceVersion}`]);
        expect(backend.reads.list).toBe(listed);
        expect(backend.reads.watch).toBe(watched);
      } finally {
        w.close();
      }
    });
  }

  test('a broken backend watch is resumed from the last applied revision: nothing lost, nothing twice', async () => {
    const { backend, cacher } = await setup();
    const start = await cacher.currentResourceVersion();
    const w = recordWatch(cacher, PREFIX, { resourceVersion: start });
    try {
      const written: string[] = [];
      const a = await cacher.create(key('a'), cm('a'));
      written.push(`ADDED a ${a.metadata.resourceVersion}`);
      await w.until('a', () => w.events.length === 1);
      backend.breakWatches(new StorageError('Unavailable', 'connection reset'));
      // Written while the cache has no backend watch: replayed when it watches again.
      for (const n of ['b', 'c', 'd']) {
        const o = await cacher.create(key(n), cm(n));
        written.push(`ADDED ${n} ${o.metadata.resourceVersion}`);
      }
      await w.until('every write', () => w.events.length >= 4);
      expect(summary(w.events)).toEqual(written);
      expect(w.errors).toEqual([]);
      expect(backend.reads.watch).toBe(2);
      expect(backend.reads.list).toBe(1);
    } finally {
      w.close();
    }
  });

  test('a Compacted backend watch re-lists: watchers end with Compacted and the cache holds the new state', async () => {
    const { backend, cacher } = await setup();
    await cacher.create(key('a'), cm('a'));
    const w = recordWatch(cacher, PREFIX, { resourceVersion: '0' });
    backend.breakWatches(new StorageError('Compacted', 'required revision has been compacted'));
    await w.until('an error', () => w.errors.length > 0);
    expect(isStorageError(w.errors[0], 'Compacted')).toBe(true);
    await cacher.create(key('b'), cm('b'));
    const got = await cacher.list(PREFIX);
    expect(got.items.map((i) => i.metadata.name)).toEqual(['a', 'b']);
    expect(backend.reads.list).toBeGreaterThanOrEqual(2);
  });

  test('history older than the window is gone: a watch from there is Compacted, a newer one replays', async () => {
    let now = 0;
    const { cacher } = await setup({ clock: () => now, historyWindowMs: 60_000 });
    const a = await cacher.create(key('a'), cm('a'));
    now = 30_000;
    const b = await cacher.create(key('b'), cm('b'));
    now = 70_000; // a's change is 70 s old, b's 40 s
    const c = await cacher.create(key('c'), cm('c'));
    await cacher.list(PREFIX);
    const old = recordWatch(cacher, PREFIX, { resourceVersion: String(Number(a.metadata.resourceVersion) - 1) });
    const recent = recordWatch(cacher, PREFIX, { resourceVersion: a.metadata.resourceVersion! });
    try {
      await old.until('an error', () => old.errors.length > 0);
      expect(isStorageError(old.errors[0], 'Compacted')).toBe(true);
      expect(old.errors[0]!.message).toBe(`too old resource version: ${Number(a.metadata.resourceVersion) - 1} (${a.metadata.resourceVersion})`);
      await recent.until('b and c', () => recent.events.length === 2);
      expect(summary(recent.events)).toEqual([`ADDED b ${b.metadata.resourceVersion}`, `ADDED c ${c.metadata.resourceVersion}`]);
    } finally {
      old.close();
      recent.close();
    }
  });

  test('history keeps at most maxHistoryEvents changes', async () => {
    const { cacher } = await setup({ maxHistoryEvents: 2 });
    const first = await cacher.create(key('a'), cm('a'));
    for (const n of ['b', 'c']) await cacher.create(key(n), cm(n));
    await cacher.list(PREFIX);
    const w = recordWatch(cacher, PREFIX, { resourceVersion: String(Number(first.metadata.resourceVersion) - 1) });
    try {
      await w.until('an error', () => w.errors.length > 0);
      expect(isStorageError(w.errors[0], 'Compacted')).toBe(true);
    } finally {
      w.close();
    }
  });

  test('a watcher whose queue passes its bound is cut off with an error; the others go on', async () => {
    const { cacher } = await setup({ watcherBufferEvents: 2 });
    const start = await cacher.currentResourceVersion();
    const slow = recordWatch(cacher, PREFIX, { resourceVersion: start });
    // A burst the backend delivers as one batch: five changes queued before any flush.
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((n) => cacher.create(key(n), cm(n))));
    try {
      await slow.until('an error', () => slow.errors.length > 0);
      expect(isStorageError(slow.errors[0], 'Unavailable')).toBe(true);
      expect(slow.errors[0]!.message).toContain('fell behind');
      expect(slow.events).toEqual([]);
      // A watcher started afterwards from the same revision replays all five (a replay is not held to the bound).
      const late = recordWatch(cacher, PREFIX, { resourceVersion: start });
      await late.until('five events', () => late.events.length === 5);
      expect(late.errors).toEqual([]);
      late.close();
    } finally {
      slow.close();
    }
  });

  test('progress reports the cache revision once the queue is delivered (for bookmarks)', async () => {
    const { cacher } = await setup();
    const progress: string[] = [];
    const start = await cacher.currentResourceVersion();
    const w = cacher.watch(PREFIX, { resourceVersion: start, onEvent: () => undefined, onError: () => undefined, onProgress: (rv) => progress.push(rv) });
    try {
      const a = await cacher.create(key('a'), cm('a'));
      for (let i = 0; i < 100 && !progress.includes(a.metadata.resourceVersion!); i++) await new Promise((r) => setImmediate(r));
      expect(progress).toContain(a.metadata.resourceVersion);
    } finally {
      w.close();
    }
  });

  test('a watch asked for before the cache is ready starts once it is', async () => {
    const backend = testBackend();
    const cacher = createCacher({ backend: backend.storage });
    open.push(cacher);
    const start = await backend.storage.currentResourceVersion();
    const w = recordWatch(cacher, PREFIX, { resourceVersion: start });
    try {
      await cacher.whenReady(PREFIX);
      const a = await cacher.create(key('a'), cm('a'));
      await w.until('a', () => w.events.length === 1);
      expect(summary(w.events)).toEqual([`ADDED a ${a.metadata.resourceVersion}`]);
    } finally {
      w.close();
    }
  });
});
