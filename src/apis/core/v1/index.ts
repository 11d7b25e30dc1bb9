// The core group (`/api/v1`): every built-in core/v1 resource, in the order
// discovery lists them.
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
import { serviceAccounts } from './service-accounts.js';
import { services } from './services.js';

export {
  configMaps, endpoints, events, limitRanges, namespaces, nodes, persistentVolumeClaims, persistentVolumes,
  podTemplates, pods, replicationControllers, resourceQuotas, secrets, serviceAccounts, services,
};

export const coreV1Resources: readonly ResourceDefinition[] = [
  configMaps, endpoints, events, limitRanges, namespaces, nodes, persistentVolumeClaims, persistentVolumes,
  pods, podTemplates, replicationControllers, resourceQuotas, secrets, serviceAccounts, services,
];
