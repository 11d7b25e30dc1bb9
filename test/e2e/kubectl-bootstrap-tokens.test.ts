// Bootstrap tokens with real kubectl (issue #13 part 2): a kubeadm-style token
// Secret in kube-system lets `<id>.<secret>` authenticate as system:bootstrap:<id>
// while it is valid; an expired, wrong or disallowed token is 401.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { kubectl, kubectlBinaries, ok } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
const dir = mkdtempSync(join(tmpdir(), 'kapi-bootstrap-'));
let server: RunningKapi;

function tokenSecret(id: string, secret: string, extra: Record<string, string> = {}): string {
  return yaml.dump({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' },
    type: 'bootstrap.kubernetes.io/token',
    stringData: { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true', ...extra },
  });
}

function kubeconfigWithToken(token: string, name: string): string {
  const cfg = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { users: { user: Record<string, string> }[] };
  cfg.users[0]!.user = { token };
  const path = join(dir, `kubeconfig-${name}`);
  writeFileSync(path, yaml.dump(cfg), { mode: 0o600 });
  return path;
}

beforeAll(async () => {
  server = await startKapi({ args: ['--enable-bootstrap-token-auth'] });
  const admin = kubectl(binaries[0]!, server.kubeconfig);
  ok(admin, ['apply', '-f', '-'], tokenSecret('abcdef', '0123456789abcdef', { 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token', expiration: '2099-01-01T00:00:00Z' }));
  ok(admin, ['apply', '-f', '-'], tokenSecret('expird', '0123456789abcdef', { expiration: '2001-01-01T00:00:00Z' }));
  ok(admin, ['apply', '-f', '-'], tokenSecret('nouse0', '0123456789abcdef', { 'usage-bootstrap-authentication': 'false' }));
}, 60_000);
afterAll(async () => server?.stop());

for (const binary of binaries) {
  test(`${binary.name}: a valid bootstrap token is system:bootstrap:<id>`, () => {
    const k = kubectl(binary, kubeconfigWithToken('abcdef.0123456789abcdef', `good-${binary.name}`));
    const who = JSON.parse(ok(k, ['auth', 'whoami', '-o', 'json'])).status.userInfo;
    expect(who).toEqual({ username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'] });
  });

  test(`${binary.name}: expired, wrong or disallowed tokens are 401`, () => {
    for (const [name, token] of [['expired', 'expird.0123456789abcdef'], ['wrong', 'abcdef.0123456789abcdee'], ['nouse', 'nouse0.0123456789abcdef']] as const) {
      const res = kubectl(binary, kubeconfigWithToken(token, `${name}-${binary.name}`)).run(['auth', 'whoami', '-o', 'json']);
      expect(res.code, name).not.toBe(0);
      expect(res.stderr, name).toMatch(/Unauthorized|provide credentials/);
    }
  });
}

test('deleting the Secret revokes the token', () => {
  const admin = kubectl(binaries[0]!, server.kubeconfig);
  ok(admin, ['apply', '-f', '-'], tokenSecret('gone00', '0123456789abcdef'));
  const k = kubectl(binaries[0]!, kubeconfigWithToken('gone00.0123456789abcdef', 'gone'));
  expect(JSON.parse(ok(k, ['auth', 'whoami', '-o', 'json'])).status.userInfo.username).toBe('system:bootstrap:gone00');
  ok(admin, ['-n', 'kube-system', 'delete', 'secret', 'bootstrap-token-gone00']);
  expect(k.run(['auth', 'whoami', '-o', 'json']).code).not.toBe(0);
});
