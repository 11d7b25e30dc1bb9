// Two replicas started at the same moment on one etcd, each with its own data dir
// (so its own generated client CA): kube-apiserver's system objects come out once
// each — one extension-apiserver-authentication ConfigMap trusting both CAs, one
// `kubernetes` ServiceCIDR with one Ready condition, one IPAddress for the
// kubernetes service's IP, and the identity lease of the host (both replicas run
// on one host, so, as in kube, they share its name).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { describeWithEtcd } from '../support/etcd.js';
import { adminCredentials, call } from './support/http.js';
import { freePort, startKapi, type RunningKapi } from './support/server.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function pemBodies(text: string): string[] {
  return (text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []).map((b) => b.replace(/\s/g, ''));
}

describeWithEtcd('system objects with two replicas on one etcd', (ctx) => {
  test('each object exists once and trusts both replicas', async () => {
    const prefix = `/system-objects-${Date.now()}`;
    const dataDirs = [0, 1].map(() => {
      const dir = mkdtempSync(join(tmpdir(), 'kapi-system-etcd-'));
      dirs.push(dir);
      return dir;
    });
    const ports = [await freePort(), await freePort()];
    const args = ['--storage-backend=etcd3', `--etcd-servers=${ctx.etcd.endpoint}`, `--etcd-prefix=${prefix}`];
    const replicas: RunningKapi[] = await Promise.all(dataDirs.map((dataDir, i) => startKapi({ dataDir, port: ports[i]!, args })));
    try {
      const [a, b] = replicas as [RunningKapi, RunningKapi];
      const credsA = adminCredentials(a.kubeconfig);
      const credsB = adminCredentials(b.kubeconfig);
      const get = async (path: string): Promise<any> => {
        const answer = await call(a, credsA, { path });
        expect(answer.status, `${path}: ${answer.body.toString()}`).toBe(200);
        return answer.json();
      };
      const cm = await get('/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication');
      const trusted = pemBodies(cm.data['client-ca-file']);
      for (const creds of [credsA, credsB]) expect(trusted).toContain(pemBodies(creds.ca.toString())[0]);
      expect(new Set(trusted).size).toBe(trusted.length);

      const cidrs = await get('/apis/networking.k8s.io/v1/servicecidrs');
      expect(cidrs.items.map((c: { metadata: { name: string } }) => c.metadata.name)).toEqual(['kubernetes']);
      expect(cidrs.items[0].status.conditions).toHaveLength(1);

      const ips = await get('/apis/networking.k8s.io/v1/ipaddresses');
      expect(ips.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['10.0.0.1']);

      const leases = await get('/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?labelSelector=apiserver.kubernetes.io%2Fidentity%3Dkube-apiserver');
      expect(leases.items).toHaveLength(1);
    } finally {
      await Promise.all(replicas.map((r) => r.stop()));
    }
  }, 90_000);
});
