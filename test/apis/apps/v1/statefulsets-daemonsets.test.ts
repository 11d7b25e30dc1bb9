// Kind rules of StatefulSets, DaemonSets and ControllerRevisions through the real
// registry over the memory backend: kube-apiserver's defaults, one row per
// semantic rule (the invalid form refused with kube's cause, the valid form
// accepted), what an update may change, generation and status.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { controllerRevisions, daemonSets, statefulSets } from '../../../../src/apis/apps/v1/index.js';
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
const labels = { app: 'db' };
const template = (extra: Spec = {}): Spec => ({ metadata: { labels }, spec: { containers: [{ name: 'c', image: 'postgres' }], ...extra } });
const validSpec = (extra: Spec = {}): Spec => ({ selector: { matchLabels: labels }, template: template(), ...extra });
const obj = (name: string, spec: Spec): KubeObject => ({ metadata: { name, namespace: 'ns' }, spec });
const causes = (r: { causes: readonly { field: string; reason: string }[] }): string[][] => r.causes.map((c) => [c.field, c.reason]);
const withSpec = (o: KubeObject, extra: Spec): KubeObject => ({ ...o, spec: { ...(o.spec as Spec), ...extra } });

describe('StatefulSet', () => {
  test('defaults: OrderedReady, RollingUpdate partition 0, Retain/Retain, replicas 1, history 10, claim templates as claims', async () => {
    const r = await h.create(statefulSets, obj('db', validSpec({ serviceName: 'db', volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }] })));
    expect(r.errors).toEqual([]);
    expect(r.stored?.spec).toMatchObject({
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      replicas: 1,
      revisionHistoryLimit: 10,
      template: { spec: { restartPolicy: 'Always' } },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } }],
    });
    expect(r.stored?.status).toEqual({ replicas: 0, availableReplicas: 0 });
    expect(r.stored?.metadata.generation).toBe(1);
  });

  test('OnDelete gets no rollingUpdate; maxUnavailable is dropped (MaxUnavailableStatefulSet is off in 1.36)', async () => {
    const onDelete = await h.create(statefulSets, obj('a', validSpec({ updateStrategy: { type: 'OnDelete' } })));
    expect((onDelete.stored?.spec as Spec).updateStrategy).toEqual({ type: 'OnDelete' });
    const rolling = await h.create(statefulSets, obj('b', validSpec({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2, maxUnavailable: 3 } } })));
    expect((rolling.stored?.spec as Spec).updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 2 } });
  });

  const rules: { name: string; spec: Spec; objName?: string; want: string[][] }[] = [
    { name: 'valid', spec: validSpec(), want: [] },
    { name: 'a name that is not a DNS label', objName: 'db.v1', spec: validSpec(), want: [['metadata.name', 'FieldValueInvalid']] },
    { name: 'no selector', spec: { template: template() }, want: [['spec.selector', 'FieldValueRequired'], ['spec.template.metadata.labels', 'FieldValueInvalid']] },
    { name: 'empty selector', spec: validSpec({ selector: {} }), want: [['spec.selector', 'FieldValueInvalid']] },
    { name: 'selector not matching the template', spec: validSpec({ selector: { matchLabels: { app: 'web' } } }), want: [['spec.template.metadata.labels', 'FieldValueInvalid']] },
    { name: 'unknown podManagementPolicy', spec: validSpec({ podManagementPolicy: 'Random' }), want: [['spec.podManagementPolicy', 'FieldValueInvalid']] },
    { name: 'Parallel', spec: validSpec({ podManagementPolicy: 'Parallel' }), want: [] },
    { name: 'unknown update strategy', spec: validSpec({ updateStrategy: { type: 'Canary' } }), want: [['spec.updateStrategy', 'FieldValueInvalid']] },
    { name: 'OnDelete with rollingUpdate', spec: validSpec({ updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } }), want: [['spec.updateStrategy.rollingUpdate', 'FieldValueInvalid']] },
    { name: 'negative partition', spec: validSpec({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1 } } }), want: [['spec.updateStrategy.rollingUpdate.partition', 'FieldValueInvalid']] },
    { name: 'unknown retention policy', spec: validSpec({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' } }), want: [['spec.persistentVolumeClaimRetentionPolicy.whenDeleted', 'FieldValueNotSupported']] },
    { name: 'negative replicas', spec: validSpec({ replicas: -1 }), want: [['spec.replicas', 'FieldValueInvalid']] },
    { name: 'negative ordinals.start', spec: validSpec({ ordinals: { start: -1 } }), want: [['spec.ordinals.start', 'FieldValueInvalid']] },
    { name: 'serviceName not a DNS label', spec: validSpec({ serviceName: 'db.svc' }), want: [['spec.serviceName', 'FieldValueInvalid']] },
    { name: 'restartPolicy OnFailure', spec: validSpec({ template: template({ restartPolicy: 'OnFailure' }) }), want: [['spec.template.spec.restartPolicy', 'FieldValueNotSupported']] },
    { name: 'activeDeadlineSeconds', spec: validSpec({ template: template({ activeDeadlineSeconds: 5 }) }), want: [['spec.template.spec.activeDeadlineSeconds', 'FieldValueForbidden']] },
  ];
  for (const c of rules) {
    test(`validation: ${c.name}`, async () => {
      const r = await h.create(statefulSets, obj(c.objName ?? 'db', c.spec));
      expect(causes(r)).toEqual(c.want);
    });
  }

  test('updates may change replicas, template, updateStrategy, retention and minReadySeconds, nothing else', async () => {
    const created = (await h.create(statefulSets, obj('db', validSpec({ serviceName: 'db' })))).stored!;
    const allowed = await h.update(statefulSets, withSpec(created, { replicas: 3, minReadySeconds: 5, updateStrategy: { type: 'OnDelete' }, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' } }));
    expect(allowed.errors).toEqual([]);
    expect(allowed.stored?.metadata.generation).toBe(2);
    for (const change of [{ serviceName: 'other' }, { podManagementPolicy: 'Parallel' }, { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }] }, { selector: { matchLabels: labels, matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] } }]) {
      const r = await h.update(statefulSets, withSpec(allowed.stored!, change));
      expect(causes(r), JSON.stringify(change)).toEqual([['spec', 'FieldValueForbidden']]);
    }
    expect((await h.get(statefulSets, { name: 'db', namespace: 'ns' }))?.metadata.resourceVersion).toBe(allowed.stored?.metadata.resourceVersion);
  });

  test('status: counters above replicas are refused; main writes keep status', async () => {
    const created = (await h.create(statefulSets, obj('db', validSpec()))).stored!;
    const bad = await h.updateStatus(statefulSets, { ...created, status: { replicas: 1, readyReplicas: 2, availableReplicas: 0 } });
    expect(bad.errors).toEqual(['status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas']);
    const good = (await h.updateStatus(statefulSets, { ...created, status: { replicas: 2, readyReplicas: 1, availableReplicas: 1 } })).stored!;
    const kept = await h.update(statefulSets, { ...withSpec(good, { replicas: 2 }), status: {} });
    expect(kept.stored?.status).toEqual({ replicas: 2, readyReplicas: 1, availableReplicas: 1 });
  });
});

