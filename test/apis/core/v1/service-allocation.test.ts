// Service cluster IPs and node ports through the generic store, as every write
// path (POST, PUT, PATCH, DELETE, dry run) reaches them: values come from the
// ranges, named ones are checked, and every value goes back when its service or
// its need for it goes away. The allocation records in storage are asserted too.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../../../src/admission/chain.js';
import { namespaces } from '../../../../src/apis/core/v1/namespaces.js';
import { services } from '../../../../src/apis/core/v1/services.js';
import {
  IP_PREFIX,
  NODE_PORT_PREFIX,
  createServiceAllocator,
  parseIpRange,
  parsePortRange,
} from '../../../../src/apis/core/v1/service-allocation.js';
import { StatusError } from '../../../../src/errors/status-error.js';
import { createRegistry, type Registry } from '../../../../src/registry/registry.js';
import type { KubeObject } from '../../../../src/schema/object.js';
import { openMemoryKv } from '../../../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../../../src/storage/object-store.js';
import type { Storage } from '../../../../src/storage/storage.js';

async function rejection(p: Promise<unknown>): Promise<StatusError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(StatusError);
  return err as StatusError;
}

function svc(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } } as KubeObject;
}

const specOf = (o: KubeObject) => o.spec as { clusterIP?: string; clusterIPs?: string[]; type?: string; ports: Array<{ nodePort?: number }> };

