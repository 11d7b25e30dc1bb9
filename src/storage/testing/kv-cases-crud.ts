// Conformance cases for single-key operations: create, get (latest and at a
// revision), compare-and-swap put and delete, revisions and count.
import { expect } from 'vitest';
import { bytes, expectStorageError, text, type KvCase } from './kv-case.js';

export const crudCases: readonly KvCase[] = [
  {
    group: 'create',
    name: 'returns a new revision that get reads back',
    run: async ({ kv, key }) => {
      const before = await kv.currentRevision();
      const { revision } = await kv.create(key('a'), bytes('v1'));
      expect(revision).toBeGreaterThan(before);
      expect(await kv.currentRevision()).toBe(revision);
      const got = await kv.get(key('a'));
      expect({ ...got, value: text(got?.value) }).toEqual({
        key: key('a'),
        value: 'v1',
        createRevision: revision,
        modRevision: revision,
      });
    },
  },
  {
    group: 'create',
    name: 'fails with Exists when the key is present',
    run: async ({ kv, key }) => {
      const { revision } = await kv.create(key('a'), bytes('v1'));
      await expectStorageError(kv.create(key('a'), bytes('v2')), 'Exists');
      expect(text((await kv.get(key('a')))?.value)).toBe('v1');
      expect(await kv.currentRevision()).toBe(revision);
    },
  },
  {
    group: 'create',
    name: 'round-trips every byte value',
    run: async ({ kv, key }) => {
      const all = Uint8Array.from({ length: 256 }, (_, i) => i);
      await kv.create(key('bin'), all);
      expect(Array.from((await kv.get(key('bin')))!.value)).toEqual(Array.from(all));
    },
  },
  {
    group: 'get',
    name: 'an absent key is undefined',
    run: async ({ kv, key }) => {
      expect(await kv.get(key('missing'))).toBeUndefined();
    },
  },
  {
    group: 'get',
    name: 'at a revision returns the value the key had then',
    run: async ({ kv, key }) => {
      const before = await kv.currentRevision();
      const r1 = (await kv.create(key('a'), bytes('v1'))).revision;
      const r2 = (await kv.put(key('a'), bytes('v2'), { expectedRevision: r1 })).revision;
      const r3 = (await kv.delete(key('a'))).revision;
      const at = async (revision: number) => {
        const e = await kv.get(key('a'), { revision });
        return e && { value: text(e.value), createRevision: e.createRevision, modRevision: e.modRevision };
      };
      const table = [
        { name: 'before creation', revision: before, want: undefined },
        { name: 'at creation', revision: r1, want: { value: 'v1', createRevision: r1, modRevision: r1 } },
        { name: 'after the update', revision: r2, want: { value: 'v2', createRevision: r1, modRevision: r2 } },
        { name: 'at the delete', revision: r3, want: undefined },
      ];
      for (const row of table) expect(await at(row.revision), row.name).toEqual(row.want);
      expect(await kv.get(key('a'))).toBeUndefined();
    },
  },
  {
    group: 'get',
    name: 'above the current revision throws FutureRevision',
    run: async ({ kv, key, prefix }) => {
      await kv.create(key('a'), bytes('v1'));
      const future = (await kv.currentRevision()) + 1000;
      expect((await expectStorageError(kv.get(key('a'), { revision: future }), 'FutureRevision')).requested).toBe(future);
      expect((await expectStorageError(kv.list(prefix, { revision: future }), 'FutureRevision')).requested).toBe(future);
    },
  },
  {
    group: 'put',
    name: 'swaps when the expected revision matches',
    run: async ({ kv, key }) => {
      const r1 = (await kv.create(key('a'), bytes('v1'))).revision;
      const r2 = (await kv.put(key('a'), bytes('v2'), { expectedRevision: r1 })).revision;
      expect(r2).toBeGreaterThan(r1);
      const got = await kv.get(key('a'));
      expect({ value: text(got?.value), createRevision: got?.createRevision, modRevision: got?.modRevision }).toEqual({
        value: 'v2',
        createRevision: r1,
        modRevision: r2,
      });
    },
  },
  {
    group: 'put',
    name: 'a stale revision throws Conflict carrying the current entry',
    run: async ({ kv, key }) => {
      const r1 = (await kv.create(key('a'), bytes('v1'))).revision;
      const r2 = (await kv.put(key('a'), bytes('v2'), { expectedRevision: r1 })).revision;
      const err = await expectStorageError(kv.put(key('a'), bytes('v3'), { expectedRevision: r1 }), 'Conflict');
      expect({ key: err.current?.key, value: text(err.current?.value), modRevision: err.current?.modRevision }).toEqual({
        key: key('a'),
        value: 'v2',
        modRevision: r2,
      });
      expect(text((await kv.get(key('a')))?.value)).toBe('v2');
      expect(await kv.currentRevision()).toBe(r2);
    },
  },
  {
    group: 'put',
    name: 'an absent key throws NotFound',
    run: async ({ kv, key }) => {
      await expectStorageError(kv.put(key('missing'), bytes('v'), { expectedRevision: 1 }), 'NotFound');
      expect(await kv.get(key('missing'))).toBeUndefined();
    },
  },
  {
    group: 'delete',
    name: 'returns the deleted entry and removes the key',
    run: async ({ kv, key }) => {
      const r1 = (await kv.create(key('a'), bytes('v1'))).revision;
      const r2 = (await kv.put(key('a'), bytes('v2'), { expectedRevision: r1 })).revision;
      const res = await kv.delete(key('a'));
      expect(res.revision).toBeGreaterThan(r2);
      expect({ ...res.previous, value: text(res.previous.value) }).toEqual({
        key: key('a'),
        value: 'v2',
        createRevision: r1,
        modRevision: r2,
      });
      expect(await kv.get(key('a'))).toBeUndefined();
      expect(await kv.currentRevision()).toBe(res.revision);
    },
  },
  {
    group: 'delete',
    name: 'compare-and-swap on expectedRevision',
    run: async ({ kv, key }) => {
      const r1 = (await kv.create(key('a'), bytes('v1'))).revision;
      const r2 = (await kv.put(key('a'), bytes('v2'), { expectedRevision: r1 })).revision;
      const err = await expectStorageError(kv.delete(key('a'), { expectedRevision: r1 }), 'Conflict');
      expect({ value: text(err.current?.value), modRevision: err.current?.modRevision }).toEqual({ value: 'v2', modRevision: r2 });
      expect(text((await kv.get(key('a')))?.value)).toBe('v2');
      const res = await kv.delete(key('a'), { expectedRevision: r2 });
      expect(res.previous.modRevision).toBe(r2);
      expect(await kv.get(key('a'))).toBeUndefined();
    },
  },
  {
    group: 'delete',
    name: 'an absent key throws NotFound',
    run: async ({ kv, key }) => {
      const before = await kv.currentRevision();
      await expectStorageError(kv.delete(key('missing')), 'NotFound');
      expect(await kv.currentRevision()).toBe(before);
    },
  },
  {
    group: 'delete',
    name: 'creating again starts a new incarnation',
    run: async ({ kv, key }) => {
      await kv.create(key('a'), bytes('v1'));
      await kv.delete(key('a'));
      const { revision } = await kv.create(key('a'), bytes('v2'));
      const got = await kv.get(key('a'));
      expect({ value: text(got?.value), createRevision: got?.createRevision, modRevision: got?.modRevision }).toEqual({
        value: 'v2',
        createRevision: revision,
        modRevision: revision,
      });
    },
  },
  {
    group: 'revision',
    name: 'is shared by all keys, strictly increasing, and failed writes use none',
    run: async ({ kv, key }) => {
      const revisions: number[] = [];
      revisions.push((await kv.create(key('a'), bytes('1'))).revision);
      revisions.push((await kv.create(key('b'), bytes('1'))).revision);
      await expectStorageError(kv.create(key('a'), bytes('2')), 'Exists');
      await expectStorageError(kv.put(key('b'), bytes('2'), { expectedRevision: revisions[0]! }), 'Conflict');
      revisions.push((await kv.put(key('a'), bytes('2'), { expectedRevision: revisions[0]! })).revision);
      revisions.push((await kv.delete(key('b'))).revision);
      for (let i = 1; i < revisions.length; i++) expect(revisions[i]).toBeGreaterThan(revisions[i - 1]!);
      expect(await kv.currentRevision()).toBe(revisions[revisions.length - 1]);
      expect(await kv.oldestRevision()).toBeLessThanOrEqual(revisions[0]!);
    },
  },
  {
    group: 'count',
    name: 'counts the keys under a prefix only',
    run: async ({ kv, key, prefix, siblingPrefix }) => {
      for (const name of ['a', 'b', 'c']) await kv.create(key(name), bytes(name));
      await kv.create(`${siblingPrefix}x`, bytes('x'));
      expect(await kv.count(prefix)).toBe(3);
      await kv.delete(key('b'));
      expect(await kv.count(prefix)).toBe(2);
      expect(await kv.count(`${prefix}nothing-here/`)).toBe(0);
    },
  },
];
