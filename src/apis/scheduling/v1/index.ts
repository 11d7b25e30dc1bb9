// scheduling.k8s.io/v1: the group version's kinds, in discovery's order.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { priorityClasses } from './priority-classes.js';

export { priorityAdmission, priorityAdmissionFromStorage } from './priority-admission.js';

export function schedulingV1(): ResourceDefinition[] {
  return [priorityClasses];
}
