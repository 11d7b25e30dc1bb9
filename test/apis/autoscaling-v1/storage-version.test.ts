// autoscaling/v1 writes through the storage codec, over HTTP: a v1 write is
// defaulted and schema-validated as v1, stored as autoscaling/v2 (the storage
// version), and read, listed and watched back in whichever version the client asks
// for. The kind's rules stay v2's (kube's internal version), with their v2 paths.
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Harness } from '../../endpoints/harness.js';
import { createBuiltinHttpHarness } from '../../support/store-harness.js';
import { METRICS_ANNOTATION } from '../../../src/apis/autoscaling/v1/conversion.js';
import { objectKey } from '../../../src/registry/keys.js';

let h: Harness;
beforeEach(async () => {
  h = await createBuiltinHttpHarness();
});
afterEach(async () => h.close());

const V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const V2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const HPAS = { group: 'autoscaling', plural: 'horizontalpodautoscalers', scope: 'Namespaced' } as const;
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

async function send(method: 'POST' | 'PUT' | 'GET', url: string, payload?: object) {
  return h.app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
}

/** What storage holds under the object's key, as the backend has it. */
async function stored(name: string) {
  return h.storage.get(objectKey(HPAS, { namespace: 'default', name }));
}

const v1Object = {
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'rt', labels: { app: 'web' } },
  spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 60 },
};

test('a v1 create is stored as v2 and round-trips through v2 and v1 reads', async () => {
  const created = await send('POST', V1, v1Object);
  expect(created.statusCode).toBe(201);

  const raw = await stored('rt');
  expect(raw).toMatchObject({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'rt', labels: { app: 'web' } } });
  expect(raw.spec).toEqual({
    scaleTargetRef: ref,
    minReplicas: 2,
    maxReplicas: 5,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
  });
  expect(raw.spec).not.toHaveProperty('targetCPUUtilizationPercentage');

  const v2 = (await send('GET', `${V2}/rt`)).json();
  expect(v2).toMatchObject({ apiVersion: 'autoscaling/v2', spec: raw.spec, metadata: { uid: raw.metadata.uid, resourceVersion: raw.metadata.resourceVersion } });

  // v1 reads answer what was written, plus the fields the server sets.
  const v1 = (await send('GET', `${V1}/rt`)).json();
  const { uid, creationTimestamp, resourceVersion, namespace, ...clientMeta } = v1.metadata;
  expect({ ...v1, metadata: clientMeta }).toEqual(v1Object);
  expect({ uid, resourceVersion, namespace }).toEqual({ uid: raw.metadata.uid, resourceVersion: raw.metadata.resourceVersion, namespace: 'default' });
  expect(creationTimestamp).toEqual(expect.any(String));
  expect(created.json()).toEqual(v1);
});

test('a v1 write is defaulted as v1 (minReplicas 1), then converted (the implicit CPU target, stated)', async () => {
  const res = await send('POST', V1, { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'd' }, spec: { scaleTargetRef: ref, maxReplicas: 3 } });
  expect(res.statusCode).toBe(201);
  expect(res.json().spec).toEqual({ scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 80 });
  expect((await stored('d')).spec).toMatchObject({ minReplicas: 1, metrics: [{ resource: { name: 'cpu', target: { averageUtilization: 80 } } }] });
});

test('a v1 update of a v2 object keeps what only v2 can say, and stores v2', async () => {
  const v2 = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'u' },
    spec: {
      scaleTargetRef: ref,
      minReplicas: 1,
      maxReplicas: 4,
      metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } }],
    },
  };
  expect((await send('POST', V2, v2)).statusCode).toBe(201);
  const read = (await send('GET', `${V1}/u`)).json();
  expect(JSON.parse(read.metadata.annotations[METRICS_ANNOTATION])).toEqual([{ type: 'Resource', resource: { name: 'memory', targetAverageValue: '1Gi' } }]);
  const put = await send('PUT', `${V1}/u`, { ...read, spec: { ...read.spec, maxReplicas: 9 } });
  expect(put.statusCode).toBe(200);
  expect(put.json()).toMatchObject({ apiVersion: 'autoscaling/v1', spec: { maxReplicas: 9 } });
  const raw = await stored('u');
  expect(raw.apiVersion).toBe('autoscaling/v2');
  expect(raw.spec).toMatchObject({ maxReplicas: 9, metrics: v2.spec.metrics });
  expect(raw.metadata.annotations ?? {}).not.toHaveProperty(METRICS_ANNOTATION);
});

test('a v1 watch sees v1 objects, whichever version wrote them', async () => {
  // Without a resourceVersion the watch starts with the current objects, so each
  // write is seen whether it lands before or after the watch is established.
  const watch = h.app.inject({ method: 'GET', url: `${V1}?watch=true&timeoutSeconds=1` });
  expect((await send('POST', V1, v1Object)).statusCode).toBe(201);
  const v2 = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'w2' },
    spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 4, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }] },
  };
  expect((await send('POST', V2, v2)).statusCode).toBe(201);
  const events = (await watch).body
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { type: string; object: { apiVersion: string; metadata: { name: string }; spec: Record<string, unknown> } });
  const byName = new Map(events.filter((e) => e.type === 'ADDED').map((e) => [e.object.metadata.name, e.object]));
  expect(byName.get('rt')).toMatchObject({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', spec: v1Object.spec });
  expect(byName.get('w2')).toMatchObject({ apiVersion: 'autoscaling/v1', spec: { maxReplicas: 4, targetCPUUtilizationPercentage: 70 } });
  for (const e of events) expect(e.object.spec).not.toHaveProperty('metrics');
});

test('a v1 write is judged by v1\'s schema, not v2\'s: what only v2\'s schema refuses passes through v1', async () => {
  // A metric selector requirement without key or operator: v2's schema requires
  // both (LabelSelectorRequirement), v1 carries the metric in an annotation its
  // schema does not look into, and the kind's rules (kube's too) do not check it.
  const metric = { type: 'Pods', pods: { metric: { name: 'qps', selector: { matchExpressions: [{}] } }, target: { type: 'AverageValue', averageValue: '10' } } };
  const viaV2 = await send('POST', V2, {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 's2' },
    spec: { scaleTargetRef: ref, maxReplicas: 3, metrics: [metric] },
  });
  expect(viaV2.statusCode).toBe(422);
  expect(viaV2.json().details.causes).toEqual(
    expect.arrayContaining([expect.objectContaining({ field: 'spec.metrics[0].pods.metric.selector.matchExpressions[0].key', reason: 'FieldValueRequired' })]),
  );

  const v1Metric = [{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10', selector: { matchExpressions: [{}] } } }];
  const viaV1 = await send('POST', V1, {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 's1', annotations: { [METRICS_ANNOTATION]: JSON.stringify(v1Metric) } },
    spec: { scaleTargetRef: ref, maxReplicas: 3 },
  });
  expect(viaV1.statusCode).toBe(201);
  expect((await stored('s1')).spec).toMatchObject({ metrics: [metric] });
});

test('the kind\'s rules are v2\'s for a v1 write, with their v2 paths (kube validates its internal version)', async () => {
  const res = await send('POST', V1, {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'r' },
    spec: { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 0 },
  });
  expect(res.statusCode).toBe(422);
  expect(res.json().details.causes).toEqual([
    { reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be greater than 0', field: 'spec.metrics[0].resource.target.averageUtilization' },
  ]);
  await expect(stored('r')).rejects.toThrow();
});
