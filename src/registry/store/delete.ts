// Delete: read the object -> validating admission -> preconditions checked against
// what storage is about to delete -> remove, or, while finalizers hold the object,
// mark it with deletionTimestamp and keep it (kinds with a deletionHold also while
// their own finalizers remain, e.g. a namespace's spec.finalizers). The answer is the object
// (returnDeletedObject, or still pending) or a Success Status naming the resource
// and uid, as registry/generic/registry/store.go finalizeDelete writes it.
import { conflict, isStatusError } from '../../errors/status-error.js';
import { isStorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';
import type { Preconditions } from '../../storage/storage.js';
import type { ResourceDefinition } from '../define-resource.js';
import { dryRunStorage } from '../dry-run.js';
import { translateStorageError } from '../errors.js';
import { objectKey } from '../keys.js';
import { admissionAttributes, type StoreContext } from './context.js';
import { rfc3339, thaw } from './metadata.js';
import { get } from './read.js';
import type { DeleteOptions, DeleteResult, SuccessStatus } from './types.js';

function preconditionFailure(ctx: StoreContext, opts: { key: string; name: string; obj: KubeObject; pre: Preconditions | undefined }): Error | undefined {
  const { obj, pre } = opts;
  let why: string | undefined;
  if (pre?.uid !== undefined && pre.uid !== obj.metadata.uid) {
    why = `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`;
  } else if (pre?.resourceVersion !== undefined && pre.resourceVersion !== obj.metadata.resourceVersion) {
    why = `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`;
  }
  if (why === undefined) return undefined;
  // kube wraps the storage error text; clients match on reason, people read the rest.
  return conflict(ctx.resource, opts.name, `StorageError: invalid object, Code: 4, Key: /registry${opts.key}, ResourceVersion: 0, AdditionalErrorMsg: ${why}`);
}

export function successStatus(ctx: StoreContext, obj: KubeObject): SuccessStatus {
  const details: { name?: string; group?: string; kind: string; uid?: string } = { kind: ctx.resource.resource };
  if (obj.metadata.name !== undefined) details.name = obj.metadata.name;
  if (ctx.resource.group !== '') details.group = ctx.resource.group;
  if (obj.metadata.uid !== undefined) details.uid = obj.metadata.uid;
  const ordered = { name: details.name, group: details.group, kind: details.kind, uid: details.uid };
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: JSON.parse(JSON.stringify(ordered)) };
}

/** What keeps a deleted object: metadata.finalizers plus the kind's own (deletionHold). */
function pendingFinalizers(ctx: StoreContext, obj: KubeObject): { meta: number; own: number } {
  return { meta: (obj.metadata.finalizers ?? []).length, own: (ctx.definition.strategy.deletionHold?.finalizers(obj) ?? []).length };
}

/**
 * kube's ShouldDeleteDuringUpdate (and ShouldDeleteNamespaceDuringUpdate): a write
 * that leaves an object marked for deletion (without a running grace period) with
 * no finalizers removes it instead of storing it.
 */
export function shouldDeleteDuringUpdate(def: ResourceDefinition, opts: { next: KubeObject; current: KubeObject }): boolean {
  const old = opts.current.metadata;
  if (old.deletionTimestamp === undefined || old.deletionTimestamp === null) return false;
  if ((old.deletionGracePeriodSeconds ?? 0) !== 0) return false;
  return (opts.next.metadata.finalizers ?? []).length === 0 && (def.strategy.deletionHold?.finalizers(opts.next) ?? []).length === 0;
}

/** Finalizers keep the object: record the deletion request instead of removing it. */
async function markDeleting(ctx: StoreContext, key: string, opts: DeleteOptions): Promise<KubeObject> {
  const storage = opts.dryRun === true ? dryRunStorage(ctx.storage) : ctx.storage;
  const hold = ctx.definition.strategy.deletionHold;
  const result = await storage.guaranteedUpdate(key, {
    ...(opts.preconditions === undefined ? {} : { preconditions: opts.preconditions }),
    tryUpdate: ({ current }) => {
      if (current === undefined || current.metadata.deletionTimestamp !== undefined) return current!;
      const next = thaw(current);
      next.metadata.deletionTimestamp = rfc3339(ctx.clock());
      // kube's markAsDeleting zeroes the grace period; a kind with its own hold (namespaces) marks only the time.
      if (hold === undefined) next.metadata.deletionGracePeriodSeconds = 0;
      hold?.markDeleting?.(next);
      return next;
    },
  });
  return result.object;
}

export async function remove(ctx: StoreContext, opts: DeleteOptions): Promise<DeleteResult> {
  const def = ctx.definition;
  const key = objectKey(def, { namespace: opts.namespace, name: opts.name });
  const current = await get(ctx, { namespace: opts.namespace, name: opts.name });
  const failed = preconditionFailure(ctx, { key, name: opts.name, obj: current, pre: opts.preconditions });
  if (failed !== undefined) throw failed;
  await ctx.admission.validate(admissionAttributes(ctx, { operation: 'DELETE', scope: opts, name: opts.name, oldObject: current }), ctx.lookup);

  try {
    const pending = pendingFinalizers(ctx, current);
    if (pending.meta + pending.own > 0) {
      // kube's namespace REST Delete: once marked, a DELETE while its own finalizers remain is a Conflict.
      const refusal = def.strategy.deletionHold?.conflictWhilePending;
      if (current.metadata.deletionTimestamp !== undefined && pending.own > 0 && refusal !== undefined) {
        throw conflict(ctx.resource, opts.name, refusal);
      }
      const marked = await markDeleting(ctx, key, opts);
      return { object: marked, response: marked, warnings: [] };
    }
    const storage = opts.dryRun === true ? dryRunStorage(ctx.storage) : ctx.storage;
    const deleted = await storage.delete(key, {
      // Checked again on the object storage is about to delete: it may have changed since the read.
      validateDeletion: (obj) => {
        const err = preconditionFailure(ctx, { key, name: opts.name, obj, pre: opts.preconditions });
        if (err !== undefined) throw err;
      },
    });
    // The object is gone: its pooled values (a service's cluster IP, node ports) go back.
    if (opts.dryRun !== true) await ctx.allocator?.release(deleted);
    return { object: deleted, response: def.strategy.returnDeletedObject === true ? deleted : successStatus(ctx, deleted), warnings: [] };
  } catch (err) {
    if (isStatusError(err) || !isStorageError(err)) throw err;
    throw translateStorageError(err, { operation: 'delete', resource: ctx.resource, name: opts.name });
  }
}
