// PriorityClass rules through the real registry: the user range and the reserved
// `system-` names, preemptionPolicy's default and values, value and policy fixed
// after create, the table, and the Priority admission plugin's one-default rule.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain, defaultAdmissionPlugins } from '../../../src/admission/chain.js';
import { priorityAdmissionFromStorage } from '../../../src/apis/scheduling/v1/index.js';
import { priorityClasses } from '../../../src/apis/scheduling/v1/priority-classes.js';
import { isStatusError } from '../../../src/errors/status-error.js';
import { createRegistry } from '../../../src/registry/registry.js';
import { tableForObject } from '../../../src/registry/table.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { openMemoryKv } from '../../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../../src/storage/object-store.js';
import { createBuiltinHttpHarness, createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

const pc = (name: string, rest: Record<string, unknown>): KubeObject => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, ...rest });

const createCases: { name: string; input: KubeObject; want: string[] }[] = [
  { name: 'user class at the top of the range', input: pc('top', { value: 1_000_000_000 }), want: [] },
  { name: 'negative values are fine', input: pc('low', { value: -5 }), want: [] },
  { name: 'user class above the range', input: pc('high', { value: 1_000_000_001 }), want: ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000'] },
  { name: 'known system class with its value', input: pc('system-node-critical', { value: 2_000_001_000 }), want: [] },
  {
    name: 'unknown system- name',
    input: pc('system-mine', { value: 5 }),
    want: ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"],
  },
  {
    name: 'system class with another value',
    input: pc('system-cluster-critical', { value: 5 }),
    want: ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000"],
  },
  {
    name: 'system class as global default',
    input: pc('system-cluster-critical', { value: 2_000_000_000, globalDefault: true }),
    want: ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false"],
  },
  {
    name: 'unknown preemption policy',
    input: pc('p', { value: 1, preemptionPolicy: 'Sometimes' }),
    want: ['preemptionPolicy: Unsupported value: "Sometimes": supported values: "Never", "PreemptLowerPriority"'],
  },
  { name: 'preemption policy Never', input: pc('never', { value: 1, preemptionPolicy: 'Never' }), want: [] },
];

describe('create', () => {
  for (const c of createCases) {
    test(c.name, async () => {
      const res = await h.create(priorityClasses, c.input);
      expect(res.errors).toEqual(c.want);
      if (c.want.length === 0) expect(res.stored).toBeDefined();
      else expect(res.stored).toBeUndefined();
    });
  }

  test('preemptionPolicy defaults to PreemptLowerPriority', async () => {
    const res = await h.create(priorityClasses, pc('d', { value: 10 }));
    expect(res.stored).toMatchObject({ value: 10, preemptionPolicy: 'PreemptLowerPriority' });
  });
});

describe('update', () => {
  const cases: { name: string; change: (o: KubeObject) => KubeObject; want: string[] }[] = [
    { name: 'labels may change', change: (o) => ({ ...o, metadata: { ...o.metadata, labels: { a: 'b' } } }), want: [] },
    { name: 'globalDefault may change', change: (o) => ({ ...o, globalDefault: true }), want: [] },
    { name: 'value may not change', change: (o) => ({ ...o, value: 11 }), want: ['value: Forbidden: may not be changed in an update.'] },
    { name: 'preemptionPolicy may not change', change: (o) => ({ ...o, preemptionPolicy: 'Never' }), want: ['preemptionPolicy: Invalid value: "Never": field is immutable'] },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const created = await h.create(priorityClasses, pc('u', { value: 10 }));
      const res = await h.update(priorityClasses, c.change(created.stored!));
      expect(res.errors).toEqual(c.want);
      if (c.want.length > 0) expect(res.stored).toEqual(created.stored);
    });
  }
});

