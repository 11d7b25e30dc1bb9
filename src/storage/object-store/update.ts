// The optimistic write loops of kube's etcd3 store (GuaranteedUpdate and
// conditionalDelete): read, check preconditions, compute, compare-and-swap on the
// modRevision read, and on a lost race start again from the entry the KV's
// Conflict carries, so a retry costs no extra read.
import { StorageError, isStorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';
import type { KV, KvEntry } from '../kv.js';
import { checkPreconditions, type GuaranteedUpdateOptions, type GuaranteedUpdateResult, type StorageDeleteOptions } from '../storage.js';
import { bytesEqual, decodeObject, encodeObject, type ObjectCodec } from './codec.js';
import type { DecodedValues } from './decoded.js';

interface Ctx {
  readonly kv: KV;
  readonly codec: ObjectCodec;
  readonly decoded: DecodedValues;
}

export function notFound(key: string): StorageError {
  return new StorageError('NotFound', `key ${key} not found`, { key });
}

function decodeEntry(ctx: Ctx, entry: KvEntry): KubeObject {
  return decodeObject(ctx.codec, { key: entry.key, value: entry.value, revision: entry.modRevision });
}

/** The entry after a lost race: the one the error carries, or a fresh read if it has none. */
async function afterLostRace(ctx: Ctx, key: string, err: StorageError): Promise<KvEntry | undefined> {
  return err.current ?? (await ctx.kv.get(key));
}

export async function guaranteedUpdate(
  ctx: Ctx,
  key: string,
  opts: GuaranteedUpdateOptions,
): Promise<GuaranteedUpdateResult> {
  let current = await ctx.kv.get(key);
  for (;;) {
    if (current === undefined && opts.allowCreate !== true) throw notFound(key);
    const currentObj = current === undefined ? undefined : ctx.decoded.decode(current.key, current.value, current.modRevision);
    checkPreconditions(key, opts.preconditions, currentObj);
    const next = await opts.tryUpdate({ current: currentObj });
    const bytes = encodeObject(ctx.codec, next);

    if (current === undefined) {
      try {
        const { revision } = await ctx.kv.create(key, bytes);
        return { object: ctx.decoded.stored(key, bytes, next, revision), created: true };
      } catch (err) {
        if (!isStorageError(err, 'Exists')) throw err;
        current = await afterLostRace(ctx, key, err);
        continue;
      }
    }

    // kube skips writes that change nothing: no new revision, no watch event.
    if (bytesEqual(bytes, current.value)) return { object: currentObj!, created: false };

    try {
      const { revision } = await ctx.kv.put(key, bytes, { expectedRevision: current.modRevision });
      return { object: ctx.decoded.stored(key, bytes, next, revision), created: false };
    } catch (err) {
      if (isStorageError(err, 'Conflict')) current = await afterLostRace(ctx, key, err);
      else if (isStorageError(err, 'NotFound')) current = undefined;
      else throw err;
    }
  }
}

/** Deletes and returns the last state, stamped with the deleting revision. */
export async function deleteObject(ctx: Ctx, key: string, opts: StorageDeleteOptions): Promise<KubeObject> {
  // Nothing to check against: one unconditional delete, no read first.
  if (opts.preconditions === undefined && opts.validateDeletion === undefined) {
    const res = await ctx.kv.delete(key);
    return decodeObject(ctx.codec, { key, value: res.previous.value, revision: res.revision });
  }
  let current = await ctx.kv.get(key);
  for (;;) {
    if (current === undefined) throw notFound(key);
    const obj = decodeEntry(ctx, current);
    checkPreconditions(key, opts.preconditions, obj);
    await opts.validateDeletion?.(obj);
    try {
      const res = await ctx.kv.delete(key, { expectedRevision: current.modRevision });
      return decodeObject(ctx.codec, { key, value: res.previous.value, revision: res.revision });
    } catch (err) {
      if (isStorageError(err, 'Conflict')) current = await afterLostRace(ctx, key, err);
      else if (isStorageError(err, 'NotFound')) current = undefined;
      else throw err;
    }
  }
}
