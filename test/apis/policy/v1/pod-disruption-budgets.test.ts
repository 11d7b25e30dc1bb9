// Kind rules of PodDisruptionBudgets through the real registry over the memory
// backend: no defaults in policy/v1, one row per semantic rule (the invalid form
// refused with kube's cause, the valid form accepted), generation and status.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { podDisruptionBudgets } from '../../../../src/apis/policy/v1/index.js';
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
const selector = { matchLabels: { app: 'web' } };
const pdb = (spec: Spec): KubeObject => ({ metadata: { name: 'p', namespace: 'ns' }, spec });
const causes = (r: { causes: readonly { field: string; reason: string }[] }): string[][] => r.causes.map((c) => [c.field, c.reason]);

describe('PodDisruptionBudget validation', () => {
  const rules: { name: string; spec: Spec; want: string[][] }[] = [
    { name: 'minAvailable as a number', spec: { minAvailable: 2, selector }, want: [] },
    { name: 'maxUnavailable as a percent', spec: { maxUnavailable: '30%', selector }, want: [] },
    { name: 'neither (and an empty selector: every pod in v1)', spec: { selector: {} }, want: [] },
    { name: 'both set', spec: { minAvailable: 1, maxUnavailable: 1, selector }, want: [['spec', 'FieldValueInvalid']] },
    { name: 'negative minAvailable', spec: { minAvailable: -1 }, want: [['spec.minAvailable', 'FieldValueInvalid']] },
    { name: 'a percent without %', spec: { minAvailable: '50' }, want: [['spec.minAvailable', 'FieldValueInvalid']] },
    { name: 'maxUnavailable over 100%', spec: { maxUnavailable: '120%' }, want: [['spec.maxUnavailable', 'FieldValueInvalid']] },
    { name: 'bad selector operator', spec: { selector: { matchExpressions: [{ key: 'app', operator: 'Near' }] } }, want: [['spec.selector.matchExpressions[0].operator', 'FieldValueInvalid']] },
    { name: 'bad selector label value', spec: { selector: { matchLabels: { app: 'a b' } } }, want: [['spec.selector.matchLabels', 'FieldValueInvalid']] },
    { name: 'unknown unhealthyPodEvictionPolicy', spec: { unhealthyPodEvictionPolicy: 'Sometimes' }, want: [['spec.unhealthyPodEvictionPolicy', 'FieldValueNotSupported']] },
    { name: 'AlwaysAllow', spec: { unhealthyPodEvictionPolicy: 'AlwaysAllow', selector }, want: [] },
  ];
  for (const c of rules) {
    test(c.name, async () => {
      const r = await h.create(podDisruptionBudgets, pdb(c.spec));
      expect(causes(r)).toEqual(c.want);
      expect(r.stored === undefined).toBe(c.want.length > 0);
    });
  }

  test("kube's messages", async () => {
    const both = await h.create(podDisruptionBudgets, pdb({ minAvailable: 1, maxUnavailable: '10%' }));
    expect(both.errors).toEqual(['spec: Invalid value: {"minAvailable":1,"maxUnavailable":"10%"}: minAvailable and maxUnavailable cannot be both set']);
    const percent = await h.create(podDisruptionBudgets, pdb({ maxUnavailable: '120%' }));
    expect(percent.errors).toEqual(['spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%']);
  });
});

describe('PodDisruptionBudget lifecycle', () => {
  test('no defaults; status starts at zero counters; generation 1', async () => {
    const r = await h.create(podDisruptionBudgets, { ...pdb({ minAvailable: 1, selector }), status: { disruptionsAllowed: 5 } });
    expect(r.stored?.spec).toEqual({ minAvailable: 1, selector });
    expect(r.stored?.status).toEqual({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    expect(r.stored?.metadata.generation).toBe(1);
  });

  test('generation moves with spec only; status through /status only, with non-negative counters', async () => {
    const created = (await h.create(podDisruptionBudgets, pdb({ minAvailable: 1, selector }))).stored!;
    const statused = (await h.updateStatus(podDisruptionBudgets, { ...created, status: { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 } })).stored!;
    expect(statused.status).toMatchObject({ disruptionsAllowed: 1 });
    const bad = await h.updateStatus(podDisruptionBudgets, { ...statused, status: { disruptionsAllowed: -1, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } });
    expect(bad.errors).toEqual(['status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0']);
    const labelled = (await h.update(podDisruptionBudgets, { ...statused, metadata: { ...statused.metadata, labels: { a: 'b' } }, status: {} })).stored!;
    expect(labelled.metadata.generation).toBe(1);
    expect(labelled.status).toMatchObject({ disruptionsAllowed: 1 });
    const changed = (await h.update(podDisruptionBudgets, { ...labelled, spec: { minAvailable: '50%', selector } })).stored!;
    expect(changed.metadata.generation).toBe(2);
  });

  test('an update must name the resourceVersion it read (no unconditional update)', async () => {
    await h.create(podDisruptionBudgets, pdb({ minAvailable: 1, selector }));
    const err = await h.registry
      .store(podDisruptionBudgets)
      .update(pdb({ minAvailable: 2, selector }), { name: 'p', namespace: 'ns' })
      .then(
        () => undefined,
        (e: unknown) => e as { code?: number; message?: string },
      );
    expect(err?.code).toBe(422);
    expect(err?.message).toMatch(/metadata\.resourceVersion: Invalid value: .*: must be specified for an update/);
  });
});