describe('service allocation', () => {
  let storage: Storage;
  let registry: Registry;
  let allocator: ReturnType<typeof createServiceAllocator>;
  const ns = { namespace: 'default' };

  async function recorded(prefix: string): Promise<string[]> {
    return (await storage.list(prefix)).items.map((i) => i.metadata.name!).sort();
  }

  function start(ipRange = '10.0.0.0/24', portRange = '30000-32767'): void {
    storage = createObjectStore({ kv: openMemoryKv() });
    allocator = createServiceAllocator({ storage, clusterIPRange: parseIpRange(ipRange), nodePortRange: parsePortRange(portRange) });
    registry = createRegistry({
      storage,
      resources: [namespaces, { ...services, allocator }],
      admission: createAdmissionChain(),
      clock: () => new Date(),
    });
  }

  beforeEach(async () => {
    start();
    await registry.store(namespaces).create({ metadata: { name: 'default' } });
  });
  afterEach(async () => storage.close());

  test('a ClusterIP service gets an IP from the range, recorded with its owner', async () => {
    const { object } = await registry.store(services).create(svc('a'), ns);
    const ip = specOf(object).clusterIP!;
    expect(ip).toMatch(/^10\.0\.0\.\d+$/);
    expect(specOf(object).clusterIPs).toEqual([ip]);
    // Dynamic picks stay out of the low band (the first 16 here) while the rest has room.
    expect(Number(ip.split('.')[3])).toBeGreaterThanOrEqual(17);
    const record = await storage.get(`${IP_PREFIX}${ip}`);
    expect(record.metadata.uid).toBe(object.metadata.uid);
    expect((await registry.store(services).get({ namespace: 'default', name: 'a' })).spec).toMatchObject({ clusterIP: ip });
  });

  test('a named IP is taken once; out of range and taken are Invalid with kube texts', async () => {
    await registry.store(services).create(svc('a', { clusterIP: '10.0.0.5' }), ns);
    const taken = await rejection(registry.store(services).create(svc('b', { clusterIP: '10.0.0.5' }), ns));
    expect(taken.code).toBe(422);
    expect(taken.message).toBe('Service "b" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.5"]: failed to allocate IP 10.0.0.5: provided IP is already allocated');
    const outside = await rejection(registry.store(services).create(svc('c', { clusterIP: '10.1.0.5' }), ns));
    expect(outside.message).toContain('failed to allocate IP 10.1.0.5: the provided IP (10.1.0.5) is not in the valid range. The range of valid IPs is 10.0.0.0/24');
    // The network and broadcast addresses are not in the range either.
    expect((await rejection(registry.store(services).create(svc('d', { clusterIP: '10.0.0.255' }), ns))).code).toBe(422);
    expect(await recorded(IP_PREFIX)).toEqual(['10.0.0.5']);
  });

  test('headless and ExternalName services take no IP', async () => {
    const headless = await registry.store(services).create(svc('h', { clusterIP: 'None' }), ns);
    expect(specOf(headless.object).clusterIPs).toEqual(['None']);
    const ext = await registry.store(services).create(svc('e', { type: 'ExternalName', externalName: 'example.com' }), ns);
    expect(specOf(ext.object).clusterIP).toBeUndefined();
    expect(await recorded(IP_PREFIX)).toEqual([]);
    const err = await rejection(registry.store(services).create(svc('x', { type: 'ExternalName', externalName: 'example.com', clusterIP: '10.0.0.9' }), ns));
    expect(err.message).toContain('spec.clusterIPs: Forbidden: may not be set for ExternalName services');
  });

  test('NodePort services get a node port per port; named ports are checked', async () => {
    const { object } = await registry.store(services).create(svc('n', { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81, nodePort: 30080 }] }), ns);
    const [first, second] = specOf(object).ports;
    expect(first!.nodePort).toBeGreaterThanOrEqual(30000);
    expect(first!.nodePort).toBeLessThanOrEqual(32767);
    expect(second!.nodePort).toBe(30080);
    expect(await recorded(NODE_PORT_PREFIX)).toEqual([String(first!.nodePort), '30080'].sort());
    const taken = await rejection(registry.store(services).create(svc('m', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }), ns));
    expect(taken.message).toBe('Service "m" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    const outside = await rejection(registry.store(services).create(svc('o', { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] }), ns));
    expect(outside.message).toBe('Service "o" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767');
    // The refused services hold nothing: neither their IPs nor ports were kept.
    expect((await recorded(IP_PREFIX)).length).toBe(1);
    const forbidden = await rejection(registry.store(services).create(svc('p', { ports: [{ port: 80, nodePort: 30001 }] }), ns));
    expect(forbidden.message).toContain("spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'");
  });

  test('deleting a service gives its IP and node ports back', async () => {
    const { object } = await registry.store(services).create(svc('n', { type: 'NodePort', clusterIP: '10.0.0.7', ports: [{ port: 80, nodePort: 30007 }] }), ns);
    expect(object.metadata.uid).toBeDefined();
    await registry.store(services).delete({ namespace: 'default', name: 'n' });
    expect(await recorded(IP_PREFIX)).toEqual([]);
    expect(await recorded(NODE_PORT_PREFIX)).toEqual([]);
    const again = await registry.store(services).create(svc('again', { type: 'NodePort', clusterIP: '10.0.0.7', ports: [{ port: 80, nodePort: 30007 }] }), ns);
    expect(specOf(again.object).clusterIP).toBe('10.0.0.7');
  });

  test('a replace without clusterIP or nodePort keeps them; type changes take and give back', async () => {
    const created = await registry.store(services).create(svc('s', { type: 'NodePort' }), ns);
    const ip = specOf(created.object).clusterIP!;
    const port = specOf(created.object).ports[0]!.nodePort!;
    const replaced = await registry.store(services).update(svc('s', { type: 'NodePort' }), { namespace: 'default', name: 's' });
    expect(specOf(replaced.object).clusterIP).toBe(ip);
    expect(specOf(replaced.object).ports[0]!.nodePort).toBe(port);
    expect(await recorded(NODE_PORT_PREFIX)).toEqual([String(port)]);

    // NodePort -> ClusterIP: the unchanged node port is dropped and goes back.
    const current = await registry.store(services).get({ namespace: 'default', name: 's' });
    const toClusterIP = await registry.store(services).update({ ...current, spec: { ...(current.spec as object), type: 'ClusterIP' } } as KubeObject, { namespace: 'default', name: 's' });
    expect(specOf(toClusterIP.object).ports[0]!.nodePort).toBeUndefined();
    expect(await recorded(NODE_PORT_PREFIX)).toEqual([]);

    // ClusterIP -> ExternalName: the IP goes back; ExternalName -> ClusterIP takes a new one.
    const cur2 = await registry.store(services).get({ namespace: 'default', name: 's' });
    await registry.store(services).update({ ...cur2, spec: { ...(cur2.spec as object), type: 'ExternalName', externalName: 'example.com' } } as KubeObject, { namespace: 'default', name: 's' });
    expect(await recorded(IP_PREFIX)).toEqual([]);
    const cur3 = await registry.store(services).get({ namespace: 'default', name: 's' });
    const back = await registry.store(services).update({ ...cur3, spec: { ...(cur3.spec as object), type: 'ClusterIP' } } as KubeObject, { namespace: 'default', name: 's' });
    expect(await recorded(IP_PREFIX)).toEqual([specOf(back.object).clusterIP!]);
  });

  test('changing the clusterIP of a service is refused and takes nothing', async () => {
    await registry.store(services).create(svc('s', { clusterIP: '10.0.0.20' }), ns);
    const current = await registry.store(services).get({ namespace: 'default', name: 's' });
    const err = await rejection(
      registry.store(services).update({ ...current, spec: { ...(current.spec as object), clusterIP: '10.0.0.21', clusterIPs: ['10.0.0.21'] } } as KubeObject, { namespace: 'default', name: 's' }),
    );
    expect(err.code).toBe(422);
    expect(await recorded(IP_PREFIX)).toEqual(['10.0.0.20']);
  });

  test('dry run checks a named value but reserves nothing', async () => {
    await registry.store(services).create(svc('a', { clusterIP: '10.0.0.5' }), ns);
    const dry = await registry.store(services).create(svc('b'), { ...ns, dryRun: true });
    expect(specOf(dry.object).clusterIP).toMatch(/^10\.0\.0\./);
    expect(await recorded(IP_PREFIX)).toEqual(['10.0.0.5']);
    expect((await rejection(registry.store(services).create(svc('c', { clusterIP: '10.0.0.5' }), { ...ns, dryRun: true }))).code).toBe(422);
  });

  test('a create that fails at storage gives its IP back', async () => {
    await registry.store(services).create(svc('a', { clusterIP: '10.0.0.5' }), ns);
    const err = await rejection(registry.store(services).create(svc('a', { clusterIP: '10.0.0.6' }), ns));
    expect(err.reason).toBe('AlreadyExists');
    expect(await recorded(IP_PREFIX)).toEqual(['10.0.0.5']);
  });

  test('parallel creates get distinct IPs until the range is full, then InternalError', async () => {
    await storage.close();
    start('10.9.0.0/28'); // 14 usable addresses
    await registry.store(namespaces).create({ metadata: { name: 'default' } });
    const results = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => registry.store(services).create(svc(`s${i}`), ns)));
    const ips = results.flatMap((r) => (r.status === 'fulfilled' ? [specOf(r.value.object).clusterIP!] : []));
    expect(ips.length).toBe(14);
    expect(new Set(ips).size).toBe(14);
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as StatusError] : []));
    expect(failures.map((f) => f.message)).toEqual([
      'Internal error occurred: failed to allocate a serviceIP: range is full',
      'Internal error occurred: failed to allocate a serviceIP: range is full',
    ]);
    expect((await recorded(IP_PREFIX)).length).toBe(14);
  });

  test('repair drops records nobody holds and records values held without one', async () => {
    const { object } = await registry.store(services).create(svc('a', { clusterIP: '10.0.0.5' }), ns);
    // A record left by a crash between allocation and write, and a lost record.
    await storage.create(`${IP_PREFIX}10.0.0.9`, { metadata: { name: '10.0.0.9', uid: 'gone', creationTimestamp: '2020-01-01T00:00:00Z' } } as KubeObject);
    await storage.delete(`${IP_PREFIX}10.0.0.5`);
    const result = await allocator.repair([object]);
    expect(result).toEqual({ dropped: 1, recorded: 1, ipAddresses: 0 });
    expect(await recorded(IP_PREFIX)).toEqual(['10.0.0.5']);
    // A fresh record (a write in flight) is left alone.
    await storage.create(`${IP_PREFIX}10.0.0.10`, { metadata: { name: '10.0.0.10', uid: 'new', creationTimestamp: new Date().toISOString() } } as KubeObject);
    expect(await allocator.repair([object])).toEqual({ dropped: 0, recorded: 0, ipAddresses: 0 });
  });
});

describe('service ranges', () => {
  test('parse like kube-apiserver flags', () => {
    expect(parseIpRange('10.96.0.0/12')).toEqual({ cidr: '10.96.0.0/12', base: 0x0a600000, size: 2 ** 20 });
    expect(parsePortRange('30000-32767')).toEqual({ text: '30000-32767', base: 30000, size: 2768 });
    expect(parsePortRange('30000+100')).toEqual({ text: '30000-30100', base: 30000, size: 101 });
    expect(() => parseIpRange('fd00::/108')).toThrow(/not an IPv4 CIDR/);
    expect(() => parseIpRange('10.0.0.0/31')).toThrow(/between \/12 and \/30/);
    expect(() => parsePortRange('0-10')).toThrow(/1-65535/);
  });
});
