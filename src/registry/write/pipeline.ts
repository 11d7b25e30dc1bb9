// The registry's one write operation. A write reads the current object inside
// storage's guaranteed update (create: there is none), applies the request's
// transform (the PUT body, a patch, a subresource view), checks that the result
// addresses the object it came from (name, namespace, resourceVersion), runs the
// steps of steps.ts in their declared order and stores the result. The transform
// sees, and the write answers, the version the request addresses; the steps
// convert to the storage version (steps.ts says where). A lost race
// re-runs the transform on the newer object here, so no endpoint loops. A write
// that leaves a deleted object without finalizers removes it afterwards, as
// kube-apiserver's store does (this is how /finalize ends a namespace).
import { backendError, badRequest, conflict, generateNameConflict, internal, invalid, isStatusError, notFound } from '../../errors/status-error.js';
import { goLiteral, invalidValue, path } from '../../schema/field-errors.js';
import { isStorageError } from '../../errors/storage-error.js';
import { parseGoUint64 } from '../../schema/go-strconv.js';
import type { KubeObject } from '../../schema/object.js';
import type { Storage } from '../../storage/storage.js';
import { NO_ALLOCATION } from '../allocation.js';
import { dryRunStorage } from '../dry-run.js';
import { translateStorageError } from '../errors.js';
import { objectKey } from '../keys.js';
import type { StoreContext } from '../store/context.js';
import { shouldDeleteDuringUpdate } from '../store/delete.js';
import { ensureNamespace, setTypeMeta, thaw } from '../store/metadata.js';
import type { UpdateResult, WriteRequest } from '../store/types.js';
import { requestViewOf, viewOf, type WriteState, type WriteSubresource } from './state.js';
import { WRITE_STEPS } from './steps.js';

/** kube's maxNameGenerationCreateAttempts: a generated name that collides is drawn again this often. */
const GENERATE_NAME_ATTEMPTS = 8;

export async function write(ctx: StoreContext, request: WriteRequest): Promise<UpdateResult> {
  const sub = subresourceOf(ctx, request);
  return request.verb === 'create' ? create(ctx, request) : update(ctx, request, sub);
}

function subresourceOf(ctx: StoreContext, request: WriteRequest): WriteSubresource | undefined {
  const name = request.subresource ?? '';
  if (name === '') return undefined;
  const declaration = Object.hasOwn(ctx.definition.subresources, name) ? ctx.definition.subresources[name] : undefined;
  // The installer routes only declared subresources; an in-process caller naming another is a bug.
  if (declaration === undefined) throw internal(new Error(`subresource ${name} of ${ctx.definition.plural} is not declared`));
  if (request.verb === 'create') throw internal(new Error(`subresource ${name}: writes through a subresource update its parent`));
  return { name, declaration };
}

function storageOf(ctx: StoreContext, request: WriteRequest): Storage {
  return request.dryRun === true ? dryRunStorage(ctx.storage) : ctx.storage;
}

async function runSteps(state: WriteState): Promise<void> {
  for (const step of WRITE_STEPS) await step.run(state);
}

/** A fresh state for one attempt: the transform's result, checked against the object it addresses. */
async function begin(
  ctx: StoreContext,
  request: WriteRequest,
  target: { sub: WriteSubresource | undefined; current: KubeObject | undefined },
): Promise<WriteState> {
  const { sub, current } = target;
  const oldView = current === undefined ? undefined : viewOf(sub, current);
  // The transform works in the request's version: a PATCH applies to what a GET answers.
  const requestOld = current === undefined || !ctx.codec.converts ? oldView : await requestViewOf(ctx, sub, current);
  const transformed = await request.transform(requestOld);
  const view = transformed.fresh === true ? transformed.object : thaw(transformed.object);
  view.metadata ??= {};
  if (request.verb === 'update') checkName(ctx, view, request);
  const versionSetOnCreate = current === undefined ? acceptCreate(ctx, view, request) : false;
  if (current !== undefined) acceptUpdate(ctx, { view, current, request, sub });
  const state: WriteState = {
    ctx,
    request,
    context: {
      operation: current === undefined ? 'CREATE' : 'UPDATE',
      user: request.user,
      now: ctx.clock(),
      namespace: ctx.definition.scope === 'Namespaced' ? (request.namespace ?? '') : '',
      dryRun: request.dryRun === true,
      subresource: sub?.name ?? '',
      requestVersion: { group: ctx.codec.served.group, version: ctx.codec.served.version },
    },
    sub,
    current,
    oldView,
    view,
    object: view,
    warnings: [...(transformed.warnings ?? [])],
    allocation: NO_ALLOCATION,
    generatedName: false,
    versionSetOnCreate,
  };
  return state;
}

