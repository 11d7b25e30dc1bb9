// autoscaling/v1: HorizontalPodAutoscaler, served over the autoscaling/v2 object
// (one stored object, two versions; conversion.ts). Listed after v2, the group's
// preferred version.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { horizontalPodAutoscalersV1 } from './horizontal-pod-autoscalers.js';

export function autoscalingV1(deps: { readonly horizontalPodAutoscalers: ResourceDefinition }): ResourceDefinition[] {
  return [horizontalPodAutoscalersV1(deps.horizontalPodAutoscalers)];
}
