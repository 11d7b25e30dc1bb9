import { describe, expect, test } from 'vitest';
// Preconditions are checked once, by storage.ts's checkPreconditions: the object
// store and the registry's dry-run view of it fail the same way (PreconditionFailed,
// kube's text, the key), before any caller code sees the object. The conformance
// suite (storage-suite/update.cases.ts) runs the object store's side on every backend.
import { isStorageError, type StorageError } from '../../src/errors/storage-error.js';
import { dryRunStorage } from '../../src/registry/dry-run.js';
import type { KubeObject } from '../../src/schema/object.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { checkPreconditions, type Preconditions, type Storage } from '../../src/storage/storage.js';

const stored: KubeObject = { metadata: { name: 'a', uid: 'u1', resourceVersion: '7' } };

function failure(fn: () => unknown): StorageError | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (isStorageError(err)) return err;
    throw err;
  }
}

describe('checkPreconditions', () => {
  const cases: { name: string; pre: Preconditions | undefined; obj: KubeObject | undefined; want: string | undefined }[] = [
    { name: 'none', pre: undefined, obj: stored, want: undefined },
    { name: 'empty', pre: {}, obj: stored, want: undefined },
    { name: 'matching uid and resourceVersion', pre: { uid: 'u1', resourceVersion: '7' }, obj: stored, want: undefined },
    { name: 'a wrong uid', pre: { uid: 'u2' }, obj: stored, want: 'Precondition failed: UID in precondition: u2, UID in object meta: u1' },
    { name: 'a stale resourceVersion', pre: { resourceVersion: '6' }, obj: stored, want: 'Precondition failed: ResourceVersion in precondition: 6, ResourceVersion in object meta: 7' },
    { name: 'uid is checked first', pre: { uid: 'u2', resourceVersion: '6' }, obj: stored, want: 'Precondition failed: UID in precondition: u2, UID in object meta: u1' },
    { name: 'an absent object has the empty uid', pre: { uid: 'u1' }, obj: undefined, want: 'Precondition failed: UID in precondition: u1, UID in object meta: ' },
    { name: 'an empty uid matches an absent object', pre: { uid: '' }, obj: undefined, want: undefined },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const err = failure(() => checkPreconditions('/configmaps/ns/a', c.pre, c.obj));
      if (c.want === undefined) {
        expect(err).toBeUndefined();
        return;
      }
      expect(err?.code).toBe('PreconditionFailed');
      expect(err?.message).toBe(c.want);
      expect(err?.key).toBe('/configmaps/ns/a');
    });
  }
});

type View = 'object store' | 'dry-run view';
const views: readonly View[] = ['object store', 'dry-run view'];

// The dry-run view writes nothing, so each row seeds through the store underneath it.
async function seeded(view: View): Promise<{ storage: Storage; current: KubeObject }> {
  const base = createObjectStore({ kv: openMemoryKv() });
  const current = await base.create('/configmaps/ns/a', { metadata: { name: 'a', namespace: 'ns', uid: 'u1' } });
  return { storage: view === 'dry-run view' ? dryRunStorage(base) : base, current };
}

for (const view of views) {
  describe(`a failed precondition through the ${view}`, () => {
    test('guaranteedUpdate: PreconditionFailed, tryUpdate never called', async () => {
      const { storage } = await seeded(view);
      let calls = 0;
      const err = await storage
        .guaranteedUpdate('/configmaps/ns/a', { preconditions: { uid: 'other' }, tryUpdate: ({ current }) => (calls++, current!) })
        .then(() => undefined, (e: unknown) => e);
      expect(isStorageError(err, 'PreconditionFailed')).toBe(true);
      expect((err as StorageError).message).toBe('Precondition failed: UID in precondition: other, UID in object meta: u1');
      expect((err as StorageError).key).toBe('/configmaps/ns/a');
      expect(calls).toBe(0);
    });

    test('delete: PreconditionFailed, validateDeletion never called', async () => {
      const { storage, current } = await seeded(view);
      let validated = 0;
      const err = await storage
        .delete('/configmaps/ns/a', { preconditions: { resourceVersion: '1' }, validateDeletion: () => void validated++ })
        .then(() => undefined, (e: unknown) => e);
      expect(isStorageError(err, 'PreconditionFailed')).toBe(true);
      expect((err as StorageError).message).toBe(`Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${current.metadata.resourceVersion}`);
      expect(validated).toBe(0);
    });

    test('create-on-update: an absent object checked as empty', async () => {
      const { storage } = await seeded(view);
      const err = await storage
        .guaranteedUpdate('/configmaps/ns/b', { allowCreate: true, preconditions: { uid: 'x' }, tryUpdate: () => ({ metadata: { name: 'b' } }) })
        .then(() => undefined, (e: unknown) => e);
      expect(isStorageError(err, 'PreconditionFailed')).toBe(true);
    });

    test('holding preconditions let the write through', async () => {
      const { storage, current } = await seeded(view);
      const res = await storage.guaranteedUpdate('/configmaps/ns/a', {
        preconditions: { uid: 'u1', resourceVersion: current.metadata.resourceVersion! },
        tryUpdate: ({ current: c }) => ({ ...c!, data: { v: '2' } }),
      });
      expect(res.object['data']).toEqual({ v: '2' });
    });
  });
}
