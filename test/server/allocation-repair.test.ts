// The allocation repair every start runs, with replicas: a start lists the
// services, then the records; a service another replica stores in between has a
// record but is missing from the list. The repair re-reads the service a record
// names before dropping it, so it never frees a value that is in use.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { namespaces } from '../../src/apis/core/v1/namespaces.js';
import { services } from '../../src/apis/core/v1/services.js';
import { IP_PREFIX, createServiceAllocator, parseIpRange, parsePortRange, type ServiceAllocator } from '../../src/apis/core/v1/service-allocation.js';
import { isStatusError } from '../../src/errors/status-error.js';
import { createRegistry, type Registry } from '../../src/registry/registry.js';
import type { KubeObject } from '../../src/schema/object.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import type { Storage } from '../../src/storage/storage.js';

let storage: Storage;
let registry: Registry;
let allocator: ServiceAllocator;
beforeEach(async () => {
  storage = createObjectStore({ kv: openMemoryKv() });
  allocator = createServiceAllocator({ storage, clusterIPRange: parseIpRange('10.0.0.0/24'), nodePortRange: parsePortRange('30000-32767') });
  registry = createRegistry({ storage, resources: [namespaces, { ...services, allocator }], admission: createAdmissionChain(), clock: () => new Date() });
  await registry.store(namespaces).create({ metadata: { name: 'default' } });
});
afterEach(async () => storage.close());

const lookup = async (namespace: string, name: string) => {
  try {
    return await registry.store(services).get({ namespace, name });
  } catch (err) {
    if (isStatusError(err) && err.reason === 'NotFound') return undefined;
    throw err;
  }
};

async function records(): Promise<string[]> {
  return (await storage.list(IP_PREFIX)).items.map((i) => i.metadata.name ?? '');
}

const cases: Array<{ name: string; withLookup: boolean; want: { dropped: number; kept: boolean } }> = [
  { name: 'with a fresh read of the named service: the record stays', withLookup: true, want: { dropped: 0, kept: true } },
  // What the repair did before: the race that freed an IP a service still held.
  { name: 'from the stale list alone: the record would go', withLookup: false, want: { dropped: 1, kept: false } },
];

for (const c of cases) {
  test(c.name, async () => {
    const staleList = (await registry.store(services).list({})).items;
    const { object } = await registry.store(services).create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'late' }, spec: { ports: [{ port: 80 }] } } as KubeObject, { namespace: 'default' });
    const ip = (object.spec as { clusterIP: string }).clusterIP;
    // olderThanMs -1: every record counts as old, so only the re-read protects it.
    const result = await allocator.repair(staleList, { olderThanMs: -1, ...(c.withLookup ? { lookup } : {}) });
    expect(result.dropped).toBe(c.want.dropped);
    expect((await records()).includes(ip)).toBe(c.want.kept);
  });
}

test('a record whose service is really gone is dropped, with the lookup too', async () => {
  await allocator.allocate({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'never-stored', namespace: 'default', uid: 'u1' }, spec: { clusterIP: '10.0.0.9', ports: [{ port: 80 }] } } as KubeObject, undefined, { dryRun: false });
  expect(await records()).toContain('10.0.0.9');
  expect(await allocator.repair([], { olderThanMs: -1, lookup })).toEqual({ dropped: 1, recorded: 0, ipAddresses: 0 });
  expect(await records()).not.toContain('10.0.0.9');
});
