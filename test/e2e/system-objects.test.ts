// The objects kube-apiserver keeps in every cluster beyond namespaces and the
// kubernetes service (server/bootstrap-system.ts), through the real server:
// kube-system/extension-apiserver-authentication, the `kubernetes` ServiceCIDR
// with Ready=True, the identity Lease, and the IPAddress of every allocated
// cluster IP; each ensured across a restart on the same data dir (no duplicates,
// repaired when edited) and the lease renewed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminCredentials, call, type Credentials } from './support/http.js';
import { kubectl, kubectlBinaries, ok } from './support/kubectl.js';
import { eventually, startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']).filter((b) => b.name !== 'kubectl');
const dataDir = mkdtempSync(join(tmpdir(), 'kapi-system-objects-'));
let server: RunningKapi;
let creds: Credentials;

beforeAll(async () => {
  server = await startKapi({ dataDir });
  creds = adminCredentials(server.kubeconfig);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function getJson(path: string): Promise<any> {
  const a = await call(server, creds, { path });
  expect(a.status, `${path}: ${a.body.toString()}`).toBe(200);
  return a.json();
}

async function send(method: string, path: string, body: unknown, contentType = 'application/json'): Promise<number> {
  const a = await call(server, creds, { method, path, body: JSON.stringify(body), headers: { 'content-type': contentType } });
  return a.status;
}

const CM = '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication';
const CIDR = '/apis/networking.k8s.io/v1/servicecidrs/kubernetes';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases';

async function identityLeases(): Promise<any[]> {
  const list = await getJson(`${LEASES}?labelSelector=apiserver.kubernetes.io%2Fidentity%3Dkube-apiserver`);
  return list.items;
}

function pemBlocks(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
}

describe('on a fresh start', () => {
  test('extension-apiserver-authentication holds the client CA under client-ca-file only', async () => {
    const cm = await getJson(CM);
    expect(Object.keys(cm.data)).toEqual(['client-ca-file']);
    const ca = creds.ca.toString();
    expect(pemBlocks(cm.data['client-ca-file']).map((b) => b.replace(/\s/g, ''))).toContain(pemBlocks(ca)[0]!.replace(/\s/g, ''));
  });

  test('the kubernetes ServiceCIDR is the service range, Ready=True', async () => {
    const cidr = await getJson(CIDR);
    expect(cidr.spec).toEqual({ cidrs: ['10.0.0.0/24'] });
    expect(cidr.status.conditions).toEqual([
      { type: 'Ready', status: 'True', lastTransitionTime: expect.stringMatching(/Z$/), reason: '', message: 'Kubernetes default Service CIDR is ready' },
    ]);
  });

  test('one identity lease with kube\'s labels, holder and duration', async () => {
    const leases = await identityLeases();
    expect(leases).toHaveLength(1);
    const lease = leases[0];
    expect(lease.metadata.name).toMatch(/^apiserver-[a-z2-7]{26}$/);
    expect(lease.metadata.labels).toEqual({ 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': expect.any(String) });
    expect(lease.spec.holderIdentity).toMatch(new RegExp(`^${lease.metadata.name}_[0-9a-f-]{36}$`));
    expect(lease.spec.leaseDurationSeconds).toBe(3600);
    expect(lease.spec.renewTime).toMatch(/\.\d{6}Z$/);
  });

  test('the lease is renewed while the server runs', async () => {
    const [before] = await identityLeases();
    await eventually('renewTime moves', async () => (await identityLeases())[0]?.spec.renewTime !== before.spec.renewTime, 20_000);
  }, 30_000);

  test('every allocated cluster IP has its IPAddress, made and removed with the service', async () => {
    const kubernetes = await getJson('/apis/networking.k8s.io/v1/ipaddresses/10.0.0.1');
    expect(kubernetes.metadata.labels).toEqual({ 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' });
    expect(kubernetes.spec).toEqual({ parentRef: { group: '', resource: 'services', namespace: 'default', name: 'kubernetes' } });
    expect(await send('POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } })).toBe(201);
    const ip = (await getJson('/api/v1/namespaces/default/services/web')).spec.clusterIP;
    expect((await getJson(`/apis/networking.k8s.io/v1/ipaddresses/${ip}`)).spec.parentRef).toMatchObject({ namespace: 'default', name: 'web' });
    expect((await call(server, creds, { method: 'DELETE', path: '/api/v1/namespaces/default/services/web' })).status).toBe(200);
    expect((await call(server, creds, { path: `/apis/networking.k8s.io/v1/ipaddresses/${ip}` })).status).toBe(404);
  });

  for (const binary of binaries) {
    test(`${binary.name} get ipaddresses prints NAME PARENTREF`, () => {
      const k = kubectl(binary, server.kubeconfig);
      const lines = ok(k, ['get', 'ipaddresses']).trim().split('\n');
      expect(lines[0]!.split(/\s+/)).toEqual(['NAME', 'PARENTREF']);
      expect(lines.slice(1).map((l) => l.trim().split(/\s+/))).toContainEqual(['10.0.0.1', 'services/default/kubernetes']);
    });

    test(`${binary.name} get servicecidrs prints the range`, () => {
      const k = kubectl(binary, server.kubeconfig);
      const lines = ok(k, ['get', 'servicecidrs']).trim().split('\n');
      expect(lines[0]!.split(/\s+/)).toEqual(['NAME', 'CIDRS', 'AGE']);
      expect(lines[1]!.split(/\s+/).slice(0, 2)).toEqual(['kubernetes', '10.0.0.0/24']);
      expect(ok(k, ['-n', 'kube-system', 'get', 'configmap', 'extension-apiserver-authentication', '-o', 'jsonpath={.data}'])).toContain('client-ca-file');
      expect(ok(k, ['-n', 'kube-system', 'get', 'leases', '-l', 'apiserver.kubernetes.io/identity=kube-apiserver', '-o', 'name'])).toMatch(/^lease.coordination.k8s.io\/apiserver-/);
    });
  }
});

describe('across a restart on the same data dir', () => {
  test('edited and deleted objects are repaired, nothing is duplicated', async () => {
    const cm = await getJson(CM);
    const ourCa = cm.data['client-ca-file'];
    // Someone drops our CA and adds an unparsable line; someone clears the ServiceCIDR's status; the lease goes.
    expect(await send('PUT', CM, { ...cm, data: { 'client-ca-file': 'garbage\n' } })).toBe(200);
    const cidr = await getJson(CIDR);
    expect(await send('PUT', `${CIDR}/status`, { ...cidr, status: {} })).toBe(200);
    const [lease] = await identityLeases();
    expect((await call(server, creds, { method: 'DELETE', path: `${LEASES}/${lease.metadata.name}` })).status).toBe(200);
    // The kubernetes service's IPAddress is deleted, and a stray allocator-managed one appears.
    expect((await call(server, creds, { method: 'DELETE', path: '/apis/networking.k8s.io/v1/ipaddresses/10.0.0.1' })).status).toBe(200);
    const stray = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IPAddress',
      metadata: { name: '10.0.0.200', labels: { 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' } },
      spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'gone' } },
    };
    expect(await send('POST', '/apis/networking.k8s.io/v1/ipaddresses', stray)).toBe(201);

    await server.stop();
    server = await startKapi({ dataDir });
    creds = adminCredentials(server.kubeconfig);

    const repaired = await getJson(CM);
    expect(repaired.data['client-ca-file']).toBe(ourCa);
    expect(repaired.metadata.uid).toBe(cm.metadata.uid);
    const ready = await getJson(CIDR);
    expect(ready.metadata.uid).toBe(cidr.metadata.uid);
    expect(ready.status.conditions).toEqual([expect.objectContaining({ type: 'Ready', status: 'True' })]);
    const leases = await identityLeases();
    expect(leases.map((l) => l.metadata.name)).toEqual([lease.metadata.name]);
    expect(leases[0].spec.holderIdentity).not.toBe(lease.spec.holderIdentity);
    expect((await getJson('/apis/networking.k8s.io/v1/ipaddresses/10.0.0.1')).spec.parentRef).toMatchObject({ namespace: 'default', name: 'kubernetes' });
    expect((await call(server, creds, { path: '/apis/networking.k8s.io/v1/ipaddresses/10.0.0.200' })).status).toBe(404);
    const all = await getJson('/apis/networking.k8s.io/v1/servicecidrs');
    expect(all.items.map((c: { metadata: { name: string } }) => c.metadata.name)).toEqual(['kubernetes']);
  }, 60_000);

  test('a restart with nothing edited writes nothing', async () => {
    const cm = await getJson(CM);
    const cidr = await getJson(CIDR);
    await server.stop();
    server = await startKapi({ dataDir });
    creds = adminCredentials(server.kubeconfig);
    expect((await getJson(CM)).metadata.resourceVersion).toBe(cm.metadata.resourceVersion);
    expect((await getJson(CIDR)).metadata.resourceVersion).toBe(cidr.metadata.resourceVersion);
  }, 60_000);
});
