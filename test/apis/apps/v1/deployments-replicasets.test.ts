// Kind rules of Deployments and ReplicaSets through the real registry over the
// memory backend (test/support/store-harness.ts): kube-apiserver's defaults, one
// row per semantic rule (the invalid form refused with kube's cause, the valid
// form accepted), generation, status reset, the fixed selector and /scale.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { deployments, replicaSets } from '../../../../src/apis/apps/v1/index.js';
import type { ResourceDefinition } from '../../../../src/registry/define-resource.js';
import type { KubeObject } from '../../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

type Spec = Record<string, unknown>;
const labels = { app: 'web' };
const container = { name: 'c', image: 'nginx' };
const template = (extra: Spec = {}, meta: Spec = { labels }): Spec => ({ metadata: meta, spec: { containers: [container], ...extra } });
const validSpec = (extra: Spec = {}): Spec => ({ selector: { matchLabels: labels }, template: template(), ...extra });
const obj = (name: string, spec: Spec, meta: Spec = {}): KubeObject => ({ metadata: { name, namespace: 'ns', ...meta }, spec });
const causes = (r: { causes: readonly { field: string; reason: string }[] }): string[][] => r.causes.map((c) => [c.field, c.reason]);

describe('Deployment defaults (SetDefaults_Deployment and the template pod defaults)', () => {
  test('replicas 1, RollingUpdate 25%/25%, history 10, deadline 600, pod defaults, empty status, generation 1', async () => {
    const r = await h.create(deployments, obj('web', validSpec()));
    expect(r.errors).toEqual([]);
    expect(r.stored?.spec).toMatchObject({
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: { spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler', containers: [{ imagePullPolicy: 'Always', terminationMessagePolicy: 'File' }] } },
    });
    expect(r.stored?.status).toEqual({});
    expect(r.stored?.metadata.generation).toBe(1);
  });

  test('given values are kept; Recreate gets no rollingUpdate; replicas 0 stays 0', async () => {
    const r = await h.create(deployments, obj('web', validSpec({ replicas: 0, strategy: { type: 'Recreate' }, revisionHistoryLimit: 0, progressDeadlineSeconds: 30 })));
    expect(r.errors).toEqual([]);
    expect(r.stored?.spec).toMatchObject({ replicas: 0, strategy: { type: 'Recreate' }, revisionHistoryLimit: 0, progressDeadlineSeconds: 30 });
    expect((r.stored?.spec as Spec).strategy).toEqual({ type: 'Recreate' });
  });

  test('a partial rollingUpdate gets the missing half', async () => {
    const r = await h.create(deployments, obj('web', validSpec({ strategy: { rollingUpdate: { maxSurge: 1 } } })));
    expect((r.stored?.spec as Spec).strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } });
  });

  test("a template's requests are not defaulted from its limits (a Pod's default only)", async () => {
    const limited = { name: 'c', image: 'nginx', resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } } };
    const bare = { name: 'd', image: 'nginx', resources: { limits: { cpu: '1' } } };
    const r = await h.create(deployments, obj('web', validSpec({ template: { metadata: { labels }, spec: { containers: [limited, bare] } } })));
    const containers = ((r.stored?.spec as Spec).template as { spec: { containers: Spec[] } }).spec.containers;
    expect(containers.map((c) => c.resources)).toEqual([{ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } }, { limits: { cpu: '1' } }]);
  });

  test('status given on create is dropped', async () => {
    const r = await h.create(deployments, { ...obj('web', validSpec()), status: { replicas: 5 } });
    expect(r.stored?.status).toEqual({});
  });
});

