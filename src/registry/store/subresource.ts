// Subresources of the generic store (status, scale, finalize), served from what a
// definition declares (SubresourceDefinition), never per resource. A read answers
// the subresource's view of the parent: the parent itself, or the Scale computed
// from declared paths. A write, inside storage's optimistic loop: view of the
// current parent -> transform (PUT: the body; PATCH: the patched view) -> name and
// resourceVersion checks -> mutating admission -> merge into the stored parent
// (status/finalize: only `path` changes, the parent's strategy is skipped, as kube's
// separate status strategies do; scale: spec replicas, then the parent's strategy)
// -> validation -> validating admission -> write. A write that leaves a deleted
// object without finalizers removes it (kube's ShouldDeleteDuringUpdate; this is how
// /finalize completes a namespace deletion).
import { badRequest, conflict, invalid, methodNotSupported } from '../../errors/status-error.js';
import { invalidValue, path } from '../../errors/field-errors.js';
import type { AdmissionAttributes, AdmissionOperation } from '../../admission/plugin.js';
import type { KubeObject } from '../../schema/object.js';
import type { SubresourceDefinition } from '../define-resource.js';
import { dryRunStorage } from '../dry-run.js';
import { translateStorageError } from '../errors.js';
import { objectKey } from '../keys.js';
import { validateObjectMetaUpdate } from '../validation/object-meta.js';
import { admissionAttributes, type StoreContext } from './context.js';
import { shouldDeleteDuringUpdate } from './delete.js';
import { getPath, setPath, thaw } from './metadata.js';
import { get } from './read.js';
import { applyScale, SCALE_KIND, scaleOf } from './subresource-scale.js';
import { isStorageError } from '../../errors/storage-error.js';
import type { CreateOptions, SubresourceStore, SubresourceWriteOptions, UpdateOptions, WriteResult } from './types.js';

interface Sub {
  readonly name: string;
  readonly declaration: SubresourceDefinition;
}

function viewOf(sub: Sub, parent: KubeObject): KubeObject {
  return sub.declaration.scale === undefined ? parent : scaleOf(parent, sub.declaration.scale);
}

