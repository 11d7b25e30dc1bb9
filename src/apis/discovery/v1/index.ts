// discovery.k8s.io/v1: endpoint slices.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { endpointSlices } from './endpoint-slices.js';

export { endpointSlices };

export function discoveryV1(): ResourceDefinition[] {
  return [endpointSlices];
}
