// create, get, count and the revision accessors.
import { expect } from 'vitest';
import type { StorageErrorCode } from '../../../errors/storage-error.js';
import type { ResourceVersionMatch } from '../../storage.js';
import { configMap, dataOf, expectStorageError, rvOf, type SuiteCase, type SuiteGroup } from './harness.js';

interface GetRow {
  readonly name: string;
  /** Which write's revision to read at: 'first', 'second', 'beforeCreate', 'future' or a literal. */
  readonly rv: 'first' | 'second' | 'beforeCreate' | 'future' | '' | '0' | 'abc';
  readonly match?: ResourceVersionMatch;
  readonly want: { readonly data: string; readonly at: 'first' | 'second' } | { readonly error: StorageErrorCode };
}

const getRows: readonly GetRow[] = [
  { name: 'unset reads the latest', rv: '', want: { data: '2', at: 'second' } },
  { name: '"0" reads the latest', rv: '0', want: { data: '2', at: 'second' } },
  { name: '"0" with NotOlderThan reads the latest', rv: '0', match: 'NotOlderThan', want: { data: '2', at: 'second' } },
  { name: 'the latest N reads it', rv: 'second', want: { data: '2', at: 'second' } },
  { name: 'N reads not older than N', rv: 'first', want: { data: '2', at: 'second' } },
  { name: 'N with NotOlderThan reads the latest', rv: 'first', match: 'NotOlderThan', want: { data: '2', at: 'second' } },
  { name: 'N with Exact reads at N', rv: 'first', match: 'Exact', want: { data: '1', at: 'first' } },
  { name: 'latest with Exact', rv: 'second', match: 'Exact', want: { data: '2', at: 'second' } },
  { name: 'Exact before the object existed is NotFound', rv: 'beforeCreate', match: 'Exact', want: { error: 'NotFound' } },
  { name: 'a future N is FutureRevision', rv: 'future', want: { error: 'FutureRevision' } },
  { name: 'a future N with NotOlderThan is FutureRevision', rv: 'future', match: 'NotOlderThan', want: { error: 'FutureRevision' } },
  { name: 'a future N with Exact is FutureRevision', rv: 'future', match: 'Exact', want: { error: 'FutureRevision' } },
  { name: 'a malformed resourceVersion is BadRequest', rv: 'abc', want: { error: 'BadRequest' } },
];

const getCases: SuiteCase[] = getRows.map((row) => ({
  name: `get resourceVersion: ${row.name}`,
  run: async ({ storage, key }) => {
    // A first write elsewhere so "before the object existed" is a real revision.
    const before = await storage.create(key('other'), configMap('other'));
    const first = await storage.create(key('a'), configMap('a', { data: { v: '1' } }));
    const second = await storage.guaranteedUpdate(key('a'), {
      tryUpdate: ({ current }) => ({ ...current!, data: { v: '2' } }),
    });
    const revs = { first: rvOf(first), second: rvOf(second.object), beforeCreate: rvOf(before), future: rvOf(second.object) + 1000 };
    const resourceVersion = row.rv === '' || row.rv === '0' || row.rv === 'abc' ? row.rv : String(revs[row.rv]);
    const read = storage.get(key('a'), { resourceVersion, ...(row.match ? { resourceVersionMatch: row.match } : {}) });
    if ('error' in row.want) {
      await expectStorageError(read, row.want.error);
      return;
    }
    const got = await read;
    expect(dataOf(got)).toEqual({ v: row.want.data });
    expect(rvOf(got)).toBe(revs[row.want.at]);
  },
}));

export const crudCases: SuiteGroup = {
  group: 'crud',
  cases: [
    {
      name: 'get answers a frozen object; a write is seen by the next get',
      run: async ({ storage, key }) => {
        await storage.create(key('a'), configMap('a', { data: { v: '1' } }));
        const first = await storage.get(key('a'));
        expect(Object.isFrozen(first)).toBe(true);
        expect(Object.isFrozen(first.metadata)).toBe(true);
        expect(() => {
          (first.metadata as { name?: string }).name = 'changed';
        }).toThrow(TypeError);
        // A backend may share one object between readers of the same version.
        expect(await storage.get(key('a'))).toEqual(first);
        const updated = await storage.guaranteedUpdate(key('a'), { tryUpdate: ({ current }) => ({ ...current!, data: { v: '2' } }) });
        const second = await storage.get(key('a'));
        expect(dataOf(second)).toEqual({ v: '2' });
        expect(rvOf(second)).toBe(rvOf(updated.object));
        expect(dataOf(first)).toEqual({ v: '1' });
      },
    },
    {
      name: 'create returns the stored object with its resourceVersion',
      run: async ({ storage, key }) => {
        const created = await storage.create(key('a'), configMap('a'));
        expect(Number(await storage.currentResourceVersion())).toBeGreaterThanOrEqual(rvOf(created));
        expect(created).toEqual({ ...configMap('a'), metadata: { ...configMap('a').metadata, resourceVersion: created.metadata.resourceVersion } });
        expect(await storage.get(key('a'))).toEqual(created);
      },
    },
    {
      name: 'create of an existing key is Exists and changes nothing',
      run: async ({ storage, key }) => {
        const first = await storage.create(key('a'), configMap('a', { data: { v: '1' } }));
        await expectStorageError(storage.create(key('a'), configMap('a', { data: { v: '2' } })), 'Exists');
        expect(await storage.get(key('a'))).toEqual(first);
      },
    },
    {
      name: 'create refuses an object with a resourceVersion',
      run: async ({ storage, key }) => {
        const obj = configMap('a');
        obj.metadata.resourceVersion = '42';
        await expectStorageError(storage.create(key('a'), obj), 'InvalidObject');
        await expectStorageError(storage.get(key('a')), 'NotFound');
      },
    },
    {
      name: 'create does not mutate the object it is given',
      run: async ({ storage, key }) => {
        const obj = configMap('a');
        const copy = structuredClone(obj);
        await storage.create(key('a'), obj);
        expect(obj).toEqual(copy);
      },
    },
    {
      name: 'get of a missing key is NotFound',
      run: async ({ storage, key }) => {
        await expectStorageError(storage.get(key('missing')), 'NotFound');
      },
    },
    ...getCases,
    {
      name: 'count counts keys under the prefix only',
      run: async ({ storage, prefix }) => {
        for (const name of ['a', 'b', 'c']) await storage.create(`${prefix}ns/${name}`, configMap(name));
        // A sibling whose name extends the prefix string must not be counted.
        await storage.create(`${prefix}ns2/d`, configMap('d'));
        expect(await storage.count(`${prefix}ns/`)).toBe(3);
        expect(await storage.count(`${prefix}ns`)).toBe(3);
        expect(await storage.count(`${prefix}none/`)).toBe(0);
      },
    },
    {
      name: 'currentResourceVersion follows writes and ping answers',
      run: async ({ storage, key }) => {
        const before = Number(await storage.currentResourceVersion());
        const created = await storage.create(key('a'), configMap('a'));
        expect(rvOf(created)).toBeGreaterThan(before);
        expect(Number(await storage.currentResourceVersion())).toBeGreaterThanOrEqual(rvOf(created));
        await expect(storage.ping()).resolves.toBeUndefined();
      },
    },
  ],
};
