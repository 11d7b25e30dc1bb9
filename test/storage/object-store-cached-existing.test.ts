// guaranteedUpdate and delete given the watch cache's copy of the object
// (cachedExisting, kube's cachedExistingObject), over memory, SQLite and etcd: a
// fresh copy saves the read; a stale one never loses a write, never refuses what
// the stored object allows, and is never taken for the stored bytes.
import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { isStorageError } from '../../src/errors/storage-error.js';
import type { KubeObject } from '../../src/schema/object.js';
import { openEtcdKv } from '../../src/storage/etcd/index.js';
import type { KV } from '../../src/storage/kv.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { openSqliteKv } from '../../src/storage/sqlite/index.js';
import type { Storage } from '../../src/storage/storage.js';
import { countingKv } from '../support/counting-kv.js';
import { describeWithEtcd } from '../support/etcd.js';

const KEY = '/r/a';

const cm = (uid: string, v: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', uid }, data: { v } });
const withData = (obj: KubeObject, v: string): KubeObject => ({ ...obj, data: { v } });
const dataOf = (obj: KubeObject | undefined): string | undefined => (obj as { data?: { v?: string } } | undefined)?.data?.v;

/** Counts the KV calls the store makes (get is the read a fresh hint saves). */
const counting = countingKv;

interface Ctx {
  readonly store: Storage;
  /** KV calls since the case's setup; reset after it. */
  readonly calls: Record<string, number>;
  /** The object as first created (uid u-a, data "1"): a stale hint once `current` exists. */
  readonly first: KubeObject;
  /** The stored object after one update (data "2"). */
  readonly current: KubeObject;
}

interface Case {
  readonly name: string;
  readonly run: (ctx: Ctx) => Promise<void>;
}

const calls = (ctx: Ctx, method: string): number => ctx.calls[method] ?? 0;

const updateCases: Case[] = [
  {
    name: 'a fresh hint: the first attempt reads nothing',
    run: async (ctx) => {
      const seen: unknown[] = [];
      const res = await ctx.store.guaranteedUpdate(KEY, {
        cachedExisting: ctx.current,
        tryUpdate: ({ current }) => (seen.push(current), withData(current!, '3')),
      });
      expect(seen).toEqual([ctx.current]);
      expect(calls(ctx, 'get')).toBe(0);
      expect(calls(ctx, 'put')).toBe(1);
      expect(dataOf(res.object)).toBe('3');
      expect(dataOf(await ctx.store.get(KEY))).toBe('3');
    },
  },
  {
    name: 'a stale hint: the write lands on the newest object, from the entry the conflict carries',
    run: async (ctx) => {
      const seen: (string | undefined)[] = [];
      const res = await ctx.store.guaranteedUpdate(KEY, {
        cachedExisting: ctx.first,
        tryUpdate: ({ current }) => (seen.push(dataOf(current)), withData(current!, `${dataOf(current)}+mine`)),
      });
      expect(seen).toEqual(['1', '2']);
      expect(calls(ctx, 'get')).toBe(0);
      expect(dataOf(res.object)).toBe('2+mine');
      expect(Number(res.object.metadata.resourceVersion)).toBeGreaterThan(Number(ctx.current.metadata.resourceVersion));
      expect(dataOf(await ctx.store.get(KEY))).toBe('2+mine');
    },
  },
  {
    name: 'a resourceVersion precondition of the stored object is not refused for a stale hint',
    run: async (ctx) => {
      const res = await ctx.store.guaranteedUpdate(KEY, {
        cachedExisting: ctx.first,
        preconditions: { resourceVersion: ctx.current.metadata.resourceVersion! },
        tryUpdate: ({ current }) => withData(current!, `${dataOf(current)}+mine`),
      });
      expect(dataOf(res.object)).toBe('2+mine');
      expect(calls(ctx, 'get')).toBe(1);
    },
  },
  {
    name: 'a uid precondition of a recreated object is not refused for a hint of the old one',
    run: async (ctx) => {
      await ctx.store.delete(KEY);
      await ctx.store.create(KEY, cm('u-new', 'new'));
      const res = await ctx.store.guaranteedUpdate(KEY, {
        cachedExisting: ctx.current,
        preconditions: { uid: 'u-new' },
        tryUpdate: ({ current }) => withData(current!, `${dataOf(current)}+mine`),
      });
      expect(res.object.metadata.uid).toBe('u-new');
      expect(dataOf(await ctx.store.get(KEY))).toBe('new+mine');
    },
  },
  {
    name: 'a precondition the stored object fails too is refused after one read, tryUpdate never called',
    run: async (ctx) => {
      let tried = 0;
      const err = await ctx.store
        .guaranteedUpdate(KEY, { cachedExisting: ctx.current, preconditions: { uid: 'other' }, tryUpdate: ({ current }) => (tried++, current!) })
        .catch((e: unknown) => e);
      expect(isStorageError(err, 'PreconditionFailed')).toBe(true);
      expect((err as Error).message).toBe('Precondition failed: UID in precondition: other, UID in object meta: u-a');
      expect(tried).toBe(0);
      expect(calls(ctx, 'get')).toBe(1);
      expect(calls(ctx, 'put')).toBe(0);
    },
  },
  {
    name: 'tryUpdate refusing a stale hint is asked again with the stored object',
    run: async (ctx) => {
      const seen: (string | undefined)[] = [];
      const res = await ctx.store.guaranteedUpdate(KEY, {
        cachedExisting: ctx.first,
        // As the registry refuses a client's resourceVersion that is not the object's.
        tryUpdate: ({ current }) => {
          seen.push(dataOf(current));
          if (current?.metadata.resourceVersion !== ctx.current.metadata.resourceVersion) throw new Error('conflict');
          return withData(current!, 'mine');
        },
      });
      expect(seen).toEqual(['1', '2']);
      expect(dataOf(res.object)).toBe('mine');
      expect(calls(ctx, 'get')).toBe(1);
    },
  },
  {
    name: 'tryUpdate refusing a fresh hint: its error after one read, without a second call',
    run: async (ctx) => {
      let tried = 0;
      const refusal = new Error('refused');
      const err = await ctx.store
        .guaranteedUpdate(KEY, { cachedExisting: ctx.current, tryUpdate: () => (tried++, Promise.reject(refusal)) })
        .catch((e: unknown) => e);
      expect(err).toBe(refusal);
      expect(tried).toBe(1);
      expect(calls(ctx, 'get')).toBe(1);
      expect(calls(ctx, 'put')).toBe(0);
    },
  },
  {
    name: 'a no-op against a stale hint is a change of the stored object, and is written',
    run: async (ctx) => {
      // Data "1" is what the stale hint holds: nothing to write against it, but the store holds "2".
      const res = await ctx.store.guaranteedUpdate(KEY, { cachedExisting: ctx.first, tryUpdate: ({ current }) => withData(current!, '1') });
      expect(dataOf(res.object)).toBe('1');
      expect(Number(res.object.metadata.resourceVersion)).toBeGreaterThan(Number(ctx.current.metadata.resourceVersion));
      expect(calls(ctx, 'put')).toBe(1);
      const stored = await ctx.store.get(KEY);
      expect(dataOf(stored)).toBe('1');
      expect(stored.metadata.resourceVersion).toBe(res.object.metadata.resourceVersion);
    },
  },
  {
    name: 'a no-op against a fresh hint writes nothing, once a read confirms it',
    run: async (ctx) => {
      const before = await ctx.store.currentResourceVersion();
      const res = await ctx.store.guaranteedUpdate(KEY, { cachedExisting: ctx.current, tryUpdate: ({ current }) => current! });
      expect(res).toEqual({ object: ctx.current, created: false });
      expect(calls(ctx, 'get')).toBe(1);
      expect(calls(ctx, 'put')).toBe(0);
      expect(await ctx.store.currentResourceVersion()).toBe(before);
    },
  },
  {
    name: 'a hint the store handed out is compared by its stored bytes: the no-op check encodes only the update',
    run: async (ctx) => {
      const stringify = JSON.stringify;
      let encodes = 0;
      // An object is encoded whole or member by member (its metadata once either way).
      const isEncodeOfObject = (v: unknown): boolean => typeof v === 'object' && v !== null && ('metadata' in v || 'uid' in v);
      JSON.stringify = ((...a: Parameters<typeof JSON.stringify>) => (isEncodeOfObject(a[0]) && encodes++, stringify(...a))) as typeof JSON.stringify;
      try {
        await ctx.store.guaranteedUpdate(KEY, { cachedExisting: ctx.current, tryUpdate: ({ current }) => current! });
      } finally {
        JSON.stringify = stringify;
      }
      expect(encodes).toBe(1);
      expect(calls(ctx, 'put')).toBe(0);
    },
  },
  {
    name: 'a hint of a deleted object: NotFound without allowCreate',
    run: async (ctx) => {
      await ctx.store.delete(KEY);
      const err = await ctx.store.guaranteedUpdate(KEY, { cachedExisting: ctx.current, tryUpdate: ({ current }) => withData(current!, 'x') }).catch((e: unknown) => e);
      expect(isStorageError(err, 'NotFound')).toBe(true);
      expect(await ctx.store.get(KEY).catch((e: unknown) => isStorageError(e, 'NotFound'))).toBe(true);
    },
  },
  {
    name: 'a hint of a deleted object with allowCreate: created from nothing',
    run: async (ctx) => {
      await ctx.store.delete(KEY);
      const seen: unknown[] = [];
      const res = await ctx.store.guaranteedUpdate(KEY, {
        cachedExisting: ctx.current,
        allowCreate: true,
        tryUpdate: ({ current }) => (seen.push(current === undefined ? 'absent' : dataOf(current)), cm('u-b', 'b')),
      });
      expect(seen).toEqual(['2', 'absent']);
      expect(res.created).toBe(true);
      expect((await ctx.store.get(KEY)).metadata.uid).toBe('u-b');
    },
  },
  {
    name: 'a hint without a usable resourceVersion is not used',
    run: async (ctx) => {
      const hint = { ...ctx.first, metadata: { ...ctx.first.metadata, resourceVersion: 'x' } };
      const seen: (string | undefined)[] = [];
      await ctx.store.guaranteedUpdate(KEY, { cachedExisting: hint, tryUpdate: ({ current }) => (seen.push(dataOf(current)), withData(current!, '3')) });
      expect(seen).toEqual(['2']);
      expect(calls(ctx, 'get')).toBe(1);
    },
  },
];

const deleteCases: Case[] = [
  {
    name: 'delete with preconditions and a fresh hint reads nothing',
    run: async (ctx) => {
      const validated: unknown[] = [];
      const deleted = await ctx.store.delete(KEY, {
        cachedExisting: ctx.current,
        preconditions: { uid: 'u-a' },
        validateDeletion: (obj) => void validated.push(obj),
      });
      expect(validated).toEqual([ctx.current]);
      expect(calls(ctx, 'get')).toBe(0);
      expect(calls(ctx, 'delete')).toBe(1);
      expect(dataOf(deleted)).toBe('2');
      expect(await ctx.store.get(KEY).catch((e: unknown) => isStorageError(e, 'NotFound'))).toBe(true);
    },
  },
  {
    name: 'delete with a stale hint and the stored resourceVersion as precondition: re-read, deleted',
    run: async (ctx) => {
      const deleted = await ctx.store.delete(KEY, { cachedExisting: ctx.first, preconditions: { resourceVersion: ctx.current.metadata.resourceVersion! } });
      expect(dataOf(deleted)).toBe('2');
      expect(calls(ctx, 'get')).toBe(1);
    },
  },
  {
    name: 'delete: validateDeletion refusing a stale hint is asked again with the stored object',
    run: async (ctx) => {
      const seen: (string | undefined)[] = [];
      const deleted = await ctx.store.delete(KEY, {
        cachedExisting: ctx.first,
        validateDeletion: (obj) => {
          seen.push(dataOf(obj));
          if (dataOf(obj) !== '2') throw new Error('refused');
        },
      });
      expect(seen).toEqual(['1', '2']);
      expect(dataOf(deleted)).toBe('2');
    },
  },
  {
    name: 'delete with a stale hint its checks pass: the lost compare-and-swap retries on the stored object',
    run: async (ctx) => {
      const seen: (string | undefined)[] = [];
      const deleted = await ctx.store.delete(KEY, { cachedExisting: ctx.first, validateDeletion: (obj) => void seen.push(dataOf(obj)) });
      expect(seen).toEqual(['1', '2']);
      expect(dataOf(deleted)).toBe('2');
      expect(calls(ctx, 'get')).toBe(0);
    },
  },
  {
    name: 'delete: a precondition the stored object fails too is refused and nothing is deleted',
    run: async (ctx) => {
      const err = await ctx.store.delete(KEY, { cachedExisting: ctx.current, preconditions: { uid: 'other' } }).catch((e: unknown) => e);
      expect(isStorageError(err, 'PreconditionFailed')).toBe(true);
      expect((err as Error).message).toBe('Precondition failed: UID in precondition: other, UID in object meta: u-a');
      expect(calls(ctx, 'get')).toBe(1);
      expect(calls(ctx, 'delete')).toBe(0);
      expect(dataOf(await ctx.store.get(KEY))).toBe('2');
    },
  },
];

function describeCachedExisting(name: string, openKv: () => KV | Promise<KV>): void {
  describe(`cachedExisting over ${name}`, () => {
    for (const row of [...updateCases, ...deleteCases]) {
      test(row.name, async () => {
        const { kv, calls } = counting(await openKv());
        const store = createObjectStore({ kv });
        try {
          const first = await store.create(KEY, cm('u-a', '1'));
          const current = (await store.guaranteedUpdate(KEY, { tryUpdate: ({ current: c }) => withData(c!, '2') })).object;
          for (const k of Object.keys(calls)) delete calls[k];
          await row.run({ store, calls, first, current });
        } finally {
          await store.close();
        }
      });
    }
  });
}

describeCachedExisting('memory', () => openMemoryKv());
describeCachedExisting('sqlite', () => openSqliteKv({ path: ':memory:' }));
describeWithEtcd('etcd', (ctx) => {
  describeCachedExisting('etcd', () =>
    openEtcdKv({ endpoints: [ctx.etcd.endpoint], prefix: `/hint-${randomBytes(4).toString('hex')}`, compactionIntervalMs: 0 }),
  );
});