test('table: NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY', async () => {
  const { stored } = await h.create(priorityClasses, pc('t', { value: 7, globalDefault: true }));
  const table = tableForObject(stored!, { table: priorityClasses.table, version: 'v1', includeObject: 'None', type: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass' }, now: new Date(Date.parse(stored!.metadata.creationTimestamp!) + 65_000) });
  expect(table.columnDefinitions!.map((c) => c.name)).toEqual(['Name', 'Value', 'Global-Default', 'Age', 'PreemptionPolicy']);
  expect(table.rows[0]!.cells).toEqual(['t', 7, true, '65s', 'PreemptLowerPriority']);
});

describe('Priority admission: one global default', () => {
  async function registryWithPriority() {
    const storage = createObjectStore({ kv: openMemoryKv() });
    const plugin = priorityAdmissionFromStorage(storage);
    const registry = createRegistry({
      storage,
      resources: [priorityClasses],
      admission: createAdmissionChain({ plugins: [...defaultAdmissionPlugins(), plugin] }),
      clock: () => new Date('2026-01-02T03:04:05Z'),
    });
    return registry.store(priorityClasses);
  }

  async function refusal(p: Promise<unknown>): Promise<{ code: number; message: string }> {
    try {
      await p;
    } catch (err) {
      if (isStatusError(err)) return { code: err.code, message: err.message };
      throw err;
    }
    throw new Error('the write was admitted');
  }

  test('a second default is refused on create with kube text, a non-default is admitted', async () => {
    const store = await registryWithPriority();
    await store.create(pc('first', { value: 1, globalDefault: true }));
    expect(await refusal(store.create(pc('second', { value: 2, globalDefault: true })))).toEqual({
      code: 403,
      message: 'priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass first is already marked as default. Only one default can exist',
    });
    await expect(store.create(pc('third', { value: 3 }))).resolves.toBeDefined();
    await expect(store.get({ name: 'second' })).rejects.toMatchObject({ reason: 'NotFound' });
  });

  test('marking another class default is refused; the default itself may be updated', async () => {
    const store = await registryWithPriority();
    const first = await store.create(pc('first', { value: 1, globalDefault: true }));
    const other = await store.create(pc('other', { value: 2 }));
    expect((await refusal(store.update({ ...other.object, globalDefault: true }, { name: 'other' }))).code).toBe(403);
    const updated = await store.update({ ...first.object, metadata: { ...first.object.metadata, labels: { a: 'b' } } }, { name: 'first' });
    expect(updated.object.metadata.labels).toEqual({ a: 'b' });
  });

  test('system classes may not be deleted; others may', async () => {
    const store = await registryWithPriority();
    await store.create(pc('system-node-critical', { value: 2_000_001_000 }));
    await store.create(pc('mine', { value: 1 }));
    expect(await refusal(store.delete({ name: 'system-node-critical' }))).toEqual({
      code: 403,
      message: 'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
    });
    await expect(store.delete({ name: 'mine' })).resolves.toBeDefined();
    await expect(store.get({ name: 'system-node-critical' })).resolves.toBeDefined();
  });

  test('once the default is deleted, another may become default', async () => {
    const store = await registryWithPriority();
    await store.create(pc('first', { value: 1, globalDefault: true }));
    await store.delete({ name: 'first' });
    await expect(store.create(pc('second', { value: 2, globalDefault: true }))).resolves.toBeDefined();
  });
});

test('description survives typed decoding over HTTP (the generated table lacks it)', async () => {
  const http = await createBuiltinHttpHarness();
  const url = '/apis/scheduling.k8s.io/v1/priorityclasses';
  const res = await http.app.inject({ method: 'POST', url: `${url}?fieldValidation=Strict`, payload: pc('described', { value: 3, description: 'batch jobs' }) as object });
  expect(res.statusCode).toBe(201);
  expect(res.json()).toMatchObject({ value: 3, description: 'batch jobs' });
  const bad = await http.app.inject({ method: 'POST', url: `${url}?fieldValidation=Strict`, payload: pc('unknown', { value: 3, colour: 'red' }) as object });
  expect(bad.statusCode).toBe(400);
});
