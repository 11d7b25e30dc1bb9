// What every verb of the generic store shares: the definition, the storage, the
// admission chain and the injected clock and uid source. Built once per served
// resource by registry.ts; the verb files (create.ts, update.ts, ...) take it as
// their first argument and keep no state of their own. `definition` is the stored
// version's (keys, strategy, subresources); `codec` converts between it and the
// version the resource is served in (version-codec.ts), which names the resource
// in errors and admission (resource, gvr, gvk).
import type { AdmissionChain } from '../../admission/chain.js';
import type { AdmissionAttributes, AdmissionLookup, AdmissionOperation } from '../../admission/plugin.js';
import type { GroupResource, GroupVersionKind, GroupVersionResource, KubeObject } from '../../schema/object.js';
import type { Storage } from '../../storage/storage.js';
import type { Allocator } from '../allocation.js';
import type { ResourceDefinition } from '../define-resource.js';
import type { WriteScope } from './types.js';
import type { VersionCodec } from './version-codec.js';

export interface StoreContext {
  /** The stored version's definition (codec.stored). */
  readonly definition: ResourceDefinition;
  /** The served version and its conversion to and from `definition`; the identity for most kinds. */
  readonly codec: VersionCodec;
  readonly storage: Storage;
  readonly admission: AdmissionChain;
  readonly lookup: AdmissionLookup;
  readonly clock: () => Date;
  readonly uid: () => string;
  /** Random integer in [0, max) for generateName suffixes. */
  readonly random: (max: number) => number;
  readonly resource: GroupResource;
  readonly gvr: GroupVersionResource;
  readonly gvk: GroupVersionKind;
  /** Pooled values of this kind (services: cluster IPs and node ports); absent for most kinds. */
  readonly allocator?: Allocator;
}

export function admissionAttributes(
  ctx: StoreContext,
  opts: { operation: AdmissionOperation; scope: WriteScope; name: string; object?: KubeObject; oldObject?: KubeObject },
): AdmissionAttributes {
  return {
    operation: opts.operation,
    resource: ctx.gvr,
    subresource: '',
    kind: ctx.gvk,
    namespace: ctx.definition.scope === 'Namespaced' ? (opts.scope.namespace ?? '') : '',
    name: opts.name,
    object: opts.object,
    oldObject: opts.oldObject,
    user: opts.scope.user,
    dryRun: opts.scope.dryRun === true,
  };
}
