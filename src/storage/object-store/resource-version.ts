// resourceVersion parameters as kube's storage reads them: "" means "latest",
// "0" means "any" (latest here: we have no cache below the store), "N" names a
// revision. Anything else is a 400, like kube's "invalid resource version".
import { StorageError } from '../../errors/storage-error.js';
import type { KV } from '../kv.js';

/** undefined for ""/absent, 0 for "0", N otherwise. Throws BadRequest. */
export function parseResourceVersion(rv: string | undefined): number | undefined {
  if (rv === undefined || rv === '') return undefined;
  if (!/^[0-9]+$/.test(rv)) {
    throw new StorageError('BadRequest', `invalid resource version: ${JSON.stringify(rv)}`);
  }
  const n = Number(rv);
  if (!Number.isSafeInteger(n)) throw new StorageError('BadRequest', `invalid resource version: ${JSON.stringify(rv)}`);
  return n;
}

/**
 * kube answers a read that must be "not older than" a revision the store has not
 * reached with TooLargeResourceVersion (504, retried by clients): FutureRevision.
 */
export function tooLarge(minimum: number, current: number): StorageError {
  return new StorageError('FutureRevision', `Too large resource version: ${minimum}, current: ${current}`, {
    requested: minimum,
    revision: current,
  });
}

/** Throws FutureRevision unless the store has reached `minimum`. */
export async function ensureReached(kv: KV, minimum: number): Promise<void> {
  const current = await kv.currentRevision();
  if (current < minimum) throw tooLarge(minimum, current);
}
