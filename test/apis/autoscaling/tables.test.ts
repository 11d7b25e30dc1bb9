// `kubectl get hpa` cells against what kube's printer shows: the reference, and
// TARGETS pairing each metric's current value with its target.
import { describe, expect, test } from 'vitest';
import { horizontalPodAutoscalers as hpas } from '../../../src/apis/autoscaling/v2/horizontal-pod-autoscalers.js';
import type { TableCell } from '../../../src/registry/table.js';
import type { KubeObject } from '../../../src/schema/object.js';

const now = new Date('2026-01-02T03:04:05Z');
const metadata = { name: 'h', creationTimestamp: '2026-01-02T03:04:00Z' };
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const cpu = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } };
const mem = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } };
const pods = { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } };
const ext = { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '30' } } };
const obj = { type: 'Object', object: { describedObject: ref, metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '5' } } };

test('headers', () => {
  expect(hpas.table!.columns.map((c) => c.name)).toEqual(['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
});

const cases: { name: string; input: KubeObject; want: TableCell[] }[] = [
  { name: 'no status yet', input: { metadata, spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, metrics: [cpu] } }, want: ['h', 'Deployment/web', 'cpu: <unknown>/80%', '1', 5, 0, '5s'] },
  {
    name: 'current values from status',
    input: {
      metadata,
      spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 9, metrics: [cpu, mem] },
      status: { currentReplicas: 3, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 41, averageValue: '200m' } } }, { type: 'Resource', resource: { name: 'memory', current: { averageValue: '300Mi' } } }] },
    },
    want: ['h', 'Deployment/web', 'cpu: 41%/80%, memory: 300Mi/500Mi', '2', 9, 3, '5s'],
  },
  { name: 'more than two metrics', input: { metadata, spec: { scaleTargetRef: ref, maxReplicas: 3, metrics: [pods, ext, obj] } }, want: ['h', 'Deployment/web', '<unknown>/10, <unknown>/30 + 1 more...', '<unset>', 3, 0, '5s'] },
  { name: 'object average', input: { metadata, spec: { scaleTargetRef: ref, maxReplicas: 3, metrics: [obj] } }, want: ['h', 'Deployment/web', '<unknown>/5 (avg)', '<unset>', 3, 0, '5s'] },
  { name: 'no metrics', input: { metadata, spec: { scaleTargetRef: ref, maxReplicas: 3 } }, want: ['h', 'Deployment/web', '<none>', '<unset>', 3, 0, '5s'] },
];

describe('cells', () => {
  for (const c of cases) test(c.name, () => expect(hpas.table!.cells(c.input, now)).toEqual(c.want));
});
