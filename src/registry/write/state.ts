// What the write steps share for one attempt of one write: the request, the
// stored object and its view, the object being built, and what the steps
// collect (warnings, reserved pool values). pipeline.ts makes a fresh state per
// attempt, so a retry after a lost race starts clean. The view starts in the
// version the request addresses and is in the storage version from the convert
// step on (steps.ts says which steps run in which).
import type { AdmissionAttributes } from '../../admission/plugin.js';
import type { KubeObject } from '../../schema/object.js';
import type { AllocationTxn } from '../allocation.js';
import type { SubresourceDefinition, WriteContext } from '../strategy.js';
import { admissionAttributes, type StoreContext } from '../store/context.js';
import { SCALE_KIND, scaleOf } from '../store/subresource-scale.js';
import type { WriteRequest } from '../store/types.js';
import type { MaybePromise } from '../store/version-codec.js';

/** A declared subresource a write goes through. */
export interface WriteSubresource {
  readonly name: string;
  readonly declaration: SubresourceDefinition;
}

export interface WriteState {
  readonly ctx: StoreContext;
  readonly request: WriteRequest;
  /** Handed to every strategy hook. */
  readonly context: WriteContext;
  /** Absent for main-resource writes. */
  readonly sub: WriteSubresource | undefined;
  /** The stored object (frozen); absent on create. */
  readonly current: KubeObject | undefined;
  /** The stored object in the view's kind (the parent, or its Scale), as admission sees it; absent on create. */
  readonly oldView: KubeObject | undefined;
  /**
   * What the transform produced, in the view's kind: defaulted (in the request's
   * version), converted to the storage version, and admitted before it becomes the object.
   */
  view: KubeObject;
  /** The object to store; the reset-fields step makes it from the view (and the stored object). */
  object: KubeObject;
  warnings: string[];
  allocation: AllocationTxn;
  /** metadata.name came from generateName in this attempt (a collision is retried). */
  generatedName: boolean;
  /**
   * A create whose body named a resourceVersion kube's storage reads as set (a
   * non-zero uint64): refused when stored, after every step, as kube's storage refuses it.
   */
  readonly versionSetOnCreate: boolean;
}

/** One step of the write pipeline; steps.ts declares their order once. */
export interface WriteStep {
  readonly name: string;
  run(state: WriteState): void | Promise<void>;
}

/** The view of a stored object a subresource reads and writes, in the storage version: the object itself, or its Scale. */
export function viewOf(sub: WriteSubresource | undefined, obj: KubeObject): KubeObject {
  const scale = sub?.declaration.scale;
  return scale === undefined ? obj : scaleOf(obj, scale);
}

/**
 * The view of a stored object in the version the request addresses: the parent
 * through the kind's codec, or its Scale (computed from the stored version's
 * paths, the same in every version). What a transform starts from and a write answers.
 */
export function requestViewOf(ctx: StoreContext, sub: WriteSubresource | undefined, stored: KubeObject): MaybePromise<KubeObject> {
  const scale = sub?.declaration.scale;
  return scale === undefined ? ctx.codec.fromStorage(stored) : scaleOf(stored, scale);
}

/** The view has the parent's kind (main resource, status, finalize), so the kind's own hooks apply to it. */
export function viewIsParentKind(state: WriteState): boolean {
  return state.sub?.declaration.scale === undefined;
}

/** The name a write's errors and admission name: the URL's on update, the object's on create. */
export function writeName(state: WriteState): string {
  return state.request.name ?? state.object.metadata.name ?? '';
}

/** Admission's view of this write; `object` is the view (the Scale for scale writes). */
export function attributesOf(state: WriteState, object: KubeObject): AdmissionAttributes {
  const base = admissionAttributes(state.ctx, {
    operation: state.context.operation,
    scope: state.request,
    name: state.request.name ?? object.metadata.name ?? '',
    object,
    ...(state.oldView === undefined ? {} : { oldObject: state.oldView }),
  });
  if (state.sub === undefined) return base;
  return { ...base, subresource: state.sub.name, ...(state.sub.declaration.scale === undefined ? {} : { kind: SCALE_KIND }) };
}