/** Rules Deployments and ReplicaSets share (ValidatePodTemplateSpecForReplicaSet and the selector). */
const sharedRules: { name: string; spec: Spec; want: string[][] }[] = [
  { name: 'valid', spec: validSpec(), want: [] },
  { name: 'negative replicas', spec: validSpec({ replicas: -1 }), want: [['spec.replicas', 'FieldValueInvalid']] },
  { name: 'no selector', spec: { template: template() }, want: [['spec.selector', 'FieldValueRequired'], ['spec.template.metadata.labels', 'FieldValueInvalid']] },
  { name: 'empty selector', spec: validSpec({ selector: {} }), want: [['spec.selector', 'FieldValueInvalid']] },
  { name: 'selector not matching the template', spec: validSpec({ selector: { matchLabels: { app: 'other' } } }), want: [['spec.template.metadata.labels', 'FieldValueInvalid']] },
  {
    name: 'selector by expression matching the template',
    spec: validSpec({ selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] } }),
    want: [],
  },
  {
    name: 'selector with a bad operator',
    spec: validSpec({ selector: { matchExpressions: [{ key: 'app', operator: 'Near' }] } }),
    want: [['spec.selector.matchExpressions[0].operator', 'FieldValueInvalid'], ['spec.selector', 'FieldValueInvalid']],
  },
  { name: 'restartPolicy Never', spec: validSpec({ template: template({ restartPolicy: 'Never' }) }), want: [['spec.template.spec.restartPolicy', 'FieldValueNotSupported']] },
  { name: 'activeDeadlineSeconds', spec: validSpec({ template: template({ activeDeadlineSeconds: 10 }) }), want: [['spec.template.spec.activeDeadlineSeconds', 'FieldValueForbidden']] },
  { name: 'no containers', spec: validSpec({ template: { metadata: { labels }, spec: { containers: [] } } }), want: [['spec.template.spec.containers', 'FieldValueRequired']] },
  {
    name: 'bad container name',
    spec: validSpec({ template: { metadata: { labels }, spec: { containers: [{ name: 'A_b', image: 'x' }] } } }),
    want: [['spec.template.spec.containers[0].name', 'FieldValueInvalid']],
  },
  // kube's validateContainerCommon asks every container for an image, a template's too.
  { name: 'template without an image', spec: validSpec({ template: { metadata: { labels }, spec: { containers: [{ name: 'c' }] } } }), want: [['spec.template.spec.containers[0].image', 'FieldValueRequired']] },
  { name: 'bad template label', spec: validSpec({ template: template({}, { labels: { ...labels, tier: 'a b' } }) }), want: [['spec.template.labels', 'FieldValueInvalid']] },
  {
    name: 'a selector value kube cannot convert (the template is not checked then)',
    spec: { selector: { matchLabels: { app: 'a b' } }, template: template({}, { labels: { app: 'a b' } }) },
    want: [['spec.selector.matchLabels', 'FieldValueInvalid'], ['spec.selector', 'FieldValueInvalid']],
  },
  { name: 'negative minReadySeconds', spec: validSpec({ minReadySeconds: -1 }), want: [['spec.minReadySeconds', 'FieldValueInvalid']] },
];

const deploymentRules: { name: string; spec: Spec; want: string[][] }[] = [
  { name: 'surge and unavailable both 0', spec: validSpec({ strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } } }), want: [['spec.strategy.rollingUpdate.maxUnavailable', 'FieldValueInvalid']] },
  { name: 'surge 0 and unavailable 1', spec: validSpec({ strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } }), want: [] },
  { name: 'a percent without %', spec: validSpec({ strategy: { rollingUpdate: { maxSurge: '5' } } }), want: [['spec.strategy.rollingUpdate.maxSurge', 'FieldValueInvalid']] },
  { name: 'negative maxSurge', spec: validSpec({ strategy: { rollingUpdate: { maxSurge: -1 } } }), want: [['spec.strategy.rollingUpdate.maxSurge', 'FieldValueInvalid']] },
  { name: 'maxUnavailable over 100%', spec: validSpec({ strategy: { rollingUpdate: { maxUnavailable: '101%' } } }), want: [['spec.strategy.rollingUpdate.maxUnavailable', 'FieldValueInvalid']] },
  { name: 'maxSurge over 100% (allowed)', spec: validSpec({ strategy: { rollingUpdate: { maxSurge: '200%' } } }), want: [] },
  { name: 'Recreate with rollingUpdate', spec: validSpec({ strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } }), want: [['spec.strategy.rollingUpdate', 'FieldValueForbidden']] },
  { name: 'unknown strategy type', spec: validSpec({ strategy: { type: 'BlueGreen' } }), want: [['spec.strategy', 'FieldValueNotSupported']] },
  { name: 'negative revisionHistoryLimit', spec: validSpec({ revisionHistoryLimit: -1 }), want: [['spec.revisionHistoryLimit', 'FieldValueInvalid']] },
  { name: 'progressDeadlineSeconds not above minReadySeconds', spec: validSpec({ minReadySeconds: 30, progressDeadlineSeconds: 30 }), want: [['spec.progressDeadlineSeconds', 'FieldValueInvalid']] },
];

describe('Deployment validation', () => {
  for (const c of [...sharedRules, ...deploymentRules]) {
    test(c.name, async () => {
      const r = await h.create(deployments, obj('web', c.spec));
      expect(causes(r)).toEqual(c.want);
      expect(r.stored === undefined).toBe(c.want.length > 0);
    });
  }

  test("kube's messages for a missing selector", async () => {
    const r = await h.create(deployments, obj('web', { template: template() }));
    expect(r.errors).toEqual(['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`']);
  });

  test("kube's message for zero surge and unavailability", async () => {
    const r = await h.create(deployments, obj('web', validSpec({ strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } })));
    expect(r.errors).toEqual(['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0']);
  });

  test('a name that is not a DNS label is accepted with a warning', async () => {
    const r = await h.create(deployments, obj('web.v1', validSpec()));
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([expect.stringMatching(/^metadata\.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: \[must not contain dots\]$/)]);
  });
});

