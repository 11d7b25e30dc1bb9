// The objects a start ensures, against in-memory storage: every state an earlier
// start, a crash part way through one, or another replica can leave ends in the
// same objects and allocation records, and replicas racing all succeed.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { endpoints } from '../../src/apis/core/v1/endpoints.js';
import { namespaces } from '../../src/apis/core/v1/namespaces.js';
import { services } from '../../src/apis/core/v1/services.js';
import { IP_PREFIX, createServiceAllocator, parseIpRange, parsePortRange, type ServiceAllocator } from '../../src/apis/core/v1/service-allocation.js';
import { createRegistry, type Registry } from '../../src/registry/registry.js';
import type { KubeObject } from '../../src/schema/object.js';
import { bootstrapKubernetesService, bootstrapNamespaces, DEFAULT_NAMESPACES, type KubernetesServiceResult } from '../../src/server/bootstrap.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import type { Storage } from '../../src/storage/storage.js';

const quiet = { info: () => undefined, warn: () => undefined };
const noSleep = { sleep: async () => undefined };
const at = { namespace: 'default', name: 'kubernetes' };

interface Cluster {
  readonly storage: Storage;
  readonly registry: Registry;
  readonly allocator: ServiceAllocator;
}

function cluster(storage: Storage, range = '10.0.0.0/24'): Cluster {
  const allocator = createServiceAllocator({ storage, clusterIPRange: parseIpRange(range), nodePortRange: parsePortRange('30000-32767') });
  const registry = createRegistry({
    storage,
    resources: [namespaces, { ...services, allocator }, endpoints],
    admission: createAdmissionChain(),
    clock: () => new Date(),
  });
  return { storage, registry, allocator };
}

function ensure(c: Cluster, opts: { port?: number; address?: string; clusterIP?: string } = {}): Promise<KubernetesServiceResult> {
  return bootstrapKubernetesService(c.registry, {
    clusterIP: opts.clusterIP ?? '10.0.0.1',
    securePort: opts.port ?? 6443,
    advertiseAddress: opts.address ?? '192.0.2.1',
    allocator: c.allocator,
    logger: quiet,
    ensure: noSleep,
  });
}

const getService = (c: Cluster) => c.registry.store(services).get(at);
const getEndpoints = (c: Cluster) => c.registry.store(endpoints).get(at) as Promise<KubeObject & { subsets: Array<{ addresses: Array<{ ip: string }>; ports: unknown[] }> }>;
const specOf = (svc: KubeObject) => svc.spec as { clusterIP: string; type: string; ports: Array<Record<string, unknown>> };

/** Every IP record with the uid holding it. */
async function ipRecords(c: Cluster): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const item of (await c.storage.list(IP_PREFIX)).items) out[item.metadata.name ?? ''] = item.metadata.uid ?? '';
  return out;
}

/** A record as a start killed between taking the IP and storing the service leaves it. */
async function orphanRecord(c: Cluster, ip: string, owner: { uid: string; namespace: string; name: string }): Promise<void> {
  await c.storage.create(`${IP_PREFIX}${ip}`, {
    apiVersion: 'v1',
    kind: 'RangeAllocation',
    metadata: { name: ip, uid: owner.uid, creationTimestamp: new Date().toISOString() },
    service: { namespace: owner.namespace, name: owner.name },
  } as KubeObject);
}

let c: Cluster;
beforeEach(async () => {
  c = cluster(createObjectStore({ kv: openMemoryKv() }));
  await bootstrapNamespaces(c.registry, noSleep);
});
afterEach(async () => c.storage.close());

test('namespaces: a second run changes nothing', async () => {
  const before = (await c.registry.store(namespaces).list({})).items;
  await bootstrapNamespaces(c.registry, noSleep);
  const after = (await c.registry.store(namespaces).list({})).items;
  expect(after.map((n) => n.metadata.name).sort()).toEqual([...DEFAULT_NAMESPACES].sort());
  expect(after.map((n) => n.metadata.resourceVersion)).toEqual(before.map((n) => n.metadata.resourceVersion));
});

