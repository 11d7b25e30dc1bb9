// Lease rules through the real store: durations, transitions, the coordinated
// election strategy fields, create-on-update, and the columns.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { leases } from '../../../src/apis/coordination/v1/index.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

const lease = (spec: Record<string, unknown>): KubeObject => ({ metadata: { name: 'l', namespace: 'ns' }, spec });

const cases: { name: string; input: KubeObject; want: string[] }[] = [
  { name: 'held lease', input: lease({ holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0, acquireTime: '2026-01-01T00:00:00.000000Z', renewTime: '2026-01-01T00:00:10.000000Z' }), want: [] },
  { name: 'empty lease', input: lease({}), want: [] },
  {
    name: 'zero duration, negative transitions',
    input: lease({ leaseDurationSeconds: 0, leaseTransitions: -1 }),
    want: ['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0', 'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0'],
  },
  { name: 'unknown strategy', input: lease({ strategy: 'Newest' }), want: ['spec.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"'] },
  { name: 'custom qualified strategy', input: lease({ strategy: 'example.com/mine' }), want: [] },
  { name: 'preferred holder without strategy', input: lease({ preferredHolder: 'b' }), want: ['spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined'] },
  { name: 'preferred holder with strategy', input: lease({ preferredHolder: 'b', strategy: 'OldestEmulationVersion' }), want: [] },
];

for (const c of cases) {
  test(c.name, async () => {
    const res = await h.create(leases, c.input);
    expect(res.errors).toEqual(c.want);
    if (c.want.length === 0) expect(res.stored).toBeDefined();
    else expect(res.stored).toBeUndefined();
  });
}

test('PUT creates a missing lease (leader election) and updates are validated', async () => {
  const created = await h.update(leases, lease({ holderIdentity: 'a', leaseDurationSeconds: 15 }));
  expect(created.errors).toEqual([]);
  expect(created.stored?.spec).toEqual({ holderIdentity: 'a', leaseDurationSeconds: 15 });
  const bad = await h.update(leases, lease({ holderIdentity: 'b', leaseDurationSeconds: -5 }));
  expect(bad.errors).toEqual(['spec.leaseDurationSeconds: Invalid value: -5: must be greater than 0']);
  expect(bad.stored?.spec).toEqual({ holderIdentity: 'a', leaseDurationSeconds: 15 });
});

test('columns: NAME HOLDER AGE', () => {
  const table = leases.table!;
  expect(table.columns.map((c) => c.name)).toEqual(['Name', 'Holder', 'Age']);
  const now = new Date('2026-01-02T03:05:00Z');
  const metadata = { name: 'x', creationTimestamp: '2026-01-02T03:04:00Z' };
  expect(table.cells({ metadata, spec: { holderIdentity: 'node-a' } }, now)).toEqual(['x', 'node-a', '60s']);
  expect(table.cells({ metadata, spec: {} }, now)).toEqual(['x', '', '60s']);
});
