// HorizontalPodAutoscalers (autoscaling/v2): scale a target between
// minReplicas and maxReplicas on metrics. Kube defaults minReplicas to 1, an
// empty metric list to CPU at 80 % utilization, and, once behavior is given,
// every scaling rule the client left out. The controller writes status via
// /status. Kube keeps no metadata.generation for this kind.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type Json, ensureObject, objectAt } from '../../core/v1/helpers.js';
import { hpaTable } from './horizontal-pod-autoscalers-table.js';
import { type HpaFeatures, validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerStatus, validateHorizontalPodAutoscalerUpdate } from './hpa-validation.js';
import type { ResourceDefinition } from '../../../registry/define-resource.js';

/** autoscaling.DefaultCPUUtilization. */
export const DEFAULT_CPU_UTILIZATION = 80;

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** The rules a behavior's direction gets when left out: scale up by 4 pods or 100 % per 15 s, scale down by 100 % per 15 s. */
function defaultRules(direction: 'scaleUp' | 'scaleDown'): Json {
  return direction === 'scaleUp'
    ? {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      }
    : {
        // The scale-down window is the controller's flag, so it stays unset.
        selectPolicy: 'Max',
        policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
      };
}

/** copyHPAScalingRules: what the client set wins, field by field; a policies list replaces the default one. */
function fillRules(given: Json | undefined, direction: 'scaleUp' | 'scaleDown'): Json {
  const rules = defaultRules(direction);
  if (given === undefined) return rules;
  for (const f of ['selectPolicy', 'stabilizationWindowSeconds', 'policies', 'tolerance'] as const) {
    if (present(given[f])) rules[f] = given[f];
  }
  return rules;
}

/** SetDefaults_HorizontalPodAutoscaler (v2). */
export function defaultHorizontalPodAutoscaler(hpa: KubeObject): void {
  const spec = ensureObject(hpa, 'spec');
  if (!present(spec.minReplicas)) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  const behavior = objectAt(spec, 'behavior');
  if (behavior !== undefined) {
    behavior.scaleUp = fillRules(objectAt(behavior, 'scaleUp'), 'scaleUp');
    behavior.scaleDown = fillRules(objectAt(behavior, 'scaleDown'), 'scaleDown');
  }
}

/** The kind with the feature gates its rules depend on (main.ts has none wired yet: all off, kube's defaults). */
export function horizontalPodAutoscalerDefinition(features: HpaFeatures = {}): ResourceDefinition {
  return defineResource({
    group: 'autoscaling',
    version: 'v2',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    scope: 'Namespaced',
    shortNames: ['hpa'],
    categories: ['all'],
    table: hpaTable,
    strategy: {
      resetFields: { create: ['status'], update: ['status'] },
      defaults: defaultHorizontalPodAutoscaler,
      prepareForCreate: (hpa) => {
        delete hpa.status;
      },
      validate: (hpa) => validateHorizontalPodAutoscaler(hpa, features),
      validateUpdate: (next, prev) => validateHorizontalPodAutoscalerUpdate(next, prev, features),
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: true,
    },
    subresources: {
      status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: validateHorizontalPodAutoscalerStatus },
    },
  });
}

export const horizontalPodAutoscalers = horizontalPodAutoscalerDefinition();