describe('DaemonSet', () => {
  test('defaults: RollingUpdate with maxUnavailable 1 and maxSurge 0, history 10; template generation 1', async () => {
    const r = await h.create(daemonSets, obj('agent', validSpec()));
    expect(r.errors).toEqual([]);
    expect(r.stored?.spec).toMatchObject({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10 });
    expect(r.stored?.metadata.annotations).toEqual({ 'deprecated.daemonset.template.generation': '1' });
    expect(r.stored?.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
  });

  const rules: { name: string; spec: Spec; want: string[][] }[] = [
    { name: 'valid', spec: validSpec(), want: [] },
    { name: 'no selector (selects nothing)', spec: { template: template() }, want: [['spec.template.metadata.labels', 'FieldValueInvalid']] },
    { name: 'empty selector', spec: validSpec({ selector: {} }), want: [['spec.selector', 'FieldValueInvalid']] },
    { name: 'selector not matching', spec: validSpec({ selector: { matchLabels: { app: 'x' } } }), want: [['spec.template.metadata.labels', 'FieldValueInvalid']] },
    { name: 'restartPolicy Never', spec: validSpec({ template: template({ restartPolicy: 'Never' }) }), want: [['spec.template.spec.restartPolicy', 'FieldValueNotSupported']] },
    { name: 'no containers', spec: validSpec({ template: { metadata: { labels }, spec: { containers: [] } } }), want: [['spec.template.spec.containers', 'FieldValueRequired']] },
    { name: 'both surge and unavailable', spec: validSpec({ updateStrategy: { rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } } }), want: [['spec.updateStrategy.rollingUpdate.maxSurge', 'FieldValueInvalid']] },
    { name: 'surge only', spec: validSpec({ updateStrategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: '10%' } } }), want: [] },
    { name: 'neither surge nor unavailable', spec: validSpec({ updateStrategy: { rollingUpdate: { maxUnavailable: '0%', maxSurge: 0 } } }), want: [['spec.updateStrategy.rollingUpdate.maxUnavailable', 'FieldValueRequired']] },
    { name: 'surge over 100%', spec: validSpec({ updateStrategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: '101%' } } }), want: [['spec.updateStrategy.rollingUpdate.maxSurge', 'FieldValueInvalid']] },
    { name: 'unknown strategy', spec: validSpec({ updateStrategy: { type: 'Surge' } }), want: [['spec.updateStrategy', 'FieldValueNotSupported']] },
    { name: 'OnDelete', spec: validSpec({ updateStrategy: { type: 'OnDelete' } }), want: [] },
    { name: 'negative minReadySeconds', spec: validSpec({ minReadySeconds: -1 }), want: [['spec.minReadySeconds', 'FieldValueInvalid']] },
  ];
  for (const c of rules) {
    test(`validation: ${c.name}`, async () => {
      const r = await h.create(daemonSets, obj('agent', c.spec));
      expect(causes(r)).toEqual(c.want);
    });
  }

  test('a template change moves generation and template generation; another spec change only generation; the selector is fixed', async () => {
    const created = (await h.create(daemonSets, obj('agent', validSpec()))).stored!;
    const tmpl = (await h.update(daemonSets, withSpec(created, { template: { metadata: { labels }, spec: { ...(template().spec as Spec), containers: [{ name: 'c', image: 'postgres:2' }] } } }))).stored!;
    expect(tmpl.metadata.generation).toBe(2);
    expect(tmpl.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('2');
    const other = (await h.update(daemonSets, withSpec(tmpl, { minReadySeconds: 3 }))).stored!;
    expect(other.metadata.generation).toBe(3);
    expect(other.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('2');
    const r = await h.update(daemonSets, withSpec(other, { selector: { matchLabels: labels, matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] } }));
    expect(causes(r)).toEqual([['spec.selector', 'FieldValueInvalid']]);
  });

  test('status counters may not be negative', async () => {
    const created = (await h.create(daemonSets, obj('agent', validSpec()))).stored!;
    const r = await h.updateStatus(daemonSets, { ...created, status: { currentNumberScheduled: -1, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 } });
    expect(r.errors).toEqual(['status.currentNumberScheduled: Invalid value: -1: must be greater than or equal to 0']);
  });
});

describe('ControllerRevision', () => {
  const owner = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u1', controller: true };
  test('data is required, revision not negative; data is immutable, revision is not', async () => {
    const missing = await h.create(controllerRevisions, { metadata: { name: 'r', namespace: 'ns' }, revision: -1 });
    expect(missing.errors).toEqual(['data: Required value: data is mandatory', 'revision: Invalid value: -1: must be greater than or equal to 0']);
    const created = (await h.create(controllerRevisions, { metadata: { name: 'r', namespace: 'ns', ownerReferences: [owner] }, data: { spec: {} }, revision: 1 })).stored!;
    expect(created.metadata.generation).toBeUndefined();
    expect(causes(await h.update(controllerRevisions, { ...created, data: { spec: { x: 1 } } }))).toEqual([['data', 'FieldValueInvalid']]);
    expect((await h.update(controllerRevisions, { ...created, revision: 2 })).errors).toEqual([]);
  });
});
