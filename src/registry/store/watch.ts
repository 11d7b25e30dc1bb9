// Watch: kube semantics are storage's (storage.ts, StorageWatchOptions):
// resourceVersion ""/"0" first sends a synthetic ADDED for every matching object
// and then follows changes after that state, so nothing is missed or doubled;
// "N" follows every change after N (410 Expired via onError when compacted).
// Here: option checks, the collection prefix, the name filter, error translation,
// and events in the served version (version-codec.ts servedWatch: converted once
// per stored object, delivered in order). Selectors match the stored object.
import { isStorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';
import type { StorageWatch } from '../../storage/storage.js';
import { translateStorageError } from '../errors.js';
import { collectionPrefix } from '../keys.js';
import type { StoreContext } from './context.js';
import { validateReadOptions } from './read.js';
import type { WatchOptions } from './types.js';
import { servedWatch } from './version-codec.js';

/** Starts a watch; resolves once it is established (errors before that reject). */
export async function watch(ctx: StoreContext, opts: WatchOptions): Promise<StorageWatch> {
  validateReadOptions(opts, 'ListOptions');
  const prefix = collectionPrefix(ctx.definition, { namespace: opts.namespace });
  // Keys are <prefix>[<namespace>/]<name> and names hold no '/'; the name
  // predicate keeps objects whose key merely ends like it out of the initial state.
  const suffix = opts.name === undefined ? undefined : `/${opts.name}`;
  const keyFilter = suffix === undefined ? undefined : (key: string) => key.endsWith(suffix);
  const named = opts.name === undefined ? undefined : (obj: KubeObject) => obj.metadata.name === opts.name;
  const predicate = named === undefined ? opts.predicate : opts.predicate === undefined ? named : (obj: KubeObject) => named(obj) && opts.predicate!(obj);
  const translate = (err: unknown) => translateStorageError(err, { operation: 'watch', resource: ctx.resource, name: '', resourceVersion: opts.resourceVersion });
  const served = servedWatch(ctx.codec, opts);
  try {
    const handle = ctx.storage.watch(prefix, {
      ...(opts.resourceVersion === undefined ? {} : { resourceVersion: opts.resourceVersion }),
      ...(predicate === undefined ? {} : { predicate }),
      ...(keyFilter === undefined ? {} : { keyFilter }),
      onEvent: served.onEvent,
      onError: (err) => served.onError(isStorageError(err) ? translate(err) : err),
      ...(served.onProgress === undefined ? {} : { onProgress: served.onProgress }),
    });
    return served.bind(handle);
  } catch (err) {
    throw translate(err);
  }
}
