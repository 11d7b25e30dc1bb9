// Values a kind takes from a pool shared by all its objects (kube's service REST:
// cluster IPs from --service-cluster-ip-range, node ports from
// --service-node-port-range). The generic store calls an allocator around the
// storage write, as kube's store calls BeginCreate/BeginUpdate: the values are
// reserved before the object is written, handed back if the write fails, and
// returned to the pool once the object is gone.
import type { KubeObject } from '../schema/object.js';

/** One write's reservations. */
export interface AllocationTxn {
  /** The write landed: let go of what the old object held and the new one no longer does. */
  commit(): Promise<void>;
  /** The write failed (or is being retried): give back what this write reserved. */
  revert(): Promise<void>;
}

export interface Allocator {
  /**
   * Fills the values `next` lacks and reserves every value it holds that `prev`
   * (the stored object on update; absent on create) did not. Throws a StatusError
   * (Invalid for a taken or out-of-range value). With dryRun nothing is reserved,
   * but a taken or out-of-range value is still refused.
   */
  allocate(next: KubeObject, prev: KubeObject | undefined, opts: { readonly dryRun: boolean }): Promise<AllocationTxn>;
  /** The object is gone from storage: its values go back to the pool. */
  release(obj: KubeObject): Promise<void>;
}

export const NO_ALLOCATION: AllocationTxn = {
  commit: async () => {},
  revert: async () => {},
};