/** handlers/rest.go checkName: the body must name what the URL names. */
function checkName(ctx: StoreContext, view: KubeObject, request: WriteRequest): void {
  const name = view.metadata.name ?? '';
  if (name !== request.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${request.name ?? ''})`);
  const ns = view.metadata.namespace ?? '';
  if (ctx.definition.scope === 'Namespaced' && (request.namespace ?? '') !== '' && ns !== '' && ns !== request.namespace) {
    throw badRequest(`the namespace of the object (${ns}) does not match the namespace on the request (${request.namespace})`);
  }
}

/**
 * A new object (POST, or PUT of a missing one): the kind's type fields, the request's
 * namespace, no resourceVersion. Answers whether a POST named a version kube's storage
 * refuses: a non-zero uint64 (strconv.ParseUint); one that does not parse is dropped.
 */
function acceptCreate(ctx: StoreContext, view: KubeObject, request: WriteRequest): boolean {
  const rv = view.metadata.resourceVersion;
  // Create-on-update: a resourceVersion means the caller expected an existing object.
  if (request.verb === 'update' && rv !== undefined && rv !== '' && rv !== '0') throw notFound(ctx.resource, request.name ?? '');
  delete view.metadata.resourceVersion;
  setTypeMeta(view, ctx.codec.served);
  ensureNamespace(view, ctx.definition, request.namespace);
  if (request.verb === 'update' || rv === undefined) return false;
  const parsed = parseGoUint64(rv);
  return parsed.error === undefined && parsed.value !== 0n;
}

/** An update: the resourceVersion the view carries is a precondition (409 when stale), or absent where the kind allows. */
function acceptUpdate(ctx: StoreContext, opts: { view: KubeObject; current: KubeObject; request: WriteRequest; sub: WriteSubresource | undefined }): void {
  const { view, current, request } = opts;
  const def = ctx.definition;
  const wanted = view.metadata.resourceVersion ?? '';
  if (wanted === '' || wanted === '0') {
    if (def.strategy.allowUnconditionalUpdate === false) {
      // kube reports this with the resource as the kind (registry/generic/registry/store.go),
      // and the version as the uint64 it parsed, which Go prints as 0x0.
      throw invalid({ group: def.group, kind: def.plural }, request.name ?? '', [
        invalidValue(path('metadata', 'resourceVersion'), goLiteral('0x0'), 'must be specified for an update'),
      ]);
    }
  } else if (wanted !== current.metadata.resourceVersion) {
    throw conflict(ctx.resource, request.name ?? '');
  }
  if (opts.sub !== undefined) return;
  setTypeMeta(view, ctx.codec.served);
  ensureNamespace(view, def, request.namespace);
  // Unchanged input keeps the stored resourceVersion, so storage can skip a no-op write.
  view.metadata.resourceVersion = current.metadata.resourceVersion;
}

async function create(ctx: StoreContext, request: WriteRequest): Promise<UpdateResult> {
  const storage = storageOf(ctx, request);
  for (let attempt = 1; ; attempt++) {
    const state = await begin(ctx, request, { sub: undefined, current: undefined });
    try {
      await runSteps(state);
    } catch (err) {
      await state.allocation.revert();
      throw err;
    }
    const name = state.object.metadata.name ?? '';
    // kube's storage refuses it with a plain error (a 500 without reason); its dry run never asks.
    if (state.versionSetOnCreate && request.dryRun !== true) {
      await state.allocation.revert();
      throw backendError('resourceVersion should not be set on objects to be created');
    }
    let object: KubeObject;
    try {
      object = await storage.create(objectKey(ctx.definition, { namespace: state.object.metadata.namespace, name }), state.object);
    } catch (err) {
      await state.allocation.revert();
      const status = translateStorageError(err, { operation: 'create', resource: ctx.resource, name });
      if (state.generatedName && isStatusError(status) && status.reason === 'AlreadyExists') {
        if (attempt < GENERATE_NAME_ATTEMPTS) continue;
        throw generateNameConflict(ctx.resource, name, 1);
      }
      throw status;
    }
    await state.allocation.commit();
    return { object: await ctx.codec.fromStorage(object), created: true, warnings: state.warnings };
  }
}

async function update(ctx: StoreContext, request: WriteRequest, sub: WriteSubresource | undefined): Promise<UpdateResult> {
  const def = ctx.definition;
  const name = request.name ?? '';
  const storage = storageOf(ctx, request);
  const key = objectKey(def, { namespace: request.namespace, name });
  // The state of the attempt in flight; a retry (the object moved) gives its reservations back first.
  let state: WriteState | undefined;
  let result: Awaited<ReturnType<Storage['guaranteedUpdate']>>;
  try {
    result = await storage.guaranteedUpdate(key, {
      allowCreate: sub === undefined && request.allowCreate !== false && def.strategy.allowCreateOnUpdate === true,
      tryUpdate: async ({ current }) => {
        await state?.allocation.revert();
        state = undefined;
        const attempt = await begin(ctx, request, { sub, current });
        state = attempt;
        await runSteps(attempt);
        return attempt.object;
      },
    });
  } catch (err) {
    await state?.allocation.revert();
    throw translateStorageError(err, { operation: 'update', resource: ctx.resource, name });
  }
  const done = state!;
  await done.allocation.commit();
  try {
    const current = done.current;
    if (!result.created && current !== undefined && shouldDeleteDuringUpdate(def, { next: result.object, current })) {
      const removed = await finishDeletion(storage, key, result.object);
      if (removed !== result.object && request.dryRun !== true && sub === undefined) await ctx.allocator?.release(removed);
      return { object: await requestViewOf(ctx, sub, removed), created: false, warnings: done.warnings };
    }
    return { object: await requestViewOf(ctx, sub, result.object), created: result.created, warnings: done.warnings };
  } catch (err) {
    throw translateStorageError(err, { operation: 'update', resource: ctx.resource, name });
  }
}

/**
 * The update removed the last finalizer of an object already being deleted: it
 * goes now. The delete is pinned to what was just written; if it moved or went
 * meanwhile, the update stands.
 */
async function finishDeletion(storage: Storage, key: string, written: KubeObject): Promise<KubeObject> {
  const { uid, resourceVersion } = written.metadata;
  try {
    return await storage.delete(key, {
      preconditions: { ...(uid === undefined ? {} : { uid }), ...(resourceVersion === undefined ? {} : { resourceVersion }) },
    });
  } catch (err) {
    if (isStorageError(err, 'NotFound') || isStorageError(err, 'PreconditionFailed')) return written;
    throw err;
  }
}
