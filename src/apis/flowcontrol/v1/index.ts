// flowcontrol.apiserver.k8s.io/v1: the group version's kinds, in discovery's order.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { flowSchemas } from './flow-schemas.js';
import { priorityLevelConfigurations } from './priority-level-configurations.js';

export function flowcontrolV1(): ResourceDefinition[] {
  return [flowSchemas, priorityLevelConfigurations];
}
