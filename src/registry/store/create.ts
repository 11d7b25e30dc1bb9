// Create, in the order the store owns (STYLE §3): type and namespace -> mutating
// admission -> system metadata -> resetFields -> prepareForCreate -> generateName ->
// validate -> warnings -> canonicalize -> pooled values (allocation.ts) ->
// validating admission -> write -> translate. A failed write hands the pooled values back.
// A generated name that collides is regenerated a few times (kube's
// maxNameGenerationCreateAttempts) before answering AlreadyExists with Retry-After.
import { generateNameConflict, internal, invalid, isStatusError } from '../../errors/status-error.js';
import type { KubeObject } from '../../schema/object.js';
import { dryRunStorage } from '../dry-run.js';
import { translateStorageError } from '../errors.js';
import { objectKey } from '../keys.js';
import { admissionAttributes, type StoreContext } from './context.js';
import { clearResetFields, ensureNamespace, fillCreateMetadata, generateName, setTypeMeta, thaw } from './metadata.js';
import { validateObjectMeta } from '../validation/object-meta.js';
import type { CreateOptions, WriteResult } from './types.js';
import { NO_ALLOCATION, type AllocationTxn } from '../allocation.js';

/** What prepareCreate hands the write: the object, its warnings and its pooled values. */
export interface PreparedCreate extends WriteResult {
  readonly allocation: AllocationTxn;
}

const GENERATE_NAME_ATTEMPTS = 8;

/**
 * Everything before the write, shared with create-on-update: returns the object to
 * store and its warnings. Runs both admission phases.
 */
export async function prepareCreate(ctx: StoreContext, input: KubeObject, opts: CreateOptions): Promise<PreparedCreate> {
  const def = ctx.definition;
  const obj = thaw(input);
  obj.metadata ??= {};
  setTypeMeta(obj, def);
  ensureNamespace(obj, def, opts.namespace);
  const rv = obj.metadata.resourceVersion;
  // kube's storage refuses a parseable non-zero resourceVersion on create (a 500, as upstream).
  if (rv !== undefined && /^\d+$/.test(rv) && rv !== '0') throw internal(new Error('resourceVersion should not be set on objects to be created'));
  delete obj.metadata.resourceVersion;

  await ctx.admission.admit(admissionAttributes(ctx, { operation: 'CREATE', scope: opts, name: obj.metadata.name ?? '', object: obj }), ctx.lookup);
  setTypeMeta(obj, def);
  fillCreateMetadata(obj, { now: ctx.clock(), uid: ctx.uid() });
  clearResetFields(obj, def);
  def.strategy.prepareForCreate?.(obj);
  if ((obj.metadata.name ?? '') === '' && (obj.metadata.generateName ?? '') !== '') {
    obj.metadata.name = generateName(obj.metadata.generateName!, ctx.random);
  }
  // ObjectMeta first, then the kind's own fields: kube-apiserver's message order.
  const errs = [
    ...validateObjectMeta(obj, { namespaced: def.scope === 'Namespaced', nameValidation: def.nameValidation, isCreate: true }),
    ...(def.strategy.validate?.(obj) ?? []),
  ];
  if (errs.length > 0) throw invalid({ group: def.group, kind: def.kind }, obj.metadata.name ?? '', errs);
  const warnings = def.strategy.warnings?.(obj) ?? [];
  def.strategy.canonicalize?.(obj);
  const allocation = (await ctx.allocator?.allocate(obj, undefined, { dryRun: opts.dryRun === true })) ?? NO_ALLOCATION;
  try {
    await ctx.admission.validate(admissionAttributes(ctx, { operation: 'CREATE', scope: opts, name: obj.metadata.name ?? '', object: obj }), ctx.lookup);
  } catch (err) {
    await allocation.revert();
    throw err;
  }
  return { object: obj, warnings, allocation };
}

export async function create(ctx: StoreContext, input: KubeObject, opts: CreateOptions = {}): Promise<WriteResult> {
  const generated = (input.metadata?.name ?? '') === '' && (input.metadata?.generateName ?? '') !== '';
  const storage = opts.dryRun === true ? dryRunStorage(ctx.storage) : ctx.storage;
  for (let attempt = 1; ; attempt++) {
    const prepared = await prepareCreate(ctx, input, opts);
    const name = prepared.object.metadata.name!;
    let object: KubeObject;
    try {
      object = await storage.create(objectKey(ctx.definition, { namespace: prepared.object.metadata.namespace, name }), prepared.object);
    } catch (err) {
      await prepared.allocation.revert();
      const status = translateStorageError(err, { operation: 'create', resource: ctx.resource, name });
      if (generated && isStatusError(status) && status.reason === 'AlreadyExists') {
        if (attempt < GENERATE_NAME_ATTEMPTS) continue;
        throw generateNameConflict(ctx.resource, name, 1);
      }
      throw status;
    }
    await prepared.allocation.commit();
    return { object, warnings: prepared.warnings };
  }
}
