// The system PriorityClasses are ensured: created on a fresh store, left alone on
// a restart over the same store, and back after a user deleted one.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { createRegistry } from '../../src/registry/registry.js';
import { bootstrapPriorityClasses } from '../../src/server/bootstrap-scheduling.js';
import { builtinKinds, createStoreHarness, type StoreHarness } from '../support/store-harness.js';

const PRIORITY_CLASSES = { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses' };
let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

/** A second server start over the same storage. */
function restarted() {
  return createRegistry({ storage: h.storage, resources: builtinKinds(h.storage), admission: createAdmissionChain(), clock: () => new Date() });
}

test('a fresh cluster gets both classes, with kube values and defaults', async () => {
  expect(await bootstrapPriorityClasses(h.registry)).toEqual({ 'system-node-critical': 'created', 'system-cluster-critical': 'created' });
  const list = await h.registry.store(PRIORITY_CLASSES).list({});
  expect(list.items.map((pc) => [pc.metadata.name, pc.value, pc.preemptionPolicy, pc.globalDefault ?? false])).toEqual([
    ['system-cluster-critical', 2_000_000_000, 'PreemptLowerPriority', false],
    ['system-node-critical', 2_000_001_000, 'PreemptLowerPriority', false],
  ]);
  expect(list.items[0]!.description).toBe('Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.');
});

test('restarts leave them alone; a deleted one comes back', async () => {
  await bootstrapPriorityClasses(h.registry);
  const before = await h.registry.store(PRIORITY_CLASSES).get({ name: 'system-node-critical' });
  expect(await bootstrapPriorityClasses(restarted())).toEqual({ 'system-node-critical': 'unchanged', 'system-cluster-critical': 'unchanged' });
  expect(await h.registry.store(PRIORITY_CLASSES).get({ name: 'system-node-critical' })).toEqual(before);
  await h.registry.store(PRIORITY_CLASSES).delete({ name: 'system-cluster-critical' });
  expect(await bootstrapPriorityClasses(restarted())).toEqual({ 'system-node-critical': 'unchanged', 'system-cluster-critical': 'created' });
  expect((await h.registry.store(PRIORITY_CLASSES).list({})).items).toHaveLength(2);
});

test('two starts racing on one store end with one object each', async () => {
  const [a, b] = await Promise.all([bootstrapPriorityClasses(h.registry, { sleep: async () => {} }), bootstrapPriorityClasses(restarted(), { sleep: async () => {} })]);
  expect([a['system-node-critical'], b['system-node-critical']].sort()).toEqual(['created', 'unchanged']);
  expect((await h.registry.store(PRIORITY_CLASSES).list({})).items).toHaveLength(2);
});
