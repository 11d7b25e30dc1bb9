// guaranteedUpdate and delete: the optimistic loop, preconditions, races.
// A failed precondition is PreconditionFailed (not Conflict: retrying cannot help),
// checked on the state the write would replace, before any caller code sees it.
import { expect } from 'vitest';
import type { KubeObject } from '../../../schema/object.js';
import type { Preconditions } from '../../storage.js';
import { configMap, dataOf, expectStorageError, rvOf, type SuiteCase, type SuiteGroup } from './harness.js';

const withData = (obj: KubeObject, v: string): KubeObject => ({ ...obj, data: { v } });

interface PreconditionRow {
  readonly name: string;
  readonly preconditions: (current: KubeObject) => Preconditions;
  /** undefined: the write goes through. */
  readonly wantMessage?: (current: KubeObject) => string;
}

const preconditionRows: readonly PreconditionRow[] = [
  {
    name: 'a wrong uid',
    preconditions: () => ({ uid: 'other-uid' }),
    wantMessage: (c) => `Precondition failed: UID in precondition: other-uid, UID in object meta: ${c.metadata.uid}`,
  },
  {
    name: 'a stale resourceVersion',
    preconditions: () => ({ resourceVersion: '1' }),
    wantMessage: (c) =>
      `Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${c.metadata.resourceVersion}`,
  },
  { name: 'a matching uid', preconditions: (c) => ({ uid: c.metadata.uid! }) },
  { name: 'a matching uid and resourceVersion', preconditions: (c) => ({ uid: c.metadata.uid!, resourceVersion: c.metadata.resourceVersion! }) },
];

const updatePreconditionCases: SuiteCase[] = preconditionRows.map((row) => ({
  name: `guaranteedUpdate precondition: ${row.name}`,
  run: async ({ storage, key }) => {
    const current = await storage.create(key('a'), configMap('a'));
    let calls = 0;
    const write = storage.guaranteedUpdate(key('a'), {
      preconditions: row.preconditions(current),
      tryUpdate: ({ current: c }) => (calls++, withData(c!, 'updated')),
    });
    if (row.wantMessage === undefined) {
      expect(dataOf((await write).object)).toEqual({ v: 'updated' });
      return;
    }
    const err = await expectStorageError(write, 'PreconditionFailed');
    expect(err.message).toBe(row.wantMessage(current));
    expect(err.key).toBe(key('a'));
    expect(calls).toBe(0);
    expect(await storage.get(key('a'))).toEqual(current);
  },
}));

const deletePreconditionCases: SuiteCase[] = preconditionRows.map((row) => ({
  name: `delete precondition: ${row.name}`,
  run: async ({ storage, key }) => {
    const current = await storage.create(key('a'), configMap('a'));
    let validated = 0;
    const del = storage.delete(key('a'), { preconditions: row.preconditions(current), validateDeletion: () => void validated++ });
    if (row.wantMessage === undefined) {
      expect((await del).metadata.uid).toBe(current.metadata.uid);
      expect(validated).toBe(1);
      await expectStorageError(storage.get(key('a')), 'NotFound');
      return;
    }
    const err = await expectStorageError(del, 'PreconditionFailed');
    expect(err.message).toBe(row.wantMessage(current));
    expect(err.key).toBe(key('a'));
    expect(validated).toBe(0);
    expect(await storage.get(key('a'))).toEqual(current);
  },
}));

const racePreconditionCases: SuiteCase[] = [
  {
    name: 'guaranteedUpdate checks preconditions again after a lost race',
    run: async ({ storage, key }) => {
      const created = await storage.create(key('a'), configMap('a'));
      let calls = 0;
      const write = storage.guaranteedUpdate(key('a'), {
        preconditions: { resourceVersion: created.metadata.resourceVersion! },
        tryUpdate: async ({ current }) => {
          // A writer slips in between our read and our write; the retry must not pass the precondition.
          if (calls++ === 0) await storage.guaranteedUpdate(key('a'), { tryUpdate: ({ current: c }) => withData(c!, 'theirs') });
          return withData(current!, 'mine');
        },
      });
      const err = await expectStorageError(write, 'PreconditionFailed');
      const now = await storage.get(key('a'));
      expect(err.message).toBe(
        `Precondition failed: ResourceVersion in precondition: ${created.metadata.resourceVersion}, ResourceVersion in object meta: ${now.metadata.resourceVersion}`,
      );
      expect(calls).toBe(1);
      expect(dataOf(now)).toEqual({ v: 'theirs' });
    },
  },
  {
    name: 'delete checks preconditions again after a lost race',
    run: async ({ storage, key }) => {
      const created = await storage.create(key('a'), configMap('a'));
      let validated = 0;
      const del = storage.delete(key('a'), {
        preconditions: { resourceVersion: created.metadata.resourceVersion! },
        validateDeletion: async () => {
          if (validated++ === 0) await storage.guaranteedUpdate(key('a'), { tryUpdate: ({ current: c }) => withData(c!, 'theirs') });
        },
      });
      await expectStorageError(del, 'PreconditionFailed');
      expect(validated).toBe(1);
      expect(dataOf(await storage.get(key('a')))).toEqual({ v: 'theirs' });
    },
  },
  {
    name: 'guaranteedUpdate with allowCreate checks preconditions against an absent object as empty',
    run: async ({ storage, key }) => {
      let calls = 0;
      const refused = storage.guaranteedUpdate(key('a'), { allowCreate: true, preconditions: { uid: 'x' }, tryUpdate: () => (calls++, configMap('a')) });
      const err = await expectStorageError(refused, 'PreconditionFailed');
      expect(err.message).toBe('Precondition failed: UID in precondition: x, UID in object meta: ');
      expect(calls).toBe(0);
      await expectStorageError(storage.get(key('a')), 'NotFound');
      const created = await storage.guaranteedUpdate(key('a'), { allowCreate: true, preconditions: { uid: '' }, tryUpdate: () => configMap('a') });
      expect(created.created).toBe(true);
    },
  },
];

