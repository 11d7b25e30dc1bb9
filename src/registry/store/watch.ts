// Watch: kube semantics on top of storage's watch. resourceVersion ""/"0" first
// sends a synthetic ADDED for every matching object (from one list) and then
// follows changes after that list's revision, so nothing is missed or doubled;
// "N" follows every change after N (410 Expired via onError when compacted).
import { isStorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';
import type { StorageWatch } from '../../storage/storage.js';
import { translateStorageError } from '../errors.js';
import { collectionPrefix } from '../keys.js';
import type { StoreContext } from './context.js';
import { validateReadOptions } from './read.js';
import type { WatchOptions } from './types.js';

/** Starts a watch; resolves once it is established (errors before that reject). */
export async function watch(ctx: StoreContext, opts: WatchOptions): Promise<StorageWatch> {
  validateReadOptions(opts, 'ListOptions');
  const prefix = collectionPrefix(ctx.definition, { namespace: opts.namespace });
  // Keys are <prefix>[<namespace>/]<name> and names hold no '/'.
  const suffix = opts.name === undefined ? undefined : `/${opts.name}`;
  const keyFilter = suffix === undefined ? undefined : (key: string) => key.endsWith(suffix);
  const named = opts.name === undefined ? undefined : (obj: KubeObject) => obj.metadata.name === opts.name;
  const listPredicate = named === undefined ? opts.predicate : opts.predicate === undefined ? named : (obj: KubeObject) => named(obj) && opts.predicate!(obj);
  const translate = (err: unknown) => translateStorageError(err, { operation: 'watch', resource: ctx.resource, name: '', resourceVersion: opts.resourceVersion });
  let from = opts.resourceVersion ?? '';
  let initial: KubeObject[] = [];
  if (from === '' || from === '0') {
    try {
      const listed = await ctx.storage.list(prefix, { ...(listPredicate === undefined ? {} : { predicate: listPredicate }) });
      initial = listed.items;
      from = listed.resourceVersion;
    } catch (err) {
      throw translate(err);
    }
  }
  for (const object of initial) opts.onEvent({ type: 'ADDED', object });
  try {
    return ctx.storage.watch(prefix, {
      resourceVersion: from,
      ...(opts.predicate === undefined ? {} : { predicate: opts.predicate }),
      ...(keyFilter === undefined ? {} : { keyFilter }),
      onEvent: opts.onEvent,
      onError: (err) => opts.onError(isStorageError(err) ? translate(err) : err),
      ...(opts.onProgress === undefined ? {} : { onProgress: opts.onProgress }),
    });
  } catch (err) {
    throw translate(err);
  }
}
