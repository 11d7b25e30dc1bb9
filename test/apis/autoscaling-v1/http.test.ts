// autoscaling/v1 and v2 HorizontalPodAutoscalers through HTTP (issue #10 part 2):
// one stored object; a v1 read-modify-write keeps what a v2 client set.
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Harness } from '../../endpoints/harness.js';
import { createBuiltinHttpHarness } from '../../support/store-harness.js';
import { BEHAVIOR_ANNOTATION, METRICS_ANNOTATION } from '../../../src/apis/autoscaling/v1/conversion.js';

let h: Harness;
beforeEach(async () => {
  h = await createBuiltinHttpHarness();
});
afterEach(async () => h.close());

const V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const V2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

async function send(method: 'POST' | 'PUT' | 'GET', url: string, payload?: object) {
  return h.app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
}

test('a v1 object with a CPU target is a v2 object with one Utilization metric', async () => {
  const created = await send('POST', V1, { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'a' }, spec: { scaleTargetRef: ref, maxReplicas: 4, targetCPUUtilizationPercentage: 50 } });
  expect(created.statusCode).toBe(201);
  expect(created.json()).toMatchObject({ apiVersion: 'autoscaling/v1', spec: { targetCPUUtilizationPercentage: 50, maxReplicas: 4 } });
  const v2 = await send('GET', `${V2}/a`);
  expect(v2.json().spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
  expect(v2.json().metadata.uid).toBe(created.json().metadata.uid);
});

test('a v2 object with other metrics and a behavior keeps them through a v1 read-modify-write', async () => {
  const v2 = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'b' },
    spec: {
      scaleTargetRef: ref,
      minReplicas: 1,
      maxReplicas: 10,
      metrics: [
        { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
      ],
      behavior: { scaleDown: { stabilizationWindowSeconds: 120, selectPolicy: 'Min', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
    },
  };
  const created = await send('POST', V2, v2);
  expect(created.statusCode).toBe(201);
  const asV1 = (await send('GET', `${V1}/b`)).json();
  expect(asV1.spec.targetCPUUtilizationPercentage).toBe(60);
  expect(JSON.parse(asV1.metadata.annotations[METRICS_ANNOTATION])).toEqual([{ type: 'Resource', resource: { name: 'memory', targetAverageValue: '500Mi' } }]);
  expect(asV1.metadata.annotations[BEHAVIOR_ANNOTATION]).toBeDefined();

  // A v1 client changes maxReplicas and sends back what it read.
  const put = await send('PUT', `${V1}/b`, { ...asV1, spec: { ...asV1.spec, maxReplicas: 12 } });
  expect(put.statusCode).toBe(200);
  const after = (await send('GET', `${V2}/b`)).json();
  expect(after.spec.maxReplicas).toBe(12);
  expect(after.spec.metrics).toEqual(v2.spec.metrics);
  expect(after.spec.behavior.scaleDown).toMatchObject({ stabilizationWindowSeconds: 120, selectPolicy: 'Min', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] });
  // The annotations are v1's way of carrying them, not stored.
  expect(after.metadata.annotations ?? {}).not.toHaveProperty(METRICS_ANNOTATION);
});

test('v2\'s validation applies to v1 writes: 422 and nothing stored', async () => {
  const res = await send('POST', V1, { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'c' }, spec: { scaleTargetRef: ref, minReplicas: 3, maxReplicas: 2 } });
  expect(res.statusCode).toBe(422);
  expect(res.json().details.causes.map((c: { field: string }) => c.field)).toContain('spec.maxReplicas');
  expect((await send('GET', `${V2}/c`)).statusCode).toBe(404);
});

test('a malformed annotation on a v1 write is 400, nothing stored', async () => {
  const res = await send('POST', V1, {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'd', annotations: { [METRICS_ANNOTATION]: '[{' } },
    spec: { scaleTargetRef: ref, maxReplicas: 2 },
  });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
  expect((await send('GET', `${V2}/d`)).statusCode).toBe(404);
});

test('lists of either version list the same objects in their own form', async () => {
  await send('POST', V1, { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'e' }, spec: { scaleTargetRef: ref, maxReplicas: 3 } });
  const v1 = (await send('GET', V1)).json();
  const v2 = (await send('GET', V2)).json();
  expect(v1).toMatchObject({ kind: 'HorizontalPodAutoscalerList', apiVersion: 'autoscaling/v1' });
  expect(v2).toMatchObject({ kind: 'HorizontalPodAutoscalerList', apiVersion: 'autoscaling/v2' });
  expect(v1.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['e']);
  // v1's implicit 80 % is stated in v2.
  expect(v2.items[0].spec.metrics[0].resource.target.averageUtilization).toBe(80);
  expect(v1.metadata.resourceVersion).toBe(v2.metadata.resourceVersion);
});
