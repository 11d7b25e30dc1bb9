// The core group (`/api/v1`): every built-in core/v1 resource, in the order
// discovery lists them. coreV1() is what the server serves: the kinds as
// declared, with what they need at run time composed in (the token signer behind
// serviceaccounts/token, the pools services take cluster IPs and node ports from).
// The per-kind exports stay the kinds as declared, for tests.
import type { Allocator } from '../../../registry/allocation.js';
import type { ResourceDefinition } from '../../../registry/define-resource.js';
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

export {
  configMaps, endpoints, events, limitRanges, namespaces, nodes, persistentVolumeClaims, persistentVolumes,
  podTemplates, pods, replicationControllers, resourceQuotas, secrets, serviceAccounts, services,
};

/** The one list of core/v1 kinds, with the two that take run-time dependencies passed in. */
function compose(kinds: { serviceAccounts: ResourceDefinition; services: ResourceDefinition }): ResourceDefinition[] {
  return [
    configMaps, endpoints, events, limitRanges, namespaces, nodes, persistentVolumeClaims, persistentVolumes,
    pods, podTemplates, replicationControllers, resourceQuotas, secrets, kinds.serviceAccounts, kinds.services,
  ];
}

/** The kinds as declared, without their run-time dependencies (no token subresource, no allocator): for tests. */
export const coreV1Resources: readonly ResourceDefinition[] = compose({ serviceAccounts, services });

export interface CoreV1Dependencies {
  /** Signs what serviceaccounts/token answers (`kubectl create token`). */
  readonly tokenIssuer: TokenIssuer;
  /** Cluster IPs and node ports of services, from the configured ranges (service-allocation.ts). */
  readonly serviceAllocator: Allocator;
}

/** The core/v1 resources the server serves, in discovery's order. */
export function coreV1(deps: CoreV1Dependencies): ResourceDefinition[] {
  return compose({
    serviceAccounts: withTokenRequest(serviceAccounts, deps.tokenIssuer),
    services: { ...services, allocator: deps.serviceAllocator },
  });
}