describe('ReplicaSet', () => {
  for (const c of sharedRules) {
    test(`validation: ${c.name}`, async () => {
      const r = await h.create(replicaSets, obj('rs', c.spec));
      expect(causes(r)).toEqual(c.want);
    });
  }

  test("an empty selector reads as kube's (which says deployment)", async () => {
    const r = await h.create(replicaSets, obj('rs', validSpec({ selector: {} })));
    expect(r.errors).toEqual(['spec.selector: Invalid value: {}: empty selector is invalid for deployment']);
  });

  test('defaults replicas to 1 and starts with status.replicas 0', async () => {
    const r = await h.create(replicaSets, obj('rs', validSpec()));
    expect(r.stored?.spec).toMatchObject({ replicas: 1 });
    expect(r.stored?.status).toEqual({ replicas: 0 });
  });
});

const updateKinds: { def: ResourceDefinition; name: string }[] = [
  { def: deployments, name: 'Deployment' },
  { def: replicaSets, name: 'ReplicaSet' },
];

for (const { def, name } of updateKinds) {
  describe(`${name} updates`, () => {
    test('the selector is fixed once created (apps/v1)', async () => {
      const created = await h.create(def, obj('w', validSpec()));
      const next = { ...created.stored!, spec: { ...(created.stored!.spec as Spec), selector: { matchLabels: labels, matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] } } };
      const r = await h.update(def, next);
      expect(causes(r)).toEqual([['spec.selector', 'FieldValueInvalid']]);
      expect(r.errors[0]).toMatch(/^spec\.selector: Invalid value: .*: field is immutable$/);
      expect((await h.get(def, { name: 'w', namespace: 'ns' }))?.spec).toEqual(created.stored!.spec);
    });

    test('generation moves with spec, not with labels; status is kept from the stored object', async () => {
      const created = (await h.create(def, obj('w', validSpec()))).stored!;
      const statused = (await h.updateStatus(def, { ...created, status: { replicas: 2, readyReplicas: 1 } })).stored!;
      expect(statused.status).toMatchObject({ replicas: 2, readyReplicas: 1 });
      expect(statused.metadata.generation).toBe(1);
      const relabelled = (await h.update(def, { ...statused, metadata: { ...statused.metadata, labels: { x: 'y' } }, status: { replicas: 9 } })).stored!;
      expect(relabelled.metadata.generation).toBe(1);
      expect(relabelled.status).toMatchObject({ replicas: 2, readyReplicas: 1 });
      const scaled = (await h.update(def, { ...relabelled, spec: { ...(relabelled.spec as Spec), replicas: 4 } })).stored!;
      expect(scaled.metadata.generation).toBe(2);
    });

    test('status counters: negative and more ready than replicas are refused', async () => {
      const created = (await h.create(def, obj('w', validSpec()))).stored!;
      const r = await h.updateStatus(def, { ...created, status: { replicas: 1, readyReplicas: 2, availableReplicas: -1 } });
      expect(causes(r)).toEqual([['status.availableReplicas', 'FieldValueInvalid'], ['status.readyReplicas', 'FieldValueInvalid']]);
    });

    test('/scale reads the LabelSelector as text and writes replicas through the parent strategy', async () => {
      await h.create(def, obj('w', validSpec({ replicas: 2 })));
      const scale = h.registry.store(def).subresource('scale')!;
      const at = { name: 'w', namespace: 'ns' };
      const view = await scale.get(at);
      expect(view).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 2 }, status: { replicas: 0, selector: 'app=web' } });
      await scale.update({ ...view, spec: { replicas: 5 } }, at);
      const now = await h.get(def, at);
      expect(now?.spec).toMatchObject({ replicas: 5 });
      expect(now?.metadata.generation).toBe(2);
    });
  });
}

test('Deployment generation also moves with annotations (they are copied to ReplicaSets)', async () => {
  const created = (await h.create(deployments, obj('w', validSpec()))).stored!;
  const r = await h.update(deployments, { ...created, metadata: { ...created.metadata, annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z' } } });
  expect(r.stored?.metadata.generation).toBe(2);
});

test('Deployment status: collisionCount may not go down', async () => {
  const created = (await h.create(deployments, obj('w', validSpec()))).stored!;
  const up = (await h.updateStatus(deployments, { ...created, status: { collisionCount: 2 } })).stored!;
  const r = await h.updateStatus(deployments, { ...up, status: { collisionCount: 1 } });
  expect(r.errors).toEqual(['status.collisionCount: Invalid value: 1: cannot be decremented']);
});
