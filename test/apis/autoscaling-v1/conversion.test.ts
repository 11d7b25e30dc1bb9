// autoscaling/v1 <-> v2 HorizontalPodAutoscaler conversion (issue #10 part 2):
// what v1 cannot say travels in annotations and comes back unchanged.
import { describe, expect, test } from 'vitest';
import {
  BEHAVIOR_ANNOTATION,
  CONDITIONS_ANNOTATION,
  CURRENT_METRICS_ANNOTATION,
  hpaFromV1,
  hpaToV1,
  METRICS_ANNOTATION,
} from '../../../src/apis/autoscaling/v1/conversion.js';
import { isStatusError } from '../../../src/errors/status-error.js';
import type { KubeObject } from '../../../src/schema/object.js';

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

const full: KubeObject = {
  kind: 'HorizontalPodAutoscaler',
  apiVersion: 'autoscaling/v2',
  metadata: { name: 'web', namespace: 'default', annotations: { team: 'a' } },
  spec: {
    scaleTargetRef: ref,
    minReplicas: 2,
    maxReplicas: 10,
    metrics: [
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'External', external: { metric: { name: 'queue', selector: { matchLabels: { q: 'jobs' } } }, target: { type: 'Value', value: '30' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
    ],
    behavior: { scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: 'Min', policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] } },
  },
  status: {
    observedGeneration: 3,
    currentReplicas: 4,
    desiredReplicas: 5,
    currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '250m', averageUtilization: 70 } } }],
    conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'ReadyForNewScale' }],
  },
};

describe('v2 -> v1', () => {
  test('the CPU target and reading become v1 fields; the rest goes to annotations', () => {
    const v1 = hpaToV1(full);
    expect(v1.apiVersion).toBe('autoscaling/v1');
    expect(v1.spec).toEqual({ scaleTargetRef: ref, minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 60 });
    expect(v1.status).toEqual({ observedGeneration: 3, currentReplicas: 4, desiredReplicas: 5, currentCPUUtilizationPercentage: 70 });
    const a = v1.metadata.annotations!;
    expect(a.team).toBe('a');
    expect(JSON.parse(a[METRICS_ANNOTATION]!)).toEqual([
      { type: 'Resource', resource: { name: 'memory', targetAverageValue: '500Mi' } },
      { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } },
      { type: 'External', external: { metricName: 'queue', metricSelector: { matchLabels: { q: 'jobs' } }, targetValue: '30' } },
    ]);
    expect(JSON.parse(a[CURRENT_METRICS_ANNOTATION]!)).toEqual([{ type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 70, currentAverageValue: '250m' } }]);
    expect(JSON.parse(a[CONDITIONS_ANNOTATION]!)).toEqual((full.status as { conditions: unknown }).conditions);
    // kube marshals its internal type here: Go field names, nulls kept.
    expect(JSON.parse(a[BEHAVIOR_ANNOTATION]!)).toEqual({
      ScaleUp: null,
      ScaleDown: { StabilizationWindowSeconds: 300, SelectPolicy: 'Min', Policies: [{ Type: 'Percent', Value: 10, PeriodSeconds: 60 }], Tolerance: null },
    });
    // The input is untouched.
    expect(full.metadata.annotations).toEqual({ team: 'a' });
  });

  test('and back: the same v2 object', () => {
    expect(hpaFromV1(hpaToV1(full))).toEqual(full);
  });
});

describe('v1 -> v2', () => {
  test('a v1 object without a target gets the implicit CPU 80 %, stated', () => {
    const v2 = hpaFromV1({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' }, spec: { scaleTargetRef: ref, maxReplicas: 3 } });
    expect(v2.spec).toEqual({ scaleTargetRef: ref, maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] });
    expect(v2).not.toHaveProperty('status');
  });

  test('a CPU target round-trips without annotations', () => {
    const v1: KubeObject = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' }, spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 } };
    const back = hpaToV1(hpaFromV1(v1));
    expect(back).toEqual(v1);
  });

  test('a malformed annotation is the client\'s mistake: 400', () => {
    const bad = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', annotations: { [METRICS_ANNOTATION]: '{not json' } }, spec: { maxReplicas: 1 } };
    let caught: unknown;
    try {
      hpaFromV1(bad);
    } catch (err) {
      caught = err;
    }
    expect(isStatusError(caught) && caught.code).toBe(400);
    const wrongShape = { ...bad, metadata: { name: 'h', annotations: { [BEHAVIOR_ANNOTATION]: '[1,2]' } } };
    expect(() => hpaFromV1(wrongShape)).toThrow(/must be a JSON object/);
  });

  test('prototype-named annotation keys and metric fields are data', () => {
    const v1 = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h', annotations: JSON.parse('{"__proto__":"x","constructor":"y"}') as Record<string, string> },
      spec: { maxReplicas: 1, targetCPUUtilizationPercentage: 10 },
    };
    const v2 = hpaFromV1(v1);
    expect(Object.keys(v2.metadata.annotations!)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
