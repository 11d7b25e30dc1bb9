// Update (PUT), inside storage's optimistic loop so every check sees the object we
// will replace: name agreement -> resourceVersion (409 when stale, unconditional
// when absent and the strategy allows) -> carried-over metadata and resetFields ->
// prepareForUpdate -> validate -> warnings -> canonicalize -> validating admission.
// A missing object is created when the strategy allows create-on-update.
import { badRequest, conflict, invalid, notFound } from '../../errors/status-error.js';
import { invalidValue, path } from '../../errors/field-errors.js';
import type { KubeObject } from '../../schema/object.js';
import { dryRunStorage } from '../dry-run.js';
import { translateStorageError } from '../errors.js';
import { objectKey } from '../keys.js';
import { admissionAttributes, type StoreContext } from './context.js';
import { prepareCreate } from './create.js';
import { NO_ALLOCATION, type AllocationTxn } from '../allocation.js';
import { carryUpdateMetadata, copyResetFields, ensureNamespace, setTypeMeta, thaw } from './metadata.js';
import { validateObjectMetaUpdate } from '../validation/object-meta.js';
import { isStorageError } from '../../errors/storage-error.js';
import { shouldDeleteDuringUpdate } from './delete.js';
import type { UpdateOptions, UpdateResult } from './types.js';

/** handlers/rest.go checkName: the body must name what the URL names. */
function checkName(obj: KubeObject, opts: UpdateOptions, namespaced: boolean): void {
  const name = obj.metadata?.name ?? '';
  if (name !== opts.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${opts.name})`);
  const ns = obj.metadata.namespace ?? '';
  if (namespaced && (opts.namespace ?? '') !== '' && ns !== '' && ns !== opts.namespace) {
    throw badRequest(`the namespace of the object (${ns}) does not match the namespace on the request (${opts.namespace})`);
  }
}

async function prepareUpdate(
  ctx: StoreContext,
  input: KubeObject,
  current: KubeObject,
  opts: UpdateOptions,
): Promise<{ object: KubeObject; warnings: string[]; allocation: AllocationTxn }> {
  const def = ctx.definition;
  const next = thaw(input);
  setTypeMeta(next, def);
  ensureNamespace(next, def, opts.namespace);
  const wanted = next.metadata.resourceVersion ?? '';
  if (wanted === '' || wanted === '0') {
    if (def.strategy.allowUnconditionalUpdate === false) {
      // kube reports this with the resource as the kind (registry/generic/registry/store.go).
      throw invalid({ group: def.group, kind: def.plural }, opts.name, [
        invalidValue(path('metadata', 'resourceVersion'), 0, 'must be specified for an update'),
      ]);
    }
  } else if (wanted !== current.metadata.resourceVersion) {
    throw conflict(ctx.resource, opts.name);
  }
  // Unchanged input keeps the stored resourceVersion, so storage can skip a no-op write.
  next.metadata.resourceVersion = current.metadata.resourceVersion;

  await ctx.admission.admit(admissionAttributes(ctx, { operation: 'UPDATE', scope: opts, name: opts.name, object: next, oldObject: current }), ctx.lookup);
  setTypeMeta(next, def);
  carryUpdateMetadata(next, current);
  copyResetFields(next, current, def);
  def.strategy.prepareForUpdate?.(next, current);
  const strategyErrs = def.strategy.validateUpdate?.(next, current) ?? def.strategy.validate?.(next) ?? [];
  const errs = [...validateObjectMetaUpdate(next, current), ...strategyErrs];
  if (errs.length > 0) throw invalid({ group: def.group, kind: def.kind }, opts.name, errs);
  const warnings = def.strategy.warnings?.(next, current) ?? [];
  def.strategy.canonicalize?.(next);
  const allocation = (await ctx.allocator?.allocate(next, current, { dryRun: opts.dryRun === true })) ?? NO_ALLOCATION;
  try {
    await ctx.admission.validate(admissionAttributes(ctx, { operation: 'UPDATE', scope: opts, name: opts.name, object: next, oldObject: current }), ctx.lookup);
  } catch (err) {
    await allocation.revert();
    throw err;
  }
  return { object: next, warnings, allocation };
}

export async function update(ctx: StoreContext, input: KubeObject, opts: UpdateOptions): Promise<UpdateResult> {
  const def = ctx.definition;
  checkName(input, opts, def.scope === 'Namespaced');
  const storage = opts.dryRun === true ? dryRunStorage(ctx.storage) : ctx.storage;
  const key = objectKey(def, { namespace: opts.namespace, name: opts.name });
  let warnings: readonly string[] = [];
  let previous: KubeObject | undefined;
  // The reservations of the attempt in flight; a retry (the object moved) gives them back first.
  let allocation: AllocationTxn = NO_ALLOCATION;
  let result: Awaited<ReturnType<typeof storage.guaranteedUpdate>>;
  try {
    result = await storage.guaranteedUpdate(key, {
      allowCreate: def.strategy.allowCreateOnUpdate === true,
      tryUpdate: async ({ current }) => {
        await allocation.revert();
        allocation = NO_ALLOCATION;
        if (current === undefined) {
          // Create-on-update takes the create path; a resourceVersion means the caller expected an object.
          const rv = input.metadata.resourceVersion ?? '';
          if (rv !== '' && rv !== '0') throw notFound(ctx.resource, opts.name);
          const { resourceVersion: _rv, ...meta } = input.metadata;
          const prepared = await prepareCreate(ctx, { ...input, metadata: meta }, opts);
          warnings = prepared.warnings;
          allocation = prepared.allocation;
          return prepared.object;
        }
        previous = current;
        const prepared = await prepareUpdate(ctx, input, current, opts);
        warnings = prepared.warnings;
        allocation = prepared.allocation;
        return prepared.object;
      },
    });
  } catch (err) {
    await allocation.revert();
    throw translateStorageError(err, { operation: 'update', resource: ctx.resource, name: opts.name });
  }
  await allocation.commit();
  try {
    if (!result.created && previous !== undefined && shouldDeleteDuringUpdate(def, { next: result.object, current: previous })) {
      const removed = await finishDeletion(storage, key, result.object);
      if (removed !== result.object && opts.dryRun !== true) await ctx.allocator?.release(removed);
      return { object: removed, created: false, warnings };
    }
    return { object: result.object, created: result.created, warnings };
  } catch (err) {
    throw translateStorageError(err, { operation: 'update', resource: ctx.resource, name: opts.name });
  }
}

/**
 * The update removed the last finalizer of an object already being deleted: it
 * goes now, as kube-apiserver's store does after such an update. The delete is
 * pinned to what we just wrote; if it moved or went meanwhile, the update stands.
 */
async function finishDeletion(storage: StoreContext['storage'], key: string, written: KubeObject): Promise<KubeObject> {
  const { uid, resourceVersion } = written.metadata;
  try {
    return await storage.delete(key, {
      preconditions: { ...(uid === undefined ? {} : { uid }), ...(resourceVersion === undefined ? {} : { resourceVersion }) },
    });
  } catch (err) {
    if (isStorageError(err, 'NotFound') || isStorageError(err, 'Conflict')) return written;
    throw err;
  }
}
