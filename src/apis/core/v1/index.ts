// The core group (`/api/v1`): every built-in core/v1 resource, in the order
// discovery lists them. coreV1() is what the server serves: the kinds as
// declared, with what they need at run time composed in (the token signer behind
// serviceaccounts/token, the pools services take cluster IPs and node ports from,
// the pods store bindings write through, the components componentstatuses probe).
// The per-kind exports stay the kinds as declared, for tests.
import type { Allocator } from '../../../registry/allocation.js';
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import type { ResourceStore } from '../../../registry/store/types.js';
import { bindings, withBinding, type PodStoreRef } from './bindings.js';
import { withEviction } from './evictions.js';
import { componentStatuses, type ProbedComponent } from './component-statuses.js';
import { configMaps } from './config-maps.js';
import { endpoints } from './endpoints.js';
import { events } from './events.js';
import { limitRanges } from './limit-ranges.js';
import { namespaces } from './namespaces.js';
import { nodes } from './nodes.js';
import { persistentVolumeClaims } from './persistent-volume-claims.js';
import { persistentVolumes } from './persistent-volumes.js';
import { podTemplates } from './pod-templates.js';
import { pods } from './pods.js';
import { replicationControllers } from './replication-controllers.js';
import { resourceQuotas } from './resource-quotas.js';
import { secrets } from './secrets.js';
import { withTokenRequest, type TokenIssuer } from './service-account-token.js';
import { serviceAccounts } from './service-accounts.js';
import { services } from './services.js';
import { DEFAULT_KUBELET_CLIENT, type KubeletClientConfig } from './kubelet-client.js';
import { podLogSubresource } from './pod-log.js';

export {
  configMaps, endpoints, events, limitRanges, namespaces, nodes, persistentVolumeClaims, persistentVolumes,
  podTemplates, pods, replicationControllers, resourceQuotas, secrets, serviceAccounts, services,
};

interface ComposedKinds {
  readonly serviceAccounts: ResourceDefinition;
  readonly services: ResourceDefinition;
  readonly pods: ResourceDefinition;
  /** Present only with their run-time dependency (a pods store; components to probe). */
  readonly bindings?: ResourceDefinition;
  readonly componentStatuses?: ResourceDefinition;
}

/** The one list of core/v1 kinds, with those that take run-time dependencies passed in. */
function compose(kinds: ComposedKinds): ResourceDefinition[] {
  const optional = (d: ResourceDefinition | undefined): ResourceDefinition[] => (d === undefined ? [] : [d]);
  return [
    ...optional(kinds.bindings), ...optional(kinds.componentStatuses),
    configMaps, endpoints, events, limitRanges, namespaces, nodes, persistentVolumeClaims, persistentVolumes,
    kinds.pods, podTemplates, replicationControllers, resourceQuotas, secrets, kinds.serviceAccounts, kinds.services,
  ];
}

/** The kinds as declared, without their run-time dependencies (no token subresource, no allocator): for tests. */
export const coreV1Resources: readonly ResourceDefinition[] = compose({ serviceAccounts, services, pods });

export interface CoreV1Dependencies {
  /** Signs what serviceaccounts/token answers (`kubectl create token`). */
  readonly tokenIssuer: TokenIssuer;
  /** Cluster IPs and node ports of services, from the configured ranges (service-allocation.ts). */
  readonly serviceAllocator: Allocator;
  /**
   * The pods store, reached once the registry exists: `bindings` and pods/binding
   * write pods through it. Absent: neither is served (tests that need no binding).
   */
  readonly podStore?: PodStoreRef;
  /**
   * The PodDisruptionBudgets store, reached once the registry exists: pods/eviction
   * reads and takes from the budgets through it (with podStore). Absent: eviction is not served.
   */
  readonly podDisruptionBudgetStore?: () => ResourceStore;
  /** What componentstatuses probes (the storage backend). Absent: componentstatuses is not served. */
  readonly components?: readonly ProbedComponent[];
  /** How pods/log reaches kubelets (--kubelet-* flags); absent: kube's defaults, no client certificate. */
  readonly kubelet?: KubeletClientConfig;
}

/** Pods with the subresources of run-time dependencies: log (kubelets), binding and eviction (the registry). */
function podsWith(podStore: PodStoreRef | undefined, budgets: (() => ResourceStore) | undefined, kubelet: KubeletClientConfig): ResourceDefinition {
  const logged: ResourceDefinition = { ...pods, subresources: { ...pods.subresources, log: podLogSubresource(kubelet) } };
  if (podStore === undefined) return logged;
  const bound = withBinding(logged, podStore);
  return budgets === undefined ? bound : withEviction(bound, { pods: podStore, podDisruptionBudgets: budgets });
}

/** The core/v1 resources the server serves, in discovery's order. */
export function coreV1(deps: CoreV1Dependencies): ResourceDefinition[] {
  const podStore = deps.podStore;
  return compose({
    serviceAccounts: withTokenRequest(serviceAccounts, deps.tokenIssuer),
    services: { ...services, allocator: deps.serviceAllocator },
    pods: podsWith(podStore, deps.podDisruptionBudgetStore, deps.kubelet ?? DEFAULT_KUBELET_CLIENT),
    ...(podStore === undefined ? {} : { bindings: bindings(podStore) }),
    ...(deps.components === undefined ? {} : { componentStatuses: componentStatuses({ components: deps.components }) }),
  });
}
