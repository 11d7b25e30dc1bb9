// What the object store does with its KV, beyond the shared conformance suite:
// the bytes it stores, how it reports bad bytes, and how few KV calls it makes.
import { describe, expect, test } from 'vitest';
import { isStorageError } from '../../src/errors/storage-error.js';
import type { KV } from '../../src/storage/kv.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { countingKv } from '../support/counting-kv.js';
import type { KubeObject } from '../../src/schema/object.js';

const cm = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, uid: `u-${name}` }, data: { v: '1' } });

/** A memory KV that counts calls per method. */
const countingMemoryKv = () => countingKv(openMemoryKv());

describe('object store over a KV', () => {
  test('stored bytes carry neither resourceVersion nor selfLink', async () => {
    const kv = openMemoryKv();
    const store = createObjectStore({ kv });
    const created = await store.create('/r/a', { ...cm('a'), metadata: { ...cm('a').metadata, selfLink: '/api/v1/x' } });
    await store.guaranteedUpdate('/r/a', { tryUpdate: ({ current }) => ({ ...current!, data: { v: '2' } }) });
    const stored = JSON.parse(Buffer.from((await kv.get('/r/a'))!.value).toString('utf8'));
    expect(stored).toEqual({ ...cm('a'), data: { v: '2' } });
    expect(created.metadata.selfLink).toBeUndefined();
  });

  const corruptRows: { name: string; value: string }[] = [
    { name: 'not JSON', value: '{nope' },
    { name: 'JSON without metadata', value: '{"kind":"ConfigMap"}' },
    { name: 'JSON that is not an object', value: '[1,2]' },
  ];
  for (const row of corruptRows) {
    test(`bytes that are ${row.name} are InvalidObject on get, list and watch`, async () => {
      const kv = openMemoryKv();
      const store = createObjectStore({ kv });
      const start = await store.currentResourceVersion();
      await kv.create('/r/bad', Buffer.from(row.value));
      await expect(store.get('/r/bad')).rejects.toSatisfy((e) => isStorageError(e, 'InvalidObject'));
      await expect(store.list('/r/')).rejects.toSatisfy((e) => isStorageError(e, 'InvalidObject'));
      const errors: unknown[] = [];
      const events: unknown[] = [];
      const failed = new Promise<void>((resolve) => {
        store.watch('/r/', {
          resourceVersion: start,
          onEvent: (e) => events.push(e),
          onError: (err) => (errors.push(err), resolve()),
        });
      });
      await failed;
      expect(events).toEqual([]);
      expect(errors).toHaveLength(1);
      expect(isStorageError(errors[0], 'InvalidObject')).toBe(true);
    });
  }

  test('a lost update race retries from the entry the Conflict carries, with no extra read', async () => {
    const { kv, calls } = countingMemoryKv();
    const store = createObjectStore({ kv });
    await store.create('/r/a', cm('a'));
    let rounds = 0;
    await store.guaranteedUpdate('/r/a', {
      tryUpdate: async ({ current }) => {
        if (++rounds === 1) await store.guaranteedUpdate('/r/a', { tryUpdate: ({ current: c }) => ({ ...c!, data: { v: 'x' } }) });
        return { ...current!, data: { v: `round ${rounds}` } };
      },
    });
    expect(rounds).toBe(2);
    // One read for the outer update, one for the inner; the retry reads nothing.
    expect(calls['get']).toBe(2);
    expect(calls['put']).toBe(3);
  });

  test('a delete without preconditions is a single KV call', async () => {
    const { kv, calls } = countingMemoryKv();
    const store = createObjectStore({ kv });
    await store.create('/r/a', cm('a'));
    await store.delete('/r/a');
    expect(calls['get']).toBeUndefined();
    expect(calls['delete']).toBe(1);
  });

  const closeRows: { name: string; ownsKv: boolean | undefined; kvOpen: boolean }[] = [
    { name: 'closes the KV by default', ownsKv: undefined, kvOpen: false },
    { name: 'leaves a shared KV open', ownsKv: false, kvOpen: true },
  ];
  for (const row of closeRows) {
    test(`close ${row.name} and ends open watches`, async () => {
      const kv = openMemoryKv();
      const store = createObjectStore({ kv, ...(row.ownsKv === undefined ? {} : { ownsKv: row.ownsKv }) });
      const events: unknown[] = [];
      const errors: unknown[] = [];
      store.watch('/r/', { onEvent: (e) => events.push(e), onError: (e) => errors.push(e) });
      await store.close();
      if (row.kvOpen) {
        await kv.create('/r/a', Buffer.from(JSON.stringify(cm('a'))));
        // A second watcher sees the write, so the first would have by now.
        await new Promise<void>((resolve) => {
          const w = kv.watch('/r/', { afterRevision: 1, onEvents: () => (w.close(), resolve()), onError: () => undefined });
        });
      } else {
        await expect(kv.currentRevision()).rejects.toSatisfy((e) => isStorageError(e, 'Unavailable'));
      }
      expect(events).toEqual([]);
      expect(errors).toEqual([]);
    });
  }

  test('ping reports a failing backend as Unavailable', async () => {
    const kv = openMemoryKv();
    const broken: KV = Object.assign(Object.create(kv) as KV, {
      currentRevision: () => Promise.reject(new Error('connection refused')),
    });
    const err = await createObjectStore({ kv: broken }).ping().catch((e: unknown) => e);
    expect(isStorageError(err, 'Unavailable')).toBe(true);
    expect((err as Error).message).toContain('connection refused');
  });
});
