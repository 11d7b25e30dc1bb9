// The optimistic write loops of kube's etcd3 store (GuaranteedUpdate and
// conditionalDelete): read, check preconditions, compute, compare-and-swap on the
// modRevision read, and on a lost race start again from the entry the KV's
// Conflict carries, so a retry costs no extra read. Given the watch cache's copy
// of the object (kube's cachedExistingObject) the first attempt skips the read
// too: a stale copy only costs the compare-and-swap that fails and hands back
// the current entry.
import { StorageError, isStorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';
import type { KV, KvEntry } from '../kv.js';
import { checkPreconditions, type GuaranteedUpdateOptions, type GuaranteedUpdateResult, type StorageDeleteOptions } from '../storage.js';
import { bytesEqual, decodeObject, encodeForStorage, encodeObject, jsonObjectCodec, sameStoredContent, type ObjectCodec } from './codec.js';
import type { DecodedValues } from './decoded.js';

interface Ctx {
  readonly kv: KV;
  readonly codec: ObjectCodec;
  readonly decoded: DecodedValues;
}

/** What one attempt starts from: the stored entry (or its absence), or the watch cache's copy. */
interface State {
  /** undefined: the key is absent (only ever a current state). */
  readonly object: KubeObject | undefined;
  /** The modRevision the compare-and-swap expects (0 when absent). */
  readonly revision: number;
  /** The stored bytes; for the cache's copy, its bytes when this store made the copy. */
  readonly value: Uint8Array | undefined;
  /**
   * Read from the KV or handed back by a lost compare-and-swap, so known to be
   * the stored state (kube's origStateIsCurrent); false for the cache's copy.
   */
  readonly isCurrent: boolean;
}

export function notFound(key: string): StorageError {
  return new StorageError('NotFound', `key ${key} not found`, { key });
}

function stateOf(ctx: Ctx, entry: KvEntry | undefined): State {
  if (entry === undefined) return { object: undefined, revision: 0, value: undefined, isCurrent: true };
  const object = ctx.decoded.decode(entry.key, entry.value, entry.modRevision);
  return { object, revision: entry.modRevision, value: entry.value, isCurrent: true };
}

async function readState(ctx: Ctx, key: string): Promise<State> {
  return stateOf(ctx, await ctx.kv.get(key));
}

/**
 * The first state: the cache's copy when one is given with a usable
 * resourceVersion (kube's getStateFromObject), else a read.
 */
async function firstState(ctx: Ctx, key: string, cached: KubeObject | undefined): Promise<State> {
  const rv = cached?.metadata.resourceVersion;
  const revision = rv !== undefined && /^[1-9][0-9]*$/.test(rv) ? Number(rv) : 0;
  if (cached === undefined || !Number.isSafeInteger(revision) || revision <= 0) return readState(ctx, key);
  return { object: cached, revision, value: ctx.decoded.bytesOf(cached), isCurrent: false };
}

/** The entry after a lost race: the one the error carries, or a fresh read if it has none. */
async function afterLostRace(ctx: Ctx, key: string, err: StorageError): Promise<State> {
  return stateOf(ctx, err.current ?? (await ctx.kv.get(key)));
}

/**
 * A refusal of the cache's copy may only say the copy is behind: read, and
 * answer `err` only when the stored state is that very revision (kube's
 * "cachedRev == origState.rev"); otherwise the caller tries again from the read.
 */
async function confirmRefusal(ctx: Ctx, key: string, state: State, err: unknown): Promise<State> {
  if (state.isCurrent) throw err;
  const read = await readState(ctx, key);
  if (read.revision === state.revision) throw err;
  return read;
}

/**
 * Whether `next` (encoded as `bytes`) stores nothing new over `current` (stored as
 * `stored`): the same bytes, or the same content up to member order. Members in
 * another order leave a JSON text's length as it was, so with the JSON codec only
 * texts of equal length are compared member by member: an update that changes
 * something seldom pays for the walk.
 */
function unchanged(ctx: Ctx, bytes: Uint8Array, stored: Uint8Array, next: KubeObject, current: KubeObject): boolean {
  if (bytesEqual(bytes, stored)) return true;
  if (ctx.codec === jsonObjectCodec && bytes.length !== stored.length) return false;
  return sameStoredContent(next, current);
}

export async function guaranteedUpdate(
  ctx: Ctx,
  key: string,
  opts: GuaranteedUpdateOptions,
): Promise<GuaranteedUpdateResult> {
  let state = await firstState(ctx, key, opts.cachedExisting);
  for (;;) {
    if (state.object === undefined && opts.allowCreate !== true) throw notFound(key);
    let next: KubeObject;
    try {
      checkPreconditions(key, opts.preconditions, state.object);
      next = await opts.tryUpdate({ current: state.object });
    } catch (err) {
      state = await confirmRefusal(ctx, key, state, err);
      continue;
    }
    const encoded = encodeForStorage(ctx.codec, next);
    const bytes = encoded.value;

    if (state.object === undefined) {
      try {
        return { object: await ctx.decoded.write(key, next, encoded, (value) => ctx.kv.create(key, value)), created: true };
      } catch (err) {
        if (!isStorageError(err, 'Exists')) throw err;
        state = await afterLostRace(ctx, key, err);
        continue;
      }
    }

    // kube skips writes that change nothing: no new revision, no watch event. Its
    // bytes order fields by the Go type; ours follow the object, so equal bytes or
    // equal content up to member order both mean nothing changed.
    if (unchanged(ctx, bytes, state.value ?? encodeObject(ctx.codec, state.object), next, state.object)) {
      if (state.isCurrent) return { object: state.object, created: false };
      // Equal to the cache's copy is not equal to what is stored: only the stored
      // bytes may skip the write (kube refreshes before short-circuiting too).
      const read = await readState(ctx, key);
      if (read.object !== undefined && unchanged(ctx, bytes, read.value!, next, read.object) && preconditionsHold(key, opts, read.object)) {
        return { object: read.object, created: false };
      }
      state = read;
      continue;
    }

    try {
      const expectedRevision = state.revision;
      return { object: await ctx.decoded.write(key, next, encoded, (value) => ctx.kv.put(key, value, { expectedRevision })), created: false };
    } catch (err) {
      if (isStorageError(err, 'Conflict')) state = await afterLostRace(ctx, key, err);
      else if (isStorageError(err, 'NotFound')) state = stateOf(ctx, undefined);
      else throw err;
    }
  }
}

/**
 * The stored bytes equal the cache's copy's, so they hold the same uid; a
 * resourceVersion precondition may still name the copy's revision, not the
 * stored one (a write of identical bytes in between): then the loop answers it.
 */
function preconditionsHold(key: string, opts: GuaranteedUpdateOptions, obj: KubeObject): boolean {
  try {
    checkPreconditions(key, opts.preconditions, obj);
    return true;
  } catch {
    return false;
  }
}

/** Deletes and returns the last state, stamped with the deleting revision. */
export async function deleteObject(ctx: Ctx, key: string, opts: StorageDeleteOptions): Promise<KubeObject> {
  // Nothing to check against: one unconditional delete, no read first.
  if (opts.preconditions === undefined && opts.validateDeletion === undefined) {
    const res = await ctx.kv.delete(key);
    return decodeObject(ctx.codec, { key, value: res.previous.value, revision: res.revision });
  }
  let state = await firstState(ctx, key, opts.cachedExisting);
  for (;;) {
    if (state.object === undefined) throw notFound(key);
    try {
      checkPreconditions(key, opts.preconditions, state.object);
      await opts.validateDeletion?.(state.object);
    } catch (err) {
      state = await confirmRefusal(ctx, key, state, err);
      continue;
    }
    try {
      const res = await ctx.kv.delete(key, { expectedRevision: state.revision });
      return decodeObject(ctx.codec, { key, value: res.previous.value, revision: res.revision });
    } catch (err) {
      if (isStorageError(err, 'Conflict')) state = await afterLostRace(ctx, key, err);
      else if (isStorageError(err, 'NotFound')) state = stateOf(ctx, undefined);
      else throw err;
    }
  }
}