describe('the kubernetes service from each state a start can find', () => {
  const cases: Array<{
    name: string;
    /** Brings storage into the state; runs after namespaces exist. */
    given: (c: Cluster) => Promise<void>;
    port?: number;
    want: { service: KubernetesServiceResult['service']; endpoints: KubernetesServiceResult['endpoints']; addresses?: string[] };
  }> = [
    { name: 'nothing yet: both created', given: async () => undefined, want: { service: 'created', endpoints: 'created', addresses: ['192.0.2.1'] } },
    { name: 'an earlier start made both: nothing changes', given: async (c) => void (await ensure(c)), want: { service: 'unchanged', endpoints: 'unchanged', addresses: ['192.0.2.1'] } },
    {
      name: 'an earlier start on another port: service and endpoints moved to this one',
      given: async (c) => void (await ensure(c, { port: 7443 })),
      port: 6443,
      want: { service: 'repaired', endpoints: 'repaired', addresses: ['192.0.2.1'] },
    },
    {
      name: 'another replica on the same port: its address is kept beside ours',
      given: async (c) => void (await ensure(c, { address: '192.0.2.9' })),
      want: { service: 'unchanged', endpoints: 'repaired', addresses: ['192.0.2.1', '192.0.2.9'] },
    },
    {
      name: 'a crash between taking the IP and storing the service: the record is taken over',
      given: (c) => orphanRecord(c, '10.0.0.1', { uid: 'crashed-start', namespace: 'default', name: 'kubernetes' }),
      want: { service: 'created', endpoints: 'created' },
    },
    {
      name: 'a service without its record (an older data dir): the record is written',
      given: async (c) => {
        await ensure(c);
        await c.storage.delete(`${IP_PREFIX}10.0.0.1`);
      },
      want: { service: 'unchanged', endpoints: 'unchanged' },
    },
    {
      name: 'a record of an earlier kubernetes service: taken over for the live one',
      given: async (c) => {
        await ensure(c);
        await c.storage.delete(`${IP_PREFIX}10.0.0.1`);
        await orphanRecord(c, '10.0.0.1', { uid: 'earlier-incarnation', namespace: 'default', name: 'kubernetes' });
      },
      want: { service: 'unchanged', endpoints: 'unchanged' },
    },
    {
      name: 'ports and labels edited by a user: reset',
      given: async (c) => {
        await ensure(c);
        const svc = await getService(c);
        await c.registry.store(services).update({ ...svc, metadata: { ...svc.metadata, labels: {} }, spec: { ...specOf(svc), ports: [{ name: 'x', port: 8443, protocol: 'TCP', targetPort: 1 }] } } as KubeObject, at);
      },
      want: { service: 'repaired', endpoints: 'unchanged' },
    },
  ];
  for (const tc of cases) {
    test(tc.name, async () => {
      await tc.given(c);
      const got = await ensure(c, tc.port === undefined ? {} : { port: tc.port });
      expect(got).toEqual({ service: tc.want.service, endpoints: tc.want.endpoints });
      const svc = await getService(c);
      expect(specOf(svc)).toMatchObject({ clusterIP: '10.0.0.1', type: 'ClusterIP', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: tc.port ?? 6443 }] });
      expect(svc.metadata.labels).toMatchObject({ component: 'apiserver', provider: 'kubernetes' });
      // Exactly one record, held by the service that is stored.
      expect(await ipRecords(c)).toEqual({ '10.0.0.1': svc.metadata.uid });
      const eps = await getEndpoints(c);
      expect(eps.subsets).toHaveLength(1);
      expect(eps.subsets[0]!.ports).toEqual([{ name: 'https', port: tc.port ?? 6443, protocol: 'TCP' }]);
      if (tc.want.addresses !== undefined) expect(eps.subsets[0]!.addresses.map((a) => a.ip)).toEqual(tc.want.addresses);
      // And a second run finds everything right.
      expect(await ensure(c, tc.port === undefined ? {} : { port: tc.port })).toEqual({ service: 'unchanged', endpoints: 'unchanged' });
    });
  }

  test("a user's service on the first IP: start fails naming it", async () => {
    await c.registry.store(services).create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'squatter' }, spec: { clusterIP: '10.0.0.1', ports: [{ port: 80 }] } } as KubeObject, { namespace: 'default' });
    await expect(ensure(c)).rejects.toThrow("the kubernetes service's cluster IP 10.0.0.1 is held by service default/squatter");
  });

  test('a changed --service-cluster-ip-range: the service is made again on the new first IP', async () => {
    await ensure(c);
    const moved = cluster(c.storage, '10.1.0.0/24');
    expect(await ensure(moved, { clusterIP: '10.1.0.1' })).toEqual({ service: 'created', endpoints: 'unchanged' });
    const svc = await getService(moved);
    expect(specOf(svc).clusterIP).toBe('10.1.0.1');
    expect((await ipRecords(moved))['10.1.0.1']).toBe(svc.metadata.uid);
  });
});

describe('replicas starting at once', () => {
  const cases = [
    { name: 'two replicas', replicas: 2 },
    { name: 'five replicas', replicas: 5 },
  ];
  for (const tc of cases) {
    test(`${tc.name} on one store all succeed with one service and one record`, async () => {
      // Separate allocators and registries over one storage: what separate processes on one etcd share.
      const replicas = Array.from({ length: tc.replicas }, () => cluster(c.storage));
      const results = await Promise.all(replicas.map((r, i) => Promise.all([bootstrapNamespaces(r.registry, noSleep), ensure(r, { address: `192.0.2.${i + 1}` })])));
      expect(results.filter(([, r]) => r.service === 'created')).toHaveLength(1);
      const svc = await getService(c);
      expect(await ipRecords(c)).toEqual({ '10.0.0.1': svc.metadata.uid });
      // Each update was made on the latest endpoints (or lost with a Conflict and was made again): none is lost.
      const addresses = (await getEndpoints(c)).subsets[0]!.addresses.map((a) => a.ip);
      expect(addresses).toEqual(replicas.map((_, i) => `192.0.2.${i + 1}`));
    });
  }
});
