// The admission contract: what a plugin sees and may do. The generic store calls the
// chain (chain.ts) at fixed points of every write — mutating before defaulting and
// validation, validating after them on the object about to be written — so plugins
// never decide their own order. A plugin throws a StatusError to refuse.
import type { UserInfo } from '../schema/user.js';
import type { GroupVersionKind, GroupVersionResource, KubeObject } from '../schema/object.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  readonly kind: GroupVersionKind;
  readonly namespace: string;
  readonly name: string;
  /** The incoming object (CREATE/UPDATE); mutating plugins may change it. */
  readonly object: KubeObject | undefined;
  /** The stored object (UPDATE/DELETE). Frozen or a copy: never change it. */
  readonly oldObject: KubeObject | undefined;
  readonly user: UserInfo | undefined;
  readonly dryRun: boolean;
}

/** What plugins may read; the registry supplies it (kube: informers/listers). */
export interface AdmissionLookup {
  /** The namespace object, or undefined when it does not exist. */
  getNamespace(name: string): Promise<KubeObject | undefined>;
}

export interface AdmissionPlugin {
  readonly name: string;
  /** Mutating phase: may change attrs.object. */
  readonly admit?: (attrs: AdmissionAttributes, lookup: AdmissionLookup) => void | Promise<void>;
  /** Validating phase: may only refuse. */
  readonly validate?: (attrs: AdmissionAttributes, lookup: AdmissionLookup) => void | Promise<void>;
}
