// Delete: read the object to choose the path -> inside storage, preconditions
// checked against what it is about to change, then validating admission on that
// object (kube's deleteValidation) -> remove, or, while finalizers hold the object,
// mark it with deletionTimestamp and keep it (kinds with a deletionHold also while
// their own finalizers remain, e.g. a namespace's spec.finalizers). The answer is the object
// (returnDeletedObject, or still pending) or a Success Status naming the resource
// and uid, as registry/generic/registry/store.go finalizeDelete writes it.
import { conflict, isStatusError } from '../../errors/status-error.js';
import { isStorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';
import type { Storage } from '../../storage/storage.js';
import type { ResourceDefinition } from '../define-resource.js';
import { dryRunStorage } from '../dry-run.js';
import { translateStorageError } from '../errors.js';
import { objectKey } from '../keys.js';
import { admissionAttributes, type StoreContext } from './context.js';
import { rfc3339, thaw } from './metadata.js';
import { get } from './read.js';
import type { DeleteOptions, DeleteResult, SuccessStatus } from './types.js';

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

type DeleteValidation = (obj: KubeObject) => Promise<void>;

/**
 * Finalizers keep the object: record the deletion request instead of removing it.
 * Storage checks the preconditions on the object it hands to tryUpdate; admission
 * and the kind's refusal then judge that same object.
 */
async function markDeleting(ctx: StoreContext, opts: { storage: Storage; key: string; request: DeleteOptions; validate: DeleteValidation }): Promise<KubeObject> {
  const hold = ctx.definition.strategy.deletionHold;
  const result = await opts.storage.guaranteedUpdate(opts.key, {
    ...(opts.request.preconditions === undefined ? {} : { preconditions: opts.request.preconditions }),
    tryUpdate: async ({ current }) => {
      if (current === undefined) return current!;
      await opts.validate(current);
      if (current.metadata.deletionTimestamp !== undefined) {
        // kube's namespace REST Delete: once marked, a DELETE while its own finalizers remain is a Conflict.
        const refusal = hold?.conflictWhilePending;
        if (refusal !== undefined && (hold?.finalizers(current) ?? []).length > 0) throw conflict(ctx.resource, opts.request.name, refusal);
        return current;
      }
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
  const storage = opts.dryRun === true ? dryRunStorage(ctx.storage) : ctx.storage;
  const validate: DeleteValidation = (obj) =>
    ctx.admission.validate(admissionAttributes(ctx, { operation: 'DELETE', scope: opts, name: opts.name, oldObject: obj }), ctx.lookup);
  try {
    const pending = pendingFinalizers(ctx, current);
    if (pending.meta + pending.own > 0) {
      const marked = await markDeleting(ctx, { storage, key, request: opts, validate });
      return { object: marked, response: marked, warnings: [] };
    }
    // Preconditions are storage's to check, on the object it is about to delete (it may
    // have changed since the read above); admission judges that object once they hold.
    const deleted = await storage.delete(key, {
      ...(opts.preconditions === undefined ? {} : { preconditions: opts.preconditions }),
      validateDeletion: validate,
    });
    // The object is gone: its pooled values (a service's cluster IP, node ports) go back.
    if (opts.dryRun !== true) await ctx.allocator?.release(deleted);
    return { object: deleted, response: def.strategy.returnDeletedObject === true ? deleted : successStatus(ctx, deleted), warnings: [] };
  } catch (err) {
    if (isStatusError(err) || !isStorageError(err)) throw err;
    throw translateStorageError(err, { operation: 'delete', resource: ctx.resource, name: opts.name });
  }
}