export const updateCases: SuiteGroup = {
  group: 'update',
  cases: [
    {
      name: 'guaranteedUpdate writes the next object at a new resourceVersion',
      run: async ({ storage, key }) => {
        const created = await storage.create(key('a'), configMap('a'));
        let seen: KubeObject | undefined;
        const res = await storage.guaranteedUpdate(key('a'), {
          tryUpdate: ({ current }) => {
            seen = current;
            return withData(current!, '2');
          },
        });
        expect(seen).toEqual(created);
        expect(Object.isFrozen(seen) && Object.isFrozen(seen!.metadata)).toBe(true);
        expect(res.created).toBe(false);
        expect(rvOf(res.object)).toBeGreaterThan(rvOf(created));
        expect(dataOf(res.object)).toEqual({ v: '2' });
        expect(await storage.get(key('a'))).toEqual(res.object);
      },
    },
    {
      name: 'guaranteedUpdate ignores the resourceVersion and selfLink tryUpdate returns',
      run: async ({ storage, key }) => {
        await storage.create(key('a'), configMap('a'));
        const res = await storage.guaranteedUpdate(key('a'), {
          tryUpdate: ({ current }) => ({ ...withData(current!, '2'), metadata: { ...current!.metadata, resourceVersion: '1', selfLink: '/x' } }),
        });
        expect(res.object.metadata.resourceVersion).toBe(await storage.currentResourceVersion());
        expect(res.object.metadata.selfLink).toBeUndefined();
      },
    },
    {
      name: 'guaranteedUpdate of a missing key is NotFound without calling tryUpdate',
      run: async ({ storage, key }) => {
        let calls = 0;
        await expectStorageError(
          storage.guaranteedUpdate(key('a'), { tryUpdate: ({ current }) => (calls++, current!) }),
          'NotFound',
        );
        expect(calls).toBe(0);
      },
    },
    {
      name: 'guaranteedUpdate with allowCreate creates a missing key',
      run: async ({ storage, key }) => {
        const seen: (KubeObject | undefined)[] = [];
        const first = await storage.guaranteedUpdate(key('a'), {
          allowCreate: true,
          tryUpdate: ({ current }) => (seen.push(current), current ? withData(current, '2') : configMap('a')),
        });
        expect(first.created).toBe(true);
        expect(await storage.get(key('a'))).toEqual(first.object);
        const second = await storage.guaranteedUpdate(key('a'), {
          allowCreate: true,
          tryUpdate: ({ current }) => (seen.push(current), current ? withData(current, '2') : configMap('a')),
        });
        expect(second.created).toBe(false);
        expect(dataOf(second.object)).toEqual({ v: '2' });
        expect(seen).toEqual([undefined, first.object]);
      },
    },
    {
      name: 'guaranteedUpdate that changes nothing writes nothing',
      run: async ({ storage, key }) => {
        const created = await storage.create(key('a'), configMap('a'));
        const before = await storage.currentResourceVersion();
        const res = await storage.guaranteedUpdate(key('a'), { tryUpdate: ({ current }) => current! });
        expect(res.object).toEqual(created);
        expect(res.created).toBe(false);
        expect(await storage.currentResourceVersion()).toBe(before);
      },
    },
    {
      name: 'guaranteedUpdate whose object differs only in the order of members writes nothing',
      run: async ({ storage, key }) => {
        const created = await storage.create(key('a'), { ...configMap('a'), data: { x: '1', y: '2' } });
        const before = await storage.currentResourceVersion();
        const { name, namespace, ...restOfMetadata } = created.metadata;
        const reordered: KubeObject = { data: { y: '2', x: '1' }, metadata: { ...restOfMetadata, namespace, name, selfLink: 'ignored' }, kind: created.kind, apiVersion: created.apiVersion };
        const res = await storage.guaranteedUpdate(key('a'), { tryUpdate: () => reordered });
        expect(res.object).toEqual(created);
        expect(await storage.currentResourceVersion()).toBe(before);
        // A changed value in the same reordered form is written.
        const changed = await storage.guaranteedUpdate(key('a'), { tryUpdate: () => ({ ...reordered, data: { y: '3', x: '1' } }) });
        expect(dataOf(changed.object)).toEqual({ y: '3', x: '1' });
        expect(Number(rvOf(changed.object))).toBeGreaterThan(Number(before));
      },
    },
    {
      name: 'guaranteedUpdate aborts with the error tryUpdate throws',
      run: async ({ storage, key }) => {
        const created = await storage.create(key('a'), configMap('a'));
        const boom = new Error('validation failed');
        await expect(storage.guaranteedUpdate(key('a'), { tryUpdate: () => { throw boom; } })).rejects.toBe(boom);
        expect(await storage.get(key('a'))).toEqual(created);
      },
    },
    {
      name: 'guaranteedUpdate retries a lost race with the fresh state',
      run: async ({ storage, key }) => {
        await storage.create(key('a'), configMap('a', { data: { v: '', other: '' } }));
        const seen: unknown[] = [];
        const res = await storage.guaranteedUpdate(key('a'), {
          tryUpdate: async ({ current }) => {
            seen.push(dataOf(current!));
            // Lose the first round: a writer slips in between our read and our write.
            if (seen.length === 1) {
              await storage.guaranteedUpdate(key('a'), {
                tryUpdate: ({ current: c }) => ({ ...c!, data: { ...(dataOf(c!) as object), other: 'x' } }),
              });
            }
            return { ...current!, data: { ...(dataOf(current!) as object), v: 'mine' } };
          },
        });
        expect(seen).toEqual([{ v: '', other: '' }, { v: '', other: 'x' }]);
        expect(dataOf(res.object)).toEqual({ v: 'mine', other: 'x' });
      },
    },
    {
      name: 'guaranteedUpdate with 16 concurrent updaters loses no update',
      run: async ({ storage, key }) => {
        await storage.create(key('counter'), configMap('counter', { data: { n: '0' } }));
        const perWriter = 3;
        const writers = Array.from({ length: 16 }, async () => {
          const rvs: number[] = [];
          for (let i = 0; i < perWriter; i++) {
            const res = await storage.guaranteedUpdate(key('counter'), {
              tryUpdate: ({ current }) => {
                const n = Number((dataOf(current!) as { n: string }).n);
                return { ...current!, data: { n: String(n + 1) } };
              },
            });
            rvs.push(rvOf(res.object));
          }
          return rvs;
        });
        const rvs = (await Promise.all(writers)).flat();
        expect((dataOf(await storage.get(key('counter'))) as { n: string }).n).toBe(String(16 * perWriter));
        // Each acknowledged update is its own revision.
        expect(new Set(rvs).size).toBe(16 * perWriter);
      },
    },
    ...updatePreconditionCases,
    ...racePreconditionCases,
    {
      name: 'delete returns the last state at the deleting revision',
      run: async ({ storage, prefix, key }) => {
        const created = await storage.create(key('a'), configMap('a'));
        const deleted = await storage.delete(key('a'));
        expect(rvOf(deleted)).toBeGreaterThan(rvOf(created));
        expect(Number(await storage.currentResourceVersion())).toBeGreaterThanOrEqual(rvOf(deleted));
        expect({ ...deleted, metadata: { ...deleted.metadata, resourceVersion: created.metadata.resourceVersion } }).toEqual(created);
        await expectStorageError(storage.get(key('a')), 'NotFound');
        expect((await storage.list(prefix)).items).toEqual([]);
      },
    },
    {
      name: 'delete of a missing key is NotFound',
      run: async ({ storage, key }) => {
        await expectStorageError(storage.delete(key('missing')), 'NotFound');
        await expectStorageError(storage.delete(key('missing'), { preconditions: { uid: 'x' } }), 'NotFound');
      },
    },
    ...deletePreconditionCases,
    {
      name: 'validateDeletion sees the current object and can refuse',
      run: async ({ storage, key }) => {
        const created = await storage.create(key('a'), configMap('a'));
        const refusal = new Error('has finalizers');
        let seen: KubeObject | undefined;
        await expect(
          storage.delete(key('a'), {
            validateDeletion: (obj) => {
              seen = obj;
              throw refusal;
            },
          }),
        ).rejects.toBe(refusal);
        expect(seen).toEqual(created);
        expect(await storage.get(key('a'))).toEqual(created);
      },
    },
    {
      name: 'delete retries when the object changes under it',
      run: async ({ storage, key }) => {
        await storage.create(key('a'), configMap('a'));
        const seen: string[] = [];
        const deleted = await storage.delete(key('a'), {
          validateDeletion: async (obj) => {
            seen.push((dataOf(obj) as { v: string }).v);
            if (seen.length === 1) {
              await storage.guaranteedUpdate(key('a'), { tryUpdate: ({ current }) => withData(current!, 'changed') });
            }
          },
        });
        expect(seen).toEqual(['1', 'changed']);
        expect(dataOf(deleted)).toEqual({ v: 'changed' });
        await expectStorageError(storage.get(key('a')), 'NotFound');
      },
    },
  ],
};
