// HorizontalPodAutoscaler (autoscaling/v2) rules through the real registry:
// kube's defaults (minReplicas, the CPU metric, behavior rules), each validation
// rule refused with kube's cause and its valid form accepted, updates and status.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { horizontalPodAutoscalers as hpas } from '../../../src/apis/autoscaling/v2/horizontal-pod-autoscalers.js';
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerUpdate } from '../../../src/apis/autoscaling/v2/hpa-validation.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

type Spec = Record<string, unknown>;
const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const hpa = (spec: Spec): KubeObject => ({ metadata: { name: 'h', namespace: 'ns' }, spec: { scaleTargetRef: target, maxReplicas: 5, ...spec } });
const cpu = (t: Spec): Spec => ({ type: 'Resource', resource: { name: 'cpu', target: t } });

describe('defaults', () => {
  test('minReplicas 1 and CPU at 80 % when metrics are empty; no behavior, status or generation', async () => {
    const got = await h.create(hpas, hpa({ metrics: [] }));
    expect(got.errors).toEqual([]);
    expect(got.stored!.spec).toEqual({
      scaleTargetRef: target,
      maxReplicas: 5,
      minReplicas: 1,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
    expect(got.stored!.status).toBeUndefined();
    expect(got.stored!.metadata.generation).toBeUndefined();
  });

  test('given metrics are kept', async () => {
    const metrics = [cpu({ type: 'AverageValue', averageValue: '500m' })];
    const got = await h.create(hpas, hpa({ metrics }));
    expect((got.stored!.spec as Spec).metrics).toEqual(metrics);
  });

  test('a behavior is filled rule by rule; what the client set wins', async () => {
    const got = await h.create(hpas, hpa({ behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }));
    expect(got.errors).toEqual([]);
    expect((got.stored!.spec as Spec).behavior).toEqual({
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
  });
});

const createCases: { name: string; input: KubeObject; want: string[] }[] = [
  { name: 'minReplicas 0 without the feature', input: hpa({ minReplicas: 0 }), want: ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1', 'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas'] },
  { name: 'maxReplicas 0', input: hpa({ maxReplicas: 0 }), want: ['spec.maxReplicas: Invalid value: 0: must be greater than 0', 'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`'] },
  { name: 'maxReplicas below minReplicas', input: hpa({ minReplicas: 6 }), want: ['spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`'] },
  { name: 'maxReplicas equal to minReplicas', input: hpa({ minReplicas: 5 }), want: [] },
  {
    name: 'scaleTargetRef without kind and name',
    input: hpa({ scaleTargetRef: { apiVersion: 'apps/v1' } }),
    want: ['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value'],
  },
  { name: 'scaleTargetRef name with a slash', input: hpa({ scaleTargetRef: { ...target, name: 'a/b' } }), want: ['spec.scaleTargetRef.name: Invalid value: "a/b": may not contain \'/\''] },
  { name: 'scaleTargetRef without a group', input: hpa({ scaleTargetRef: { ...target, apiVersion: 'v1' } }), want: ['spec.scaleTargetRef.apiVersion: Invalid value: "v1": apiVersion must specify API group'] },
  { name: 'scaleTargetRef without apiVersion', input: hpa({ scaleTargetRef: { kind: 'Deployment', name: 'web' } }), want: ['spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group'] },
  { name: 'a ReplicationController target may be core v1', input: hpa({ scaleTargetRef: { apiVersion: 'v1', kind: 'ReplicationController', name: 'rc' } }), want: [] },
  { name: 'malformed apiVersion', input: hpa({ scaleTargetRef: { ...target, apiVersion: 'a/b/c' } }), want: ['spec.scaleTargetRef.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c'] },
  {
    name: 'metric without a type',
    input: hpa({ metrics: [{ type: '' }] }),
    want: [
      'spec.metrics[0].type: Required value: must specify a metric source type',
      'spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      'spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
    ],
  },
  { name: 'metric source missing for its type', input: hpa({ metrics: [{ type: 'Pods' }] }), want: ['spec.metrics[0].pods: Required value: must populate information for the given metric source'] },
  {
    name: 'two metric sources',
    input: hpa({ metrics: [{ ...cpu({ type: 'Utilization', averageUtilization: 50 }), pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1' } } }] }),
    want: ['spec.metrics[0].pods: Forbidden: must populate the given metric source only'],
  },
  {
    name: 'resource target with both value kinds',
    input: hpa({ metrics: [cpu({ type: 'Utilization', averageUtilization: 50, averageValue: '1' })] }),
    want: ['spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization'],
  },
  {
    name: 'resource target with neither',
    input: hpa({ metrics: [cpu({ type: 'Utilization' })] }),
    want: ['spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization'],
  },
  {
    name: 'bad target type, zero utilization',
    input: hpa({ metrics: [cpu({ type: 'Percent', averageUtilization: 0 })] }),
    want: ['spec.metrics[0].resource.target.type: Invalid value: "Percent": must be either Utilization, Value, or AverageValue', 'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0'],
  },
  {
    name: 'pods metric needs a positive averageValue',
    input: hpa({ metrics: [{ type: 'Pods', pods: { metric: { name: '' }, target: { type: 'AverageValue', averageValue: '0' } } }] }),
    want: ['spec.metrics[0].pods.metric.name: Required value: must specify a metric name', 'spec.metrics[0].pods.target.averageValue: Invalid value: "0": must be positive'],
  },
  {
    name: 'object metric may name a core v1 object',
    input: hpa({ metrics: [{ type: 'Object', object: { describedObject: { apiVersion: 'v1', kind: 'Service', name: 's' }, metric: { name: 'rps' }, target: { type: 'Value', value: '10' } } }] }),
    want: [],
  },
  {
    name: 'external metric with both targets',
    input: hpa({ metrics: [{ type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '10', averageValue: '1' } } }] }),
    want: ['spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target'],
  },
  {
    name: 'container resource metric',
    input: hpa({ metrics: [{ type: 'ContainerResource', containerResource: { name: 'gpu', container: 'App', target: { type: 'Utilization', averageUtilization: 60 } } }] }),
    want: [
      'spec.metrics[0].containerResource.name: Invalid value: "gpu": must be a standard resource for containers',
      "spec.metrics[0].containerResource.container: Invalid value: \"App\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ],
  },
  {
    name: 'behavior rules',
    input: hpa({ behavior: { scaleUp: { stabilizationWindowSeconds: 3601, selectPolicy: 'Most', policies: [] }, scaleDown: { policies: [{ type: 'Nodes', value: 0, periodSeconds: 1801 }], tolerance: '-0.1' } } }),
    want: [
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Most": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleUp.policies: Required value: must specify at least one Policy',
      'spec.behavior.scaleDown.policies[0].type: Unsupported value: "Nodes": supported values: "Percent", "Pods"',
      'spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
      'spec.behavior.scaleDown.tolerance: Invalid value: "-0.1": must be greater than or equal to 0',
    ],
  },
];

describe('create validation', () => {
  for (const c of createCases) {
    test(c.name, async () => {
      const got = await h.create(hpas, c.input);
      expect(got.errors).toEqual(c.want);
      if (c.want.length > 0) expect(got.stored).toBeUndefined();
      else expect(got.stored).toEqual(got.object);
    });
  }
});

describe('updates and status', () => {
  test('status is kept from the store on update; spec may change', async () => {
    const obj = (await h.create(hpas, hpa({}))).object!;
    const got = await h.update(hpas, { ...obj, spec: { ...(obj.spec as Spec), maxReplicas: 9 }, status: { currentReplicas: 3, desiredReplicas: 3 } });
    expect(got.errors).toEqual([]);
    expect((got.stored!.spec as Spec).maxReplicas).toBe(9);
    expect(got.stored!.status).toBeUndefined();
  });

  test('a group-less stored target stays writable while kind and apiVersion are kept', async () => {
    const obj = (await h.create(hpas, hpa({ scaleTargetRef: { apiVersion: 'v1', kind: 'ReplicationController', name: 'rc' } }))).object!;
    const keep = await h.update(hpas, { ...obj, spec: { ...(obj.spec as Spec), maxReplicas: 8 } });
    expect(keep.errors).toEqual([]);
    const change = await h.update(hpas, { ...keep.stored!, spec: { ...(keep.stored!.spec as Spec), scaleTargetRef: { apiVersion: 'v1', kind: 'Deployment', name: 'web' } } });
    expect(change.errors).toEqual(['spec.scaleTargetRef.apiVersion: Invalid value: "v1": apiVersion must specify API group']);
  });

  test('status writes refuse negative replica counts and keep the spec', async () => {
    const obj = (await h.create(hpas, hpa({}))).object!;
    const good = await h.updateStatus(hpas, { ...obj, spec: { ...(obj.spec as Spec), maxReplicas: 50 }, status: { currentReplicas: 2, desiredReplicas: 3 } });
    expect(good.errors).toEqual([]);
    expect(good.stored!.status).toEqual({ currentReplicas: 2, desiredReplicas: 3 });
    expect((good.stored!.spec as Spec).maxReplicas).toBe(5);
    const bad = await h.updateStatus(hpas, { ...good.stored!, status: { currentReplicas: -1, desiredReplicas: 0 } });
    expect(bad.errors).toEqual(['status.currentReplicas: Invalid value: -1: must be greater than or equal to 0']);
  });
});

describe('missing and hostile input is data', () => {
  test('no spec: defaults, then the required fields', async () => {
    const got = await h.create(hpas, { metadata: { name: 'h', namespace: 'ns' } });
    expect(got.errors).toEqual([
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`',
      'spec.scaleTargetRef.kind: Required value',
      'spec.scaleTargetRef.name: Required value',
      'spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group',
    ]);
  });

  test('a prototype-named behavior key is only data', async () => {
    const input = JSON.parse('{"metadata":{"name":"h","namespace":"ns"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"w"},"maxReplicas":2,"behavior":{"__proto__":{"policies":[]}}}}') as KubeObject;
    const got = await h.create(hpas, input);
    expect(got.errors).toEqual([]);
    expect((got.stored!.spec as { behavior: object }).behavior).toMatchObject({ scaleUp: { selectPolicy: 'Max' }, scaleDown: { selectPolicy: 'Max' } });
    expect(({} as Record<string, unknown>).policies).toBeUndefined();
  });
});

describe('HPAScaleToZero', () => {
  const zero = { metadata: { name: 'h', namespace: 'ns' }, spec: { scaleTargetRef: target, minReplicas: 0, maxReplicas: 3 } };
  const external = [{ type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '5' } } }];

  test('off (kube\'s default): minReplicas 0 is refused', () => {
    expect(validateHorizontalPodAutoscaler({ ...zero, spec: { ...zero.spec, metrics: external } }).map((e) => e.message)).toEqual([
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
    ]);
  });

  test('on: minReplicas 0 needs an Object or External metric', () => {
    expect(validateHorizontalPodAutoscaler({ ...zero, spec: { ...zero.spec, metrics: external } }, { scaleToZero: true })).toEqual([]);
    expect(validateHorizontalPodAutoscaler({ ...zero, spec: { ...zero.spec, metrics: [cpu({ type: 'Utilization', averageUtilization: 50 })] } }, { scaleToZero: true }).map((e) => e.message)).toEqual([
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]);
  });

  test('an HPA stored with minReplicas 0 stays writable with the gate off', () => {
    const stored = { ...zero, spec: { ...zero.spec, metrics: external } };
    expect(validateHorizontalPodAutoscalerUpdate({ ...stored, spec: { ...stored.spec, maxReplicas: 4 } }, stored)).toEqual([]);
  });
});
