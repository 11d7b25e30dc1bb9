// coordination.k8s.io/v1: leases.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { leases } from './leases.js';

export { leases };

export function coordinationV1(): ResourceDefinition[] {
  return [leases];
}
