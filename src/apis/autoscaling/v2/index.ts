// autoscaling/v2: the group version's kinds, in discovery's order.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { horizontalPodAutoscalerDefinition, horizontalPodAutoscalers } from './horizontal-pod-autoscalers.js';
import type { HpaFeatures } from './hpa-validation.js';

export { horizontalPodAutoscalers };

/** features: the feature gates HPA rules depend on; absent, kube's defaults (HPAScaleToZero off). */
export function autoscalingV2(features: HpaFeatures = {}): ResourceDefinition[] {
  return [features.scaleToZero === true ? horizontalPodAutoscalerDefinition(features) : horizontalPodAutoscalers];
}
