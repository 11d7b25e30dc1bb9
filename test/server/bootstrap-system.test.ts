// kube-apiserver's system objects (server/bootstrap-system.ts) against in-memory
// storage: the authentication ConfigMap's CA bundle merge, the kubernetes
// ServiceCIDR and its Ready condition, the identity lease's name, labels and
// renewals; each ensured again (nothing written), repaired, and raced by replicas.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { configMaps } from '../../src/apis/core/v1/config-maps.js';
import { namespaces } from '../../src/apis/core/v1/namespaces.js';
import { leases } from '../../src/apis/coordination/v1/leases.js';
import { serviceCIDRs } from '../../src/apis/networking/v1/service-cidrs.js';
import { createRegistry, type Registry } from '../../src/registry/registry.js';
import type { KubeObject } from '../../src/schema/object.js';
import { bootstrapNamespaces } from '../../src/server/bootstrap.js';
import {
  AUTHENTICATION_CONFIG_MAP,
  apiserverIdentity,
  bootstrapSystemObjects,
  collectExpiredIdentityLeases,
  mergeCaBundles,
  pemCertificates,
  startIdentityLease,
} from '../../src/server/bootstrap-system.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import type { Storage } from '../../src/storage/storage.js';

const quiet = { info: () => undefined, warn: () => undefined };
const noSleep = { sleep: async () => undefined };
const pem = (body: string) => `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
const CA_A = pem('QUFBQQ==');
const CA_B = pem('QkJCQg==');

let storage: Storage;
let registry: Registry;

beforeEach(async () => {
  storage = createObjectStore({ kv: openMemoryKv() });
  registry = createRegistry({ storage, resources: [namespaces, configMaps, serviceCIDRs, leases], admission: createAdmissionChain(), clock: () => new Date() });
  await bootstrapNamespaces(registry, noSleep);
});
afterEach(async () => storage.close());

const ensure = (clientCaPem = CA_A, serviceCIDR = '10.0.0.0/24') => bootstrapSystemObjects(registry, { clientCaPem, serviceCIDR, logger: quiet, ensure: noSleep });
const getCm = () => registry.store(configMaps).get(AUTHENTICATION_CONFIG_MAP) as Promise<KubeObject & { data: Record<string, string> }>;
const getCidr = () => registry.store(serviceCIDRs).get({ name: 'kubernetes' }) as Promise<KubeObject & { spec: { cidrs: string[] }; status: { conditions: Array<Record<string, unknown>> } }>;

describe('CA bundles', () => {
  const cases: ReadonlyArray<{ name: string; stored: string; ours: string; want: string }> = [
    { name: 'nothing stored', stored: '', ours: CA_A, want: CA_A },
    { name: 'ours already there', stored: CA_A, ours: CA_A, want: CA_A },
    { name: 'another replica\'s kept, ours added', stored: CA_B, ours: CA_A, want: CA_B + CA_A },
    { name: 'garbage dropped', stored: `junk\n${CA_B}more junk`, ours: CA_A, want: CA_B + CA_A },
    { name: 'whitespace differences are one certificate', stored: CA_A.replace('\n', '\r\n  '), ours: CA_A, want: CA_A },
  ];
  for (const c of cases) test(c.name, () => expect(mergeCaBundles(c.stored, c.ours)).toBe(c.want));

  test('a long certificate is wrapped at 64 columns', () => {
    const [block] = pemCertificates(pem('A'.repeat(100)));
    expect(block!.split('\n').map((l) => l.length)).toEqual([27, 64, 36, 25, 0]);
  });
});

describe('system objects', () => {
  test('a fresh start creates them; a second start writes nothing', async () => {
    expect(await ensure()).toEqual({ authentication: 'created', serviceCIDR: 'created' });
    const cm = await getCm();
    expect(cm.data).toEqual({ 'client-ca-file': CA_A });
    const cidr = await getCidr();
    expect(cidr.spec).toEqual({ cidrs: ['10.0.0.0/24'] });
    expect(cidr.status.conditions).toEqual([
      { type: 'Ready', status: 'True', lastTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), reason: '', message: 'Kubernetes default Service CIDR is ready' },
    ]);
    expect(await ensure()).toEqual({ authentication: 'unchanged', serviceCIDR: 'unchanged' });
    expect((await getCm()).metadata.resourceVersion).toBe(cm.metadata.resourceVersion);
    expect((await getCidr()).metadata.resourceVersion).toBe(cidr.metadata.resourceVersion);
  });

  test('an edited bundle and a cleared or Unknown condition are repaired; a False one is left', async () => {
    await ensure();
    const cm = await getCm();
    await registry.store(configMaps).update({ ...cm, data: { 'client-ca-file': 'junk' } } as KubeObject, AUTHENTICATION_CONFIG_MAP);
    const status = registry.store(serviceCIDRs).subresource('status')!;
    await status.update({ ...(await getCidr()), status: { conditions: [{ type: 'Ready', status: 'Unknown', lastTransitionTime: '2020-01-01T00:00:00Z', reason: 'x', message: '' }] } } as KubeObject, { name: 'kubernetes' });
    expect(await ensure()).toEqual({ authentication: 'repaired', serviceCIDR: 'unchanged' });
    expect((await getCm()).data['client-ca-file']).toBe(CA_A);
    expect((await getCidr()).status.conditions).toEqual([expect.objectContaining({ type: 'Ready', status: 'True' })]);

    await status.update({ ...(await getCidr()), status: { conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2020-01-01T00:00:00Z', reason: 'Terminating', message: 'going' }] } } as KubeObject, { name: 'kubernetes' });
    await ensure();
    expect((await getCidr()).status.conditions).toEqual([expect.objectContaining({ status: 'False', reason: 'Terminating' })]);
  });

  test('a ServiceCIDR of another range is left alone and gets no condition', async () => {
    await ensure(CA_A, '10.0.0.0/24');
    const warnings: unknown[] = [];
    await bootstrapSystemObjects(registry, { clientCaPem: CA_A, serviceCIDR: '10.9.0.0/16', logger: { info: () => undefined, warn: (o) => void warnings.push(o) }, ensure: noSleep });
    expect((await getCidr()).spec.cidrs).toEqual(['10.0.0.0/24']);
    expect(warnings).toHaveLength(1);
  });

  test('replicas with different CAs racing end with one of each object, trusting both', async () => {
    const results = await Promise.all([ensure(CA_A), ensure(CA_B), ensure(CA_A), ensure(CA_B)]);
    expect(results.filter((r) => r.serviceCIDR === 'created')).toHaveLength(1);
    expect(pemCertificates((await getCm()).data['client-ca-file']).sort()).toEqual([CA_A, CA_B].sort());
    expect((await getCidr()).status.conditions).toHaveLength(1);
    expect((await registry.store(serviceCIDRs).list()).items).toHaveLength(1);
  });
});

describe('identity lease', () => {
  test('kube\'s name: apiserver- and the base32 of the host name\'s sha256', () => {
    expect(apiserverIdentity('node-1')).toBe('apiserver-gwlrxzxjxmbevckvql7a4qxaja');
  });

  test('created with kube\'s labels, holder and duration; renewed; made again when deleted', async () => {
    let now = new Date('2026-01-01T00:00:00.123Z');
    const lease = await startIdentityLease(registry, { logger: quiet, hostname: 'node-1', now: () => now, renewMs: 10, ensure: noSleep });
    try {
      const at = { namespace: 'kube-system', name: lease.name };
      const stored = (await registry.store(leases).get(at)) as KubeObject & { spec: Record<string, unknown> };
      expect(stored.metadata.labels).toEqual({ 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': 'node-1' });
      expect(stored.spec).toEqual({ holderIdentity: lease.holderIdentity, leaseDurationSeconds: 3600, renewTime: '2026-01-01T00:00:00.123000Z' });
      expect(lease.holderIdentity).toMatch(/^apiserver-gwlrxzxjxmbevckvql7a4qxaja_[0-9a-f-]{36}$/);

      now = new Date('2026-01-01T00:00:10.000Z');
      await expect.poll(async () => ((await registry.store(leases).get(at)) as KubeObject & { spec: { renewTime: string } }).spec.renewTime, { timeout: 5000 }).toBe('2026-01-01T00:00:10.000000Z');
      await registry.store(leases).delete(at);
      await expect.poll(async () => (await registry.store(leases).list({ namespace: 'kube-system' })).items.length, { timeout: 5000 }).toBe(1);
    } finally {
      lease.stop();
    }
  });

  test('the leases of servers gone longer than their duration are collected; live ones and others stay', async () => {
    const store = registry.store(leases);
    const make = (name: string, renewTime: string, labels: Record<string, string> = { 'apiserver.kubernetes.io/identity': 'kube-apiserver' }) =>
      store.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, labels }, spec: { holderIdentity: `${name}_x`, leaseDurationSeconds: 3600, renewTime } } as KubeObject, { namespace: 'kube-system' });
    await make('apiserver-gone', '2026-01-01T00:00:00.000000Z');
    await make('apiserver-live', '2026-01-01T01:30:00.000000Z');
    await make('apiserver-self', '2020-01-01T00:00:00.000000Z');
    await make('not-an-apiserver', '2020-01-01T00:00:00.000000Z', {});
    const deleted = await collectExpiredIdentityLeases(registry, { keep: 'apiserver-self', now: new Date('2026-01-01T02:00:00Z') });
    expect(deleted).toEqual(['apiserver-gone']);
    expect((await store.list({ namespace: 'kube-system' })).items.map((l) => l.metadata.name).sort()).toEqual(['apiserver-live', 'apiserver-self', 'not-an-apiserver']);
  });
});
