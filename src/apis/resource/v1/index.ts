// resource.k8s.io/v1: dynamic resource allocation's kinds, in discovery's order.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { deviceClasses, resourceClaimTemplates, resourceClaims, resourceSlices } from './kinds.js';

export { deviceClasses, resourceClaimTemplates, resourceClaims, resourceSlices };

export function resourceV1(): ResourceDefinition[] {
  return [deviceClasses, resourceClaims, resourceClaimTemplates, resourceSlices];
}
