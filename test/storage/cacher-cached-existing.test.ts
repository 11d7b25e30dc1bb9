// The watch cache hands its copy of an object to the writes it passes on
// (kube's Cacher.GuaranteedUpdate / Delete with cachedExistingObject): with the
// cache in step, an update or a conditional delete reads nothing from the
// backend; with the cache behind a write made directly to the backend, no write
// is lost and nothing the stored object allows is refused.
import { afterEach, describe, expect, test } from 'vitest';
import { isStorageError } from '../../src/errors/storage-error.js';
import type { KubeObject } from '../../src/schema/object.js';
import { createCacher, type CachingStorage } from '../../src/storage/cacher/index.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { countingKv } from '../support/counting-kv.js';
import type { Storage, StorageWatchOptions } from '../../src/storage/storage.js';

const PREFIX = '/r/';
const KEY = '/r/a';

const cm = (uid: string, v: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', uid }, data: { v } });
const withData = (obj: KubeObject, v: string): KubeObject => ({ ...obj, data: { v } });
const dataOf = (obj: KubeObject | undefined): string | undefined => (obj as { data?: { v?: string } } | undefined)?.data?.v;

interface Rig {
  readonly cacher: CachingStorage;
  /** The object store under the cache: writes here reach the cache only through its watch. */
  readonly backend: Storage;
  /** KV calls by method since the last reset(). */
  readonly calls: Record<string, number>;
  reset(): void;
  /** Holds back what the backend's watches deliver (events and progress) until release(). */
  hold(): void;
  release(): void;
}

function rig(): Rig {
  const { kv, calls } = countingKv(openMemoryKv());
  const store = createObjectStore({ kv });
  let held: (() => void)[] | undefined;
  const later = (fn: () => void): void => (held === undefined ? fn() : void held.push(fn));
  const backend: Storage = Object.assign(Object.create(store) as Storage, {
    watch: (prefix: string, opts: StorageWatchOptions) =>
      store.watch(prefix, {
        ...opts,
        onEvent: (e) => later(() => opts.onEvent(e)),
        onProgress: (rv) => later(() => opts.onProgress?.(rv)),
      }),
  });
  const cacher = createCacher({ backend, resourcePrefix: () => PREFIX });
  return {
    cacher,
    backend,
    calls,
    reset: () => Object.keys(calls).forEach((k) => delete calls[k]),
    hold: () => void (held ??= []),
    release: () => {
      const queued = held ?? [];
      held = undefined;
      for (const fn of queued) fn();
    },
  };
}

/** Resolves once the cache serves `key` at `resourceVersion` (bounded). */
async function cacheHas(cacher: Storage, key: string, resourceVersion: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const got = await cacher.get(key, { resourceVersion: '0' }).catch(() => undefined);
    if (got?.metadata.resourceVersion === resourceVersion) return;
    if (Date.now() > deadline) throw new Error(`cache never reached ${key}@${resourceVersion}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

let open: Rig | undefined;
afterEach(async () => {
  open?.release();
  await open?.cacher.close();
  open = undefined;
});

/** A ready cache holding KEY at data "2" (its second revision). */
async function readyRig(): Promise<{ r: Rig; current: KubeObject }> {
  const r = (open = rig());
  await r.cacher.whenReady(PREFIX);
  await r.cacher.create(KEY, cm('u-a', '1'));
  const current = (await r.cacher.guaranteedUpdate(KEY, { tryUpdate: ({ current: c }) => withData(c!, '2') })).object;
  await cacheHas(r.cacher, KEY, current.metadata.resourceVersion!);
  r.reset();
  return { r, current };
}

describe('watch cache writes start from its copy', () => {
  test('an update through a cache in step reads nothing from the backend', async () => {
    const { r, current } = await readyRig();
    const seen: unknown[] = [];
    const res = await r.cacher.guaranteedUpdate(KEY, { tryUpdate: ({ current: c }) => (seen.push(c), withData(c!, '3')) });
    expect(seen).toEqual([current]);
    expect(r.calls['get']).toBeUndefined();
    expect(r.calls['put']).toBe(1);
    expect(dataOf(await r.backend.get(KEY))).toBe('3');
    expect(res.object.metadata.resourceVersion).toBe((await r.backend.get(KEY)).metadata.resourceVersion);
  });

  test('a conditional delete through a cache in step reads nothing from the backend', async () => {
    const { r } = await readyRig();
    const deleted = await r.cacher.delete(KEY, { preconditions: { uid: 'u-a' }, validateDeletion: () => undefined });
    expect(dataOf(deleted)).toBe('2');
    expect(r.calls['get']).toBeUndefined();
    expect(await r.backend.get(KEY).catch((e: unknown) => isStorageError(e, 'NotFound'))).toBe(true);
  });

  test('with the cache behind a direct backend write, the update lands on the newest object', async () => {
    const { r } = await readyRig();
    r.hold();
    await r.backend.guaranteedUpdate(KEY, { tryUpdate: ({ current: c }) => withData(c!, `${dataOf(c)}+theirs`) });
    const seen: (string | undefined)[] = [];
    const res = await r.cacher.guaranteedUpdate(KEY, { tryUpdate: ({ current: c }) => (seen.push(dataOf(c)), withData(c!, `${dataOf(c)}+mine`)) });
    // The cache's copy first, then the stored object the lost compare-and-swap handed back.
    expect(seen).toEqual(['2', '2+theirs']);
    expect(dataOf(res.object)).toBe('2+theirs+mine');
    r.release();
    await cacheHas(r.cacher, KEY, res.object.metadata.resourceVersion!);
    expect(dataOf(await r.cacher.get(KEY, { resourceVersion: '0' }))).toBe('2+theirs+mine');
  });

  test('with the cache behind, a precondition on the newest resourceVersion holds', async () => {
    const { r } = await readyRig();
    r.hold();
    const theirs = (await r.backend.guaranteedUpdate(KEY, { tryUpdate: ({ current: c }) => withData(c!, 'theirs') })).object;
    const res = await r.cacher.guaranteedUpdate(KEY, {
      preconditions: { resourceVersion: theirs.metadata.resourceVersion! },
      tryUpdate: ({ current: c }) => withData(c!, `${dataOf(c)}+mine`),
    });
    expect(dataOf(res.object)).toBe('theirs+mine');
  });

  test('with the cache behind, an update that is a no-op against its copy is still written', async () => {
    const { r, current } = await readyRig();
    r.hold();
    await r.backend.guaranteedUpdate(KEY, { tryUpdate: ({ current: c }) => withData(c!, 'theirs') });
    // Setting "2" changes nothing in the cache's copy, but the stored object holds "theirs".
    const res = await r.cacher.guaranteedUpdate(KEY, { tryUpdate: ({ current: c }) => withData(c!, '2') });
    expect(Number(res.object.metadata.resourceVersion)).toBeGreaterThan(Number(current.metadata.resourceVersion) + 1);
    expect(dataOf(await r.backend.get(KEY))).toBe('2');
  });

  test('with the cache behind a delete and re-create, a delete on the new uid deletes it', async () => {
    const { r } = await readyRig();
    r.hold();
    await r.backend.delete(KEY);
    await r.backend.create(KEY, cm('u-new', 'new'));
    const deleted = await r.cacher.delete(KEY, { preconditions: { uid: 'u-new' } });
    expect(deleted.metadata.uid).toBe('u-new');
    expect(await r.backend.get(KEY).catch((e: unknown) => isStorageError(e, 'NotFound'))).toBe(true);
  });

  test('a write starts no cache; without one the update reads the backend', async () => {
    const r = (open = rig());
    await r.backend.create(KEY, cm('u-a', '1'));
    r.reset();
    const res = await r.cacher.guaranteedUpdate(KEY, { tryUpdate: ({ current: c }) => withData(c!, '2') });
    expect(dataOf(res.object)).toBe('2');
    expect(r.calls['get']).toBe(1);
    expect(r.calls['list']).toBeUndefined();
    expect(r.calls['watch']).toBeUndefined();
  });

  test('a hint the caller passes is replaced by the cache\'s copy', async () => {
    const { r } = await readyRig();
    const bogus = { ...cm('u-bogus', 'bogus'), metadata: { name: 'a', uid: 'u-bogus', resourceVersion: '1' } };
    const seen: (string | undefined)[] = [];
    await r.cacher.guaranteedUpdate(KEY, { cachedExisting: bogus, tryUpdate: ({ current: c }) => (seen.push(dataOf(c)), withData(c!, '3')) });
    expect(seen).toEqual(['2']);
    expect(r.calls['get']).toBeUndefined();
  });
});
