// The watch cache's reads beyond the shared suite: which ones memory answers
// (the backend sees no read), how long "not older than" waits, snapshots for
// continue tokens and their expiry, and frozen answers.
import { afterEach, describe, expect, test } from 'vitest';
import { isStorageError } from '../../src/errors/storage-error.js';
import type { KubeObject } from '../../src/schema/object.js';
import { createCacher, type CachingStorage } from '../../src/storage/cacher/index.js';
import { testBackend, type TestBackend } from './support/cacher-backend.js';

const PREFIX = '/configmaps/';
const cm = (name: string, v = '1'): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', uid: `u-${name}` }, data: { v } });
const key = (name: string): string => `${PREFIX}ns/${name}`;

let open: CachingStorage[] = [];
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
});

async function setup(opts: { now?: () => number; snapshotTtlMs?: number; freshnessTimeoutMs?: number; maxHistoryEvents?: number } = {}): Promise<{ backend: TestBackend; cacher: CachingStorage }> {
  const backend = testBackend();
  const cacher = createCacher({
    backend: backend.storage,
    freshnessTimeoutMs: opts.freshnessTimeoutMs ?? 200,
    ...(opts.now ? { clock: opts.now } : {}),
    ...(opts.snapshotTtlMs === undefined ? {} : { snapshotTtlMs: opts.snapshotTtlMs }),
    ...(opts.maxHistoryEvents === undefined ? {} : { maxHistoryEvents: opts.maxHistoryEvents }),
  });
  open.push(cacher);
  await cacher.whenReady(PREFIX);
  return { backend, cacher };
}

