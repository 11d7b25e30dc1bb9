// The reads a controller decides on, served by the watch cache as kube's listers
// serve them from an informer's store: resourceVersion "0" ("Any"), from memory
// once the resource's cache is filled (storage/cacher/), from the backend without
// one (--watch-cache=false) or before it is. The state may be a little behind the
// backend; what makes that safe is the write, not the read: updates carry the
// resourceVersion read (a stale one is a Conflict), deletes a uid precondition,
// creates meet AlreadyExists, and the newer state is an event that syncs the key
// again. A decision that cannot be undone on a miss (deleting a token Secret
// because its account looks absent) re-reads live first, as kube's controllers do.
import { isStatusError } from '../errors/status-error.js';
import type { ResourceStore } from '../registry/store/types.js';
import type { KubeObject } from '../schema/object.js';

/** The read options of a lister read. */
export const ANY_VERSION = { resourceVersion: '0' } as const;

/** The object, or undefined when absent (NotFound), from the watch cache. */
export async function cachedGet(store: ResourceStore, scope: { readonly namespace?: string; readonly name: string }): Promise<KubeObject | undefined> {
  try {
    return await store.get({ ...scope, ...ANY_VERSION });
  } catch (err) {
    if (isStatusError(err) && err.reason === 'NotFound') return undefined;
    throw err;
  }
}

/** Every object of the kind (in `namespace`, or in all), from the watch cache. */
export async function cachedList(store: ResourceStore, scope: { readonly namespace?: string } = {}): Promise<KubeObject[]> {
  return (await store.list({ ...scope, ...ANY_VERSION })).items;
}
