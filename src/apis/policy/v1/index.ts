// policy/v1: the group version's kinds, in discovery's order.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { podDisruptionBudgets } from './pod-disruption-budgets.js';

export { podDisruptionBudgets };

export function policyV1(): ResourceDefinition[] {
  return [podDisruptionBudgets];
}