describe('watch cache reads', () => {
  interface ServedRow {
    readonly name: string;
    readonly read: (c: CachingStorage, rv: string) => Promise<unknown>;
    readonly backendReads: { get: number; list: number };
  }
  // Reads after start-up; the cache's own initial list is subtracted.
  const servedRows: readonly ServedRow[] = [
    { name: 'a consistent list (RV unset) once the cache caught up', read: (c) => c.list(PREFIX), backendReads: { get: 0, list: 0 } },
    { name: 'an Any list (RV "0")', read: (c) => c.list(PREFIX, { resourceVersion: '0' }), backendReads: { get: 0, list: 0 } },
    { name: 'a NotOlderThan list', read: (c, rv) => c.list(PREFIX, { resourceVersion: rv, resourceVersionMatch: 'NotOlderThan' }), backendReads: { get: 0, list: 0 } },
    { name: 'an Exact list inside history', read: (c, rv) => c.list(PREFIX, { resourceVersion: rv, resourceVersionMatch: 'Exact' }), backendReads: { get: 0, list: 0 } },
    { name: 'a paged list with a namespace prefix', read: (c) => c.list(`${PREFIX}ns/`, { limit: 1 }), backendReads: { get: 0, list: 0 } },
    { name: 'an Any get', read: (c) => c.get(key('a'), { resourceVersion: '0' }), backendReads: { get: 0, list: 0 } },
    { name: 'a NotOlderThan get', read: (c, rv) => c.get(key('a'), { resourceVersion: rv }), backendReads: { get: 0, list: 0 } },
    { name: 'a consistent get goes to the backend (as kube-apiserver does)', read: (c) => c.get(key('a')), backendReads: { get: 1, list: 0 } },
    { name: 'an Exact get goes to the backend', read: (c, rv) => c.get(key('a'), { resourceVersion: rv, resourceVersionMatch: 'Exact' }), backendReads: { get: 1, list: 0 } },
  ];
  for (const row of servedRows) {
    test(`served: ${row.name}`, async () => {
      const { backend, cacher } = await setup();
      const a = await cacher.create(key('a'), cm('a'));
      await cacher.create(key('b'), cm('b'));
      await cacher.list(PREFIX); // catches up
      const before = { get: backend.reads.get, list: backend.reads.list };
      await row.read(cacher, a.metadata.resourceVersion!);
      expect({ get: backend.reads.get - before.get, list: backend.reads.list - before.list }).toEqual(row.backendReads);
    });
  }

  test('answers are deep-frozen and shared', async () => {
    const { cacher } = await setup();
    await cacher.create(key('a'), cm('a'));
    const first = await cacher.list(PREFIX);
    const second = await cacher.list(PREFIX, { resourceVersion: '0' });
    expect(Object.isFrozen(first.items[0])).toBe(true);
    expect(Object.isFrozen(first.items[0]!.metadata)).toBe(true);
    expect(second.items[0]).toBe(first.items[0]);
    expect(await cacher.get(key('a'), { resourceVersion: '0' })).toBe(first.items[0]);
  });

  test('a resourceVersion not reached yet waits, and is served once a write reaches it', async () => {
    const { cacher } = await setup({ freshnessTimeoutMs: 5_000 });
    const a = await cacher.create(key('a'), cm('a'));
    const next = String(Number(a.metadata.resourceVersion) + 1);
    const read = cacher.list(PREFIX, { resourceVersion: next, resourceVersionMatch: 'NotOlderThan' });
    await cacher.create(key('b'), cm('b'));
    const got = await read;
    expect(got.items.map((i) => i.metadata.name)).toEqual(['a', 'b']);
    expect(Number(got.resourceVersion)).toBeGreaterThanOrEqual(Number(next));
  });

  test('a resourceVersion never reached is FutureRevision with the current one after the bound', async () => {
    const { cacher } = await setup({ freshnessTimeoutMs: 50 });
    const a = await cacher.create(key('a'), cm('a'));
    await cacher.list(PREFIX);
    let caught: unknown;
    try {
      await cacher.get(key('a'), { resourceVersion: '999999' });
    } catch (err) {
      caught = err;
    }
    expect(isStorageError(caught, 'FutureRevision')).toBe(true);
    expect((caught as Error).message).toBe(`Too large resource version: 999999, current: ${a.metadata.resourceVersion}`);
  });

  test('a continue token reads its snapshot until the TTL, then the backend', async () => {
    let now = 1_000_000;
    // One event of history: two later writes push the first page's revision out of
    // it, so only the kept snapshot can still serve that revision.
    const { backend, cacher } = await setup({ now: () => now, snapshotTtlMs: 75_000, maxHistoryEvents: 1 });
    for (const n of ['a', 'b', 'c']) await cacher.create(key(n), cm(n));
    const first = await cacher.list(PREFIX, { limit: 1 });
    expect(first.remainingItemCount).toBe(2);
    await cacher.guaranteedUpdate(key('b'), { tryUpdate: ({ current }) => ({ ...current!, data: { v: '2' } }) });
    const later = await cacher.guaranteedUpdate(key('b'), { tryUpdate: ({ current }) => ({ ...current!, data: { v: '3' } }) });
    await cacher.list(PREFIX); // the cache has applied both
    const before = backend.reads.list;
    const second = await cacher.list(PREFIX, { limit: 1, continue: first.continue! });
    expect(second.items.map((i) => i.data)).toEqual([{ v: '1' }]);
    expect(second.resourceVersion).toBe(first.resourceVersion);
    expect(backend.reads.list).toBe(before);
    now += 75_001;
    const third = await cacher.list(PREFIX, { limit: 1, continue: second.continue! });
    expect(backend.reads.list).toBe(before + 1);
    expect(third.items.map((i) => i.metadata.name)).toEqual(['c']);
    expect(later.object.metadata.resourceVersion).not.toBe(first.resourceVersion);
  });

  test('a consistent read the cache cannot confirm in time reads the backend, and the next ones skip the wait for a while', async () => {
    let now = 0;
    const backend = testBackend({ progress: false });
    const cacher = createCacher({ backend: backend.storage, clock: () => now, consistentReadTimeoutMs: 50 });
    open.push(cacher);
    await cacher.whenReady(PREFIX);
    await cacher.create(key('a'), cm('a'));
    await cacher.list(PREFIX);
    // A write to another resource moves the backend's revision; a backend without
    // progress reports tells this cache's watch nothing about it, so the cache
    // cannot show it caught up.
    await cacher.create('/secrets/ns/s', cm('s'));
    const before = backend.reads.list;
    expect((await cacher.list(PREFIX)).items.map((i) => i.metadata.name)).toEqual(['a']);
    expect(backend.reads.list).toBe(before + 1);
    const started = Date.now();
    await cacher.list(PREFIX);
    expect(Date.now() - started).toBeLessThan(50);
    expect(backend.reads.list).toBe(before + 2);
    // Later the cache is tried again: a write here brings it up to date.
    now += 5_001;
    await cacher.create(key('b'), cm('b'));
    expect((await cacher.list(PREFIX)).items.map((i) => i.metadata.name)).toEqual(['a', 'b']);
    expect(backend.reads.list).toBe(before + 2);
  });

  test('a backend that reports progress lets a quiet resource answer a consistent read from memory after writes elsewhere', async () => {
    const backend = testBackend();
    const cacher = createCacher({ backend: backend.storage, consistentReadTimeoutMs: 60_000 });
    open.push(cacher);
    await cacher.whenReady(PREFIX);
    await cacher.create(key('a'), cm('a'));
    await cacher.list(PREFIX);
    const other = await cacher.create('/secrets/ns/s', cm('s'));
    const before = backend.reads.list;
    const listed = await cacher.list(PREFIX);
    expect(listed.items.map((i) => i.metadata.name)).toEqual(['a']);
    // Not older than the write elsewhere: the cache saw the revision move on.
    expect(Number(listed.resourceVersion)).toBeGreaterThanOrEqual(Number(other.metadata.resourceVersion));
    expect(backend.reads.list).toBe(before);
  });

  test('keys outside any resource go to the backend uncached', async () => {
    const { backend, cacher } = await setup();
    await cacher.create('/toplevel', cm('t'));
    const before = backend.reads.list;
    await cacher.list('/');
    expect(backend.reads.list).toBe(before + 1);
  });
});
