// The controller runner (server/controller-runner.ts) over a real registry, with the
// watch cache and without: it lists every key at start and watches from the list's
// version (so it does not depend on whether a watch at ""/"0" replays the current
// state), re-lists after a 410 and syncs the keys of objects that went meanwhile,
// retries with backoff, and requeues a key after the delay its sync asks for.
import { afterEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { configMaps } from '../../src/apis/core/v1/index.js';
import { builtinResources } from '../../src/apis/index.js';
import { StorageError } from '../../src/errors/storage-error.js';
import { createRegistry, type Registry } from '../../src/registry/registry.js';
import type { KubeObject } from '../../src/schema/object.js';
import { MAX_REQUEUE_DELAY_MS, requeueAt, runKeyedController, type RunningController, type SyncResult } from '../../src/server/controller-runner.js';
import { createCacher } from '../../src/storage/cacher/index.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import type { Storage, StorageListOptions, StorageListResult, StorageWatch, StorageWatchOptions } from '../../src/storage/storage.js';

const silent = { info: () => undefined, warn: () => undefined };

async function until(what: string, check: () => boolean | Promise<boolean>, boundMs = 5000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/**
 * A Storage that records the watches opened on it, can end them all with 410
 * (what a compaction does to a watcher), and can hold lists until released.
 */
class Breakable implements Storage {
  readonly watches: { prefix: string; opts: StorageWatchOptions; inner: StorageWatch }[] = [];
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  lists = 0;

  constructor(private readonly inner: Storage) {}

  holdLists(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  releaseLists(): void {
    this.open?.();
    this.gate = undefined;
  }

  expireWatches(): void {
    for (const w of this.watches.splice(0)) {
      w.inner.close();
      w.opts.onError(new StorageError('Compacted', 'too old resource version'));
    }
  }

  create = (key: string, obj: KubeObject) => this.inner.create(key, obj);
  get = (...args: Parameters<Storage['get']>) => this.inner.get(...args);
  async list(prefix: string, opts?: StorageListOptions): Promise<StorageListResult> {
    this.lists += 1;
    await this.gate;
    return this.inner.list(prefix, opts);
  }
  guaranteedUpdate = (...args: Parameters<Storage['guaranteedUpdate']>) => this.inner.guaranteedUpdate(...args);
  delete = (...args: Parameters<Storage['delete']>) => this.inner.delete(...args);
  watch(prefix: string, opts: StorageWatchOptions): StorageWatch {
    const inner = this.inner.watch(prefix, opts);
    const entry = { prefix, opts, inner };
    this.watches.push(entry);
    return {
      close: () => {
        inner.close();
        const i = this.watches.indexOf(entry);
        if (i >= 0) this.watches.splice(i, 1);
      },
    };
  }
  count = (prefix: string) => this.inner.count(prefix);
  currentResourceVersion = () => this.inner.currentResourceVersion();
  ping = () => this.inner.ping();
  close = () => this.inner.close();
}

const storages: [string, () => Storage][] = [
  ['watch cache off', () => createObjectStore({ kv: openMemoryKv() })],
  ['watch cache on', () => createCacher({ backend: createObjectStore({ kv: openMemoryKv() }) })],
];

describe.each(storages)('runKeyedController (%s)', (_label, open) => {
  let runner: RunningController | undefined;
  let storage: Breakable;
  let registry: Registry;

  const setup = async (names: string[]): Promise<void> => {
    storage = new Breakable(open());
    registry = createRegistry({ storage, resources: builtinResources, admission: createAdmissionChain(), clock: () => new Date() });
    await registry.store({ group: '', version: 'v1', resource: 'namespaces' }).create({ metadata: { name: 'ns' } });
    for (const name of names) await cms().create({ metadata: { name }, data: { v: '1' } }, { namespace: 'ns' });
  };
  const cms = () => registry.store(configMaps);
  const present = async (name: string): Promise<boolean> => (await cms().list({ namespace: 'ns' })).items.some((o) => o.metadata.name === name);

  afterEach(async () => {
    runner?.stop();
    runner = undefined;
    await storage.close();
  });

  const start = (sync: (key: string) => Promise<SyncResult>) => {
    runner = runKeyedController({
      name: 'test',
      registry,
      logger: silent,
      retry: { initialMs: 5, maxMs: 20 },
      watches: [{ definition: configMaps, keyOf: (o) => o.metadata.name }],
      sync,
    });
  };

  test('every existing key syncs at start, then each change; the watch starts at the list\'s version', async () => {
    await setup(['a', 'b']);
    const synced: string[] = [];
    start(async (key) => (synced.push(key), 'done'));
    await until('the existing keys', () => synced.includes('a') && synced.includes('b'));
    await until('the watch', () => storage.watches.length === 1);
    const rv = storage.watches[0]!.opts.resourceVersion ?? '';
    // A version, never ""/"0": whether such a watch replays the current state does not matter here.
    expect(rv).toMatch(/^[1-9]\d*$/);
    await cms().create({ metadata: { name: 'c' } }, { namespace: 'ns' });
    await until('the new key', () => synced.includes('c'));
    expect(synced.filter((k) => k === 'a')).toEqual(['a']);
  });

  test('after a 410 it lists again; keys of objects deleted while no watch was open sync too', async () => {
    await setup(['a', 'b']);
    const synced: string[] = [];
    const seenAbsent: string[] = [];
    start(async (key) => {
      synced.push(key);
      if (!(await present(key))) seenAbsent.push(key);
      return 'done';
    });
    await until('the watch', () => storage.watches.length === 1 && synced.includes('b'));
    const listsBefore = storage.lists;
    storage.holdLists();
    storage.expireWatches();
    await until('the re-list to start', () => storage.lists > listsBefore);
    // Gone while nothing watched: only the re-list can tell.
    await cms().delete({ namespace: 'ns', name: 'b' });
    synced.length = 0;
    storage.releaseLists();
    await until('the deleted key to sync', () => seenAbsent.includes('b'));
    await until('a new watch', () => storage.watches.length === 1);
    await cms().create({ metadata: { name: 'c' } }, { namespace: 'ns' });
    await until('changes to be followed again', () => synced.includes('c'));
  });

  test('retry and a throwing sync are retried with the backoff until done', async () => {
    await setup(['a']);
    let calls = 0;
    start(async () => {
      calls += 1;
      if (calls === 1) return 'retry';
      if (calls === 2) throw new Error('boom');
      return 'done';
    });
    await until('the third try', () => calls === 3);
  });

  test('{ after } syncs the key again then; an event in between syncs it at once', async () => {
    await setup(['a']);
    const times: number[] = [];
    let answer: SyncResult = { after: 40 };
    start(async () => {
      times.push(Date.now());
      const now = answer;
      answer = 'done';
      return now;
    });
    await until('the delayed sync', () => times.length === 2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(35);

    // A long delay, then a change: synced at once, and the new answer ('done') drops the timer.
    answer = { after: 60_000 };
    await cms().update({ metadata: { name: 'a' }, data: { v: '2' } }, { namespace: 'ns', name: 'a' });
    await until('the event\'s sync', () => times.length === 3);
    await cms().update({ metadata: { name: 'a' }, data: { v: '3' } }, { namespace: 'ns', name: 'a' });
    await until('the next event\'s sync', () => times.length === 4);
  });

  test('a delay past setTimeout\'s limit is capped, not fired at once', async () => {
    await setup(['far', 'near']);
    const synced: string[] = [];
    start(async (key) => {
      synced.push(key);
      const n = synced.filter((k) => k === key).length;
      if (key === 'far') return { after: 2 ** 31 + 10 };
      return n < 3 ? { after: 5 } : 'done';
    });
    // 'near' syncs three times over its short delays; an overflowing timer would have re-run 'far' by then.
    await until('near three times', () => synced.filter((k) => k === 'near').length === 3);
    expect(synced.filter((k) => k === 'far')).toEqual(['far']);
    expect(MAX_REQUEUE_DELAY_MS).toBeLessThan(2 ** 31 - 1);
  });

  test('stop ends watches and timers', async () => {
    await setup(['a']);
    let calls = 0;
    start(async () => ((calls += 1), { after: 5 }));
    await until('a delayed sync', () => calls >= 2);
    await until('the watch', () => storage.watches.length === 1);
    runner!.stop();
    expect(storage.watches).toHaveLength(0);
    const stoppedAt = calls;
    // A clock to wait on: another runner whose key syncs every 5 ms as the stopped one's did.
    let control = 0;
    const other = runKeyedController({
      name: 'control',
      registry,
      logger: silent,
      watches: [{ definition: configMaps, keyOf: (o) => o.metadata.name }],
      sync: async () => ((control += 1), { after: 5 }),
    });
    try {
      await until('the control key to sync five times', () => control >= 5);
    } finally {
      other.stop();
    }
    expect(calls).toBe(stoppedAt);
  });
});

describe('requeueAt', () => {
  test('waits until the time, at once when past, not at all without one', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    expect(requeueAt(new Date('2026-06-01T00:00:01.5Z'), now)).toEqual({ after: 1500 });
    expect(requeueAt(new Date('2026-05-01T00:00:00Z'), now)).toEqual({ after: 0 });
    expect(requeueAt(undefined, now)).toBe('done');
  });
});