/** handlers/rest.go checkName, as for the parent's PUT. */
function checkName(ctx: StoreContext, wanted: KubeObject, opts: UpdateOptions): void {
  const name = wanted.metadata.name ?? '';
  if (name !== opts.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${opts.name})`);
  const ns = wanted.metadata.namespace ?? '';
  if (ctx.definition.scope === 'Namespaced' && (opts.namespace ?? '') !== '' && ns !== '' && ns !== opts.namespace) {
    throw badRequest(`the namespace of the object (${ns}) does not match the namespace on the request (${opts.namespace})`);
  }
}

function checkResourceVersion(ctx: StoreContext, opts: { wanted: KubeObject; current: KubeObject; name: string }): void {
  const rv = opts.wanted.metadata.resourceVersion ?? '';
  if (rv === '' || rv === '0') {
    if (ctx.definition.strategy.allowUnconditionalUpdate === false) {
      throw invalid({ group: ctx.definition.group, kind: ctx.definition.plural }, opts.name, [
        invalidValue(path('metadata', 'resourceVersion'), 0, 'must be specified for an update'),
      ]);
    }
  } else if (rv !== opts.current.metadata.resourceVersion) {
    throw conflict(ctx.resource, opts.name);
  }
}

function attributes(
  ctx: StoreContext,
  sub: Sub,
  opts: { operation: AdmissionOperation; scope: UpdateOptions; object: KubeObject; oldObject: KubeObject },
): AdmissionAttributes {
  const base = admissionAttributes(ctx, { ...opts, name: opts.scope.name });
  return { ...base, subresource: sub.name, ...(sub.declaration.scale === undefined ? {} : { kind: SCALE_KIND }) };
}

/** The parent with the wanted view merged in, validated; mutates nothing it was given. */
function merge(ctx: StoreContext, sub: Sub, opts: { current: KubeObject; wanted: KubeObject; name: string }): KubeObject {
  const def = ctx.definition;
  const next = thaw(opts.current);
  const scale = sub.declaration.scale;
  if (scale !== undefined) {
    applyScale(next, opts.wanted, scale);
    // Scale writes are parent writes (kube's scale REST calls the parent's Update): generation moves.
    def.strategy.prepareForUpdate?.(next, opts.current);
  } else {
    const at = sub.declaration.path;
    if (at === undefined) throw methodNotSupported(ctx.resource, 'update');
    setPath(next, at, structuredClone(getPath(opts.wanted, at)));
  }
  const validateUpdate = (scale === undefined ? sub.declaration.validateUpdate : undefined) ?? def.strategy.validateUpdate;
  const errs = [
    ...validateObjectMetaUpdate(next, opts.current),
    ...(validateUpdate?.(next, opts.current) ?? def.strategy.validate?.(next) ?? []),
  ];
  if (errs.length > 0) throw invalid({ group: def.group, kind: def.kind }, opts.name, errs);
  return next;
}

async function write(ctx: StoreContext, sub: Sub, opts: SubresourceWriteOptions): Promise<WriteResult> {
  const def = ctx.definition;
  const key = objectKey(def, { namespace: opts.namespace, name: opts.name });
  const storage = opts.dryRun === true ? dryRunStorage(ctx.storage) : ctx.storage;
  let warnings: string[] = [];
  let deleteAt: string | undefined;
  try {
    const result = await storage.guaranteedUpdate(key, {
      tryUpdate: async ({ current }) => {
        // allowCreate is off, so storage answers NotFound before calling us without an object.
        const stored = current!;
        deleteAt = undefined;
        const view = viewOf(sub, stored);
        const wanted = thaw(await opts.transform(view));
        wanted.metadata ??= {};
        checkName(ctx, wanted, opts);
        checkResourceVersion(ctx, { wanted, current: stored, name: opts.name });
        await ctx.admission.admit(attributes(ctx, sub, { operation: 'UPDATE', scope: opts, object: wanted, oldObject: view }), ctx.lookup);
        const next = merge(ctx, sub, { current: stored, wanted, name: opts.name });
        warnings = def.strategy.warnings?.(next, stored) ?? [];
        def.strategy.canonicalize?.(next);
        await ctx.admission.validate(attributes(ctx, sub, { operation: 'UPDATE', scope: opts, object: viewOf(sub, next), oldObject: view }), ctx.lookup);
        if (shouldDeleteDuringUpdate(def, { next, current: stored })) {
          // Unchanged: nothing is written; the delete below is conditional on this revision.
          deleteAt = stored.metadata.resourceVersion;
          return stored;
        }
        return next;
      },
    });
    if (deleteAt === undefined) return { object: viewOf(sub, result.object), warnings };
    const deleted = await storage.delete(key, { preconditions: { resourceVersion: deleteAt } });
    return { object: viewOf(sub, deleted), warnings };
  } catch (err) {
    throw translateStorageError(err, { operation: 'update', resource: ctx.resource, name: opts.name });
  }
}

/** The store of a declared subresource; undefined for one the definition does not declare. */
export function subresourceStore(ctx: StoreContext, name: string): SubresourceStore | undefined {
  const declaration = Object.hasOwn(ctx.definition.subresources, name) ? ctx.definition.subresources[name] : undefined;
  if (declaration === undefined) return undefined;
  const sub: Sub = { name, declaration };
  return {
    name,
    declaration,
    kind: declaration.responseKind ?? (declaration.scale === undefined ? ctx.gvk : SCALE_KIND),
    get: async (opts) => viewOf(sub, await get(ctx, opts)),
    update: (obj, opts) => write(ctx, sub, { ...opts, transform: () => obj }),
    updateWith: (opts) => write(ctx, sub, opts),
    ...(declaration.create === undefined ? {} : { create: (body, opts) => computeCreate(ctx, declaration.create!, body, opts) }),
  };
}

/** A computing subresource's POST: the stored parent (404 when absent) and the body go to its hook. */
async function computeCreate(
  ctx: StoreContext,
  compute: NonNullable<SubresourceDefinition['create']>,
  body: KubeObject,
  opts: CreateOptions & { name: string },
): Promise<WriteResult> {
  const parent = await get(ctx, { namespace: opts.namespace, name: opts.name });
  const object = await compute(parent, body, {
    user: opts.user,
    dryRun: opts.dryRun === true,
    now: ctx.clock(),
    getObject: async (kind, namespace, name) => {
      try {
        return await ctx.storage.get(objectKey(kind, { namespace, name }));
      } catch (err) {
        if (isStorageError(err, 'NotFound')) return undefined;
        throw err;
      }
    },
  });
  return { object, warnings: [] };
}
