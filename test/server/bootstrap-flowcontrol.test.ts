// The APF configuration is ensured: every mandatory and suggested level and
// schema on a fresh store, nothing duplicated or rewritten on a restart, a
// mandatory object put back when changed, a suggested one left to a user who
// turned its autoupdate annotation off, and the schemas' Dangling condition.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { createRegistry } from '../../src/registry/registry.js';
import type { KubeObject } from '../../src/schema/object.js';
import { bootstrapFlowControl } from '../../src/server/bootstrap-flowcontrol.js';
import { builtinKinds, createStoreHarness, type StoreHarness } from '../support/store-harness.js';

const PLS = { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', resource: 'prioritylevelconfigurations' };
const FSS = { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', resource: 'flowschemas' };
const LEVELS = ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low'];
const SCHEMAS = [
  'catch-all', 'endpoint-controller', 'exempt', 'global-default', 'kube-controller-manager', 'kube-scheduler', 'kube-system-service-accounts',
  'probes', 'service-accounts', 'system-leader-election', 'system-node-high', 'system-nodes', 'workload-leader-election',
];

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

const restarted = () => createRegistry({ storage: h.storage, resources: builtinKinds(h.storage), admission: createAdmissionChain(), clock: () => new Date() });
const names = async (r: typeof PLS) => (await h.registry.store(r).list({})).items.map((o) => o.metadata.name);
const get = (r: typeof PLS, name: string) => h.registry.store(r).get({ name });

describe('fresh cluster', () => {
  test('every level and schema is created, annotated for auto-update, valid under kube rules', async () => {
    const actions = await bootstrapFlowControl(h.registry);
    expect(Object.values(actions).every((a) => a === 'created')).toBe(true);
    expect(await names(PLS)).toEqual(LEVELS);
    expect(await names(FSS)).toEqual(SCHEMAS);
    const catchAll = await get(PLS, 'catch-all');
    expect(catchAll.metadata.annotations).toEqual({ 'apf.kubernetes.io/autoupdate-spec': 'true' });
    expect(catchAll.spec).toEqual({ type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } });
    expect((await get(PLS, 'workload-low')).spec).toEqual({
      type: 'Limited',
      limited: { nominalConcurrencyShares: 100, lendablePercent: 90, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } } },
    });
    const exempt = await get(FSS, 'exempt');
    expect(exempt.spec).toMatchObject({ priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 1 });
    expect((exempt.spec as { distinguisherMethod?: unknown }).distinguisherMethod).toBeUndefined();
  });

  test('each schema says its level exists (Dangling False)', async () => {
    await bootstrapFlowControl(h.registry);
    for (const name of SCHEMAS) {
      const fs = await get(FSS, name);
      expect((fs.status as { conditions: unknown[] }).conditions, name).toEqual([expect.objectContaining({ type: 'Dangling', status: 'False', reason: 'Found' })]);
    }
  });
});

describe('restarts', () => {
  test('a restart writes nothing', async () => {
    await bootstrapFlowControl(h.registry);
    const before = await h.registry.store(FSS).list({});
    const actions = await bootstrapFlowControl(restarted());
    expect(Object.values(actions).every((a) => a === 'unchanged')).toBe(true);
    expect((await h.registry.store(FSS).list({})).items).toEqual(before.items);
  });

  test('a changed mandatory level is put back, even with auto-update off', async () => {
    await bootstrapFlowControl(h.registry);
    const current = await get(PLS, 'catch-all');
    await h.registry.store(PLS).update(
      { ...current, metadata: { ...current.metadata, annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } } } } as KubeObject,
      { name: 'catch-all' },
    );
    const actions = await bootstrapFlowControl(restarted());
    expect(actions['prioritylevelconfigurations/catch-all']).toBe('repaired');
    expect(((await get(PLS, 'catch-all')).spec as { limited: { nominalConcurrencyShares: number } }).limited.nominalConcurrencyShares).toBe(5);
  });

  test("the exempt level keeps a user's exempt settings", async () => {
    await bootstrapFlowControl(h.registry);
    const current = await get(PLS, 'exempt');
    await h.registry.store(PLS).update({ ...current, spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 10, lendablePercent: 20 } } } as KubeObject, { name: 'exempt' });
    expect((await bootstrapFlowControl(restarted()))['prioritylevelconfigurations/exempt']).toBe('unchanged');
    expect((await get(PLS, 'exempt')).spec).toEqual({ type: 'Exempt', exempt: { nominalConcurrencyShares: 10, lendablePercent: 20 } });
  });

  test('a suggested schema follows auto-update: repaired while "true", the user\'s once "false"', async () => {
    await bootstrapFlowControl(h.registry);
    const store = h.registry.store(FSS);
    const current = await get(FSS, 'service-accounts');
    const tuned = { ...(current.spec as object), matchingPrecedence: 9500 };
    await store.update({ ...current, spec: tuned } as KubeObject, { name: 'service-accounts' });
    expect((await bootstrapFlowControl(restarted()))['flowschemas/service-accounts']).toBe('repaired');
    expect(((await get(FSS, 'service-accounts')).spec as { matchingPrecedence: number }).matchingPrecedence).toBe(9000);

    const again = await get(FSS, 'service-accounts');
    await store.update({ ...again, metadata: { ...again.metadata, annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } }, spec: tuned } as KubeObject, { name: 'service-accounts' });
    expect((await bootstrapFlowControl(restarted()))['flowschemas/service-accounts']).toBe('unchanged');
    expect(((await get(FSS, 'service-accounts')).spec as { matchingPrecedence: number }).matchingPrecedence).toBe(9500);
  });

  test('a deleted suggested level comes back', async () => {
    await bootstrapFlowControl(h.registry);
    await h.registry.store(PLS).delete({ name: 'workload-high' });
    expect((await bootstrapFlowControl(restarted()))['prioritylevelconfigurations/workload-high']).toBe('created');
    expect(await names(PLS)).toEqual(LEVELS);
  });
});
