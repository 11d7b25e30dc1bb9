// The IPAddress object of every allocated service cluster IP (kube 1.33+'s
// allocator), through the generic store over the memory backend: made with the
// allocation, gone with its release (delete, type change), untouched by dry run,
// and reconciled with the allocation records by repair.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../../../src/admission/chain.js';
import { namespaces } from '../../../../src/apis/core/v1/namespaces.js';
import { services } from '../../../../src/apis/core/v1/services.js';
import { IP_PREFIX, createServiceAllocator, parseIpRange, parsePortRange } from '../../../../src/apis/core/v1/service-allocation.js';
import { createRegistry, type Registry } from '../../../../src/registry/registry.js';
import type { KubeObject } from '../../../../src/schema/object.js';
import { openMemoryKv } from '../../../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../../../src/storage/object-store.js';
import type { Storage } from '../../../../src/storage/storage.js';

const PREFIX = '/networking.k8s.io/ipaddresses/';
const ns = { namespace: 'default' };

function svc(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } } as KubeObject;
}

function managed(namespace: string, name: string): Record<string, unknown> {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IPAddress',
    metadata: expect.objectContaining({
      labels: { 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' },
      uid: expect.any(String),
      creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    }),
    spec: { parentRef: { group: '', resource: 'services', namespace, name } },
  };
}

describe('IPAddress objects of service cluster IPs', () => {
  let storage: Storage;
  let registry: Registry;
  let allocator: ReturnType<typeof createServiceAllocator>;

  async function ipAddresses(): Promise<Record<string, KubeObject>> {
    const out: Record<string, KubeObject> = {};
    for (const item of (await storage.list(PREFIX)).items) out[item.metadata.name!] = item;
    return out;
  }

  beforeEach(async () => {
    storage = createObjectStore({ kv: openMemoryKv() });
    allocator = createServiceAllocator({ storage, clusterIPRange: parseIpRange('10.0.0.0/24'), nodePortRange: parsePortRange('30000-32767') });
    registry = createRegistry({ storage, resources: [namespaces, { ...services, allocator }], admission: createAdmissionChain(), clock: () => new Date() });
    await registry.store(namespaces).create({ metadata: { name: 'default' } });
  });
  afterEach(async () => storage.close());

  test('a created service has one, named by its IP, pointing at it', async () => {
    const { object } = await registry.store(services).create(svc('a'), ns);
    const ip = (object.spec as { clusterIP: string }).clusterIP;
    expect(Object.keys(await ipAddresses())).toEqual([ip]);
    expect((await ipAddresses())[ip]).toMatchObject(managed('default', 'a'));
  });

  test('dry run makes none; headless and ExternalName services have none', async () => {
    await registry.store(services).create(svc('dry'), { ...ns, dryRun: true });
    await registry.store(services).create(svc('headless', { clusterIP: 'None' }), ns);
    await registry.store(services).create(svc('ext', { type: 'ExternalName', externalName: 'example.com', ports: undefined }), ns);
    expect(await ipAddresses()).toEqual({});
  });

  test('deleting the service, or making it ExternalName, removes it', async () => {
    const store = registry.store(services);
    await store.create(svc('a', { clusterIP: '10.0.0.5' }), ns);
    await store.create(svc('b', { clusterIP: '10.0.0.6' }), ns);
    expect(Object.keys(await ipAddresses()).sort()).toEqual(['10.0.0.5', '10.0.0.6']);
    await store.delete({ ...ns, name: 'a' });
    const b = await store.get({ ...ns, name: 'b' });
    await store.update({ ...b, spec: { ...(b.spec as object), type: 'ExternalName', externalName: 'example.com' } } as KubeObject, { ...ns, name: 'b' });
    expect(await ipAddresses()).toEqual({});
    expect((await storage.list(IP_PREFIX)).items).toEqual([]);
  });

  test('a taken IP keeps its object when another service asks for it', async () => {
    const store = registry.store(services);
    await store.create(svc('a', { clusterIP: '10.0.0.5' }), ns);
    await expect(store.create(svc('b', { clusterIP: '10.0.0.5' }), ns)).rejects.toMatchObject({ reason: 'Invalid' });
    expect((await ipAddresses())['10.0.0.5']).toMatchObject(managed('default', 'a'));
  });

  test('repair makes missing ones, replaces edited ones and removes ones without a record', async () => {
    const store = registry.store(services);
    const a = (await store.create(svc('a', { clusterIP: '10.0.0.5' }), ns)).object;
    const b = (await store.create(svc('b', { clusterIP: '10.0.0.6' }), ns)).object;
    // An older data dir (no object), a user's edit, and a leftover of a crash.
    await storage.delete(`${PREFIX}10.0.0.5`);
    const edited = (await ipAddresses())['10.0.0.6']!;
    await storage.guaranteedUpdate(`${PREFIX}10.0.0.6`, {
      tryUpdate: () => ({ ...edited, spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'someone-else' } } }) as KubeObject,
    });
    const leftover = { ...edited, metadata: { ...edited.metadata, name: '10.0.0.77', uid: 'x', resourceVersion: undefined } } as KubeObject;
    await storage.create(`${PREFIX}10.0.0.77`, leftover);
    // A user's own IPAddress (not the allocator's) is left alone.
    await storage.create(`${PREFIX}10.0.0.88`, { apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress', metadata: { name: '10.0.0.88', uid: 'u' }, spec: { parentRef: { resource: 'gateways', name: 'g' } } } as KubeObject);

    const result = await allocator.repair([a, b]);
    expect(result).toEqual({ dropped: 0, recorded: 0, ipAddresses: 3 });
    const after = await ipAddresses();
    expect(Object.keys(after).sort()).toEqual(['10.0.0.5', '10.0.0.6', '10.0.0.88']);
    expect(after['10.0.0.5']).toMatchObject(managed('default', 'a'));
    expect(after['10.0.0.6']).toMatchObject(managed('default', 'b'));
    // Nothing left to do: a second repair writes nothing.
    expect(await allocator.repair([a, b])).toEqual({ dropped: 0, recorded: 0, ipAddresses: 0 });
  });
});
