// Delete and update preconditions, checked against the state a write would
// replace. Messages match kube's storage.Preconditions.Check word for word:
// clients and tests grep them, and the registry answers 409 Conflict with them.
import { StorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';
import type { Preconditions } from '../storage.js';

/**
 * Throws Conflict when a precondition does not hold. An absent object (create on
 * update) is checked as kube checks its zero value: empty uid and resourceVersion.
 */
export function checkPreconditions(key: string, pre: Preconditions | undefined, obj: KubeObject | undefined): void {
  if (pre === undefined) return;
  const uid = obj?.metadata.uid ?? '';
  if (pre.uid !== undefined && pre.uid !== uid) {
    throw new StorageError('Conflict', `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid}`, {
      key,
    });
  }
  const rv = obj?.metadata.resourceVersion ?? '';
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== rv) {
    throw new StorageError(
      'Conflict',
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${rv}`,
      { key },
    );
  }
}
