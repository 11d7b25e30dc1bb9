// storage.k8s.io/v1: the group version's kinds, in discovery's order.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { csiDrivers } from './csi-drivers.js';
import { csiNodes } from './csi-nodes.js';
import { csiStorageCapacities } from './csi-storage-capacities.js';
import { storageClasses } from './storage-classes.js';
import { volumeAttachments } from './volume-attachments.js';
import { volumeAttributesClasses } from './volume-attributes-classes.js';

export function storageV1(): ResourceDefinition[] {
  return [csiDrivers, csiNodes, csiStorageCapacities, storageClasses, volumeAttachments, volumeAttributesClasses];
}
