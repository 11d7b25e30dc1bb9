// kapi on etcd: the same kubectl steps work, and readiness follows the backend —
// /readyz fails while etcd is down and recovers when it is back.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { describeWithEtcd } from '../support/etcd.js';
import { kubectl, kubectlBinaries, type Kubectl } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

/** Polls `check` until it returns true, failing after `ms`. */
async function eventually(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeWithEtcd('kapi on etcd3', (ctx) => {
  let server: RunningKapi;
  let k: Kubectl;
  beforeAll(async () => {
    server = await startKapi({ args: ['--storage-backend=etcd3', `--etcd-servers=${ctx.etcd.endpoint}`, '--etcd-prefix=/kapi-e2e'] });
    k = kubectl(kubectlBinaries([])[0]!, server.kubeconfig);
  }, 60_000);
  afterAll(async () => server?.stop());

  test('kubectl works against the etcd backend', () => {
    expect(k.run(['get', 'ns', 'kube-system', '-o', 'name']).stdout.trim()).toBe('namespace/kube-system');
    const created = k.run(['-n', 'default', 'create', 'configmap', 'on-etcd', '--from-literal=a=b']);
    expect(created.stderr).toBe('');
    expect(JSON.parse(k.run(['-n', 'default', 'get', 'cm', 'on-etcd', '-o', 'json']).stdout).data).toEqual({ a: 'b' });
  });

  test('readyz fails while etcd is down and recovers after it restarts', async () => {
    const ready = () => k.run(['get', '--raw', '/readyz?verbose']);
    expect(ready().stdout).toContain('[+]etcd ok');
    await ctx.etcd.pause();
    try {
      await eventually(() => {
        // kubectl prints a 500's body inside its error message on stderr.
        const res = ready();
        return res.code !== 0 && `${res.stdout}${res.stderr}`.includes('[-]etcd failed');
      }, 30_000);
      // Liveness does not depend on the backend: a down etcd must not get kapi restarted.
      expect(k.run(['get', '--raw', '/livez']).stdout).toBe('ok');
    } finally {
      await ctx.etcd.resume();
    }
    await eventually(() => ready().code === 0, 60_000);
    expect(JSON.parse(k.run(['-n', 'default', 'get', 'cm', 'on-etcd', '-o', 'json']).stdout).data).toEqual({ a: 'b' });
  }, 120_000);
});
