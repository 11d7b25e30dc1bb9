// --controllers with real kubectl: a controller switched off does nothing while
// the others run (a new namespace gets kube-root-ca.crt but no `default` service
// account without serviceaccount-controller), and an unknown name stops the start
// with kube-controller-manager's one line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { kubectl, kubectlBinaries, ok } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const [binary] = kubectlBinaries(['1.33']);
let server: RunningKapi;

beforeAll(async () => {
  server = await startKapi({ args: ['--controllers=*,-serviceaccount'] });
}, 60_000);
afterAll(async () => server?.stop());

test('a controller switched off by its old name does nothing; the others run', async () => {
  expect(binary).toBeDefined();
  const k = kubectl(binary!, server.kubeconfig);
  ok(k, ['create', 'ns', 'no-sa']);
  const deadline = Date.now() + 10_000;
  // root-ca-certificate-publisher-controller still runs: wait for its object with a bound.
  while (k.run(['-n', 'no-sa', 'get', 'configmap', 'kube-root-ca.crt']).code !== 0) {
    if (Date.now() > deadline) throw new Error('no kube-root-ca.crt in no-sa');
    await new Promise((r) => setTimeout(r, 50));
  }
  const sa = k.run(['-n', 'no-sa', 'get', 'serviceaccount', 'default']);
  expect(sa.code).not.toBe(0);
  expect(sa.stderr).toContain('serviceaccounts "default" not found');
  // namespace-controller still runs: deletion completes.
  expect(ok(k, ['delete', 'ns', 'no-sa'])).toContain('namespace "no-sa" deleted');
});

test('an unknown controller stops the start with one line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-controllers-'));
  try {
    const res = spawnSync(process.execPath, [join(ROOT, 'bin/kapi.js'), '--controllers=*,deployment-controller', `--data-dir=${dir}`], { encoding: 'utf8', timeout: 20_000 });
    expect(res.status).toBe(1);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^kapi: --controllers: "deployment-controller" is not in the list of known controllers \(namespace-controller, /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
