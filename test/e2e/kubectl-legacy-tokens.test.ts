// Legacy service-account token Secrets with real kubectl (1.27 and 1.33): a
// kubernetes.io/service-account-token Secret applied with kubectl is filled by the
// serviceaccount-token-controller (token, ca.crt, namespace); its token as the
// only credential of a kubeconfig is the account for `kubectl auth whoami`; the
// Secret gets the kubernetes.io/legacy-token-last-used label; deleting the account
// deletes the Secret and the token is 401. Also: --service-account-lookup=false,
// a restart on the same data dir, hostile tokens (401 Status, nothing written) and
// hostile token Secrets (deleted by the controller, the server unharmed).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { eventually, startKapi, type RunningKapi } from './support/server.js';
import { adminCredentials, call } from './support/http.js';

const binaries = kubectlBinaries(['1.27', '1.33']).filter((b) => b.name !== 'kubectl');
/** kubectl's words for a 401: from a request, or from discovery before it. */
const UNAUTHORIZED = /Unauthorized|the server has asked for the client to provide credentials/;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kapi-legacy-tokens-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** A kubeconfig whose only credential is `token`. */
function tokenKubeconfig(server: RunningKapi, token: string): string {
  const admin = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { clusters: { cluster: Record<string, string> }[] };
  const cluster = admin.clusters[0]!.cluster;
  const file = join(dir, `legacy-${++files}.kubeconfig`);
  writeFileSync(
    file,
    yaml.dump({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'kapi', cluster: { server: `https://127.0.0.1:${server.port}`, 'certificate-authority-data': cluster['certificate-authority-data'] } }],
      users: [{ name: 'legacy', user: { token } }],
      contexts: [{ name: 'legacy', context: { cluster: 'kapi', user: 'legacy' } }],
      'current-context': 'legacy',
    }),
  );
  return file;
}

const tokenSecretYaml = (ns: string, name: string, account: string) => `apiVersion: v1
kind: Secret
metadata:
  name: ${name}
  namespace: ${ns}
  annotations:
    kubernetes.io/service-account.name: ${JSON.stringify(account)}
type: kubernetes.io/service-account-token
`;

/** Applies a token Secret and waits (bounded) for the controller's token; answers it decoded. */
async function legacyToken(admin: Kubectl, ns: string, name: string, account: string): Promise<string> {
  ok(admin, ['apply', '-f', '-'], tokenSecretYaml(ns, name, account));
  let token = '';
  await eventually(`data.token of ${ns}/${name}`, () => {
    token = admin.run(['-n', ns, 'get', 'secret', name, '-o', 'jsonpath={.data.token}']).stdout.trim();
    return token !== '';
  });
  return Buffer.from(token, 'base64').toString('utf8');
}

function whoami(k: Kubectl): { username: string; uid: string; groups: string[]; extra?: unknown } {
  return JSON.parse(ok(k, ['auth', 'whoami', '-o', 'json'])).status.userInfo;
}

function refused(k: Kubectl): void {
  const res = k.run(['get', 'ns']);
  expect(res.code).not.toBe(0);
  expect(res.stderr).toMatch(UNAUTHORIZED);
}

function lastUsed(admin: Kubectl, ns: string, name: string): string {
  return admin.run(['-n', ns, 'get', 'secret', name, '-o', 'jsonpath={.metadata.labels.kubernetes\\.io/legacy-token-last-used}']).stdout.trim();
}

/** Today's and tomorrow's UTC dates: the label may say either around midnight. */
function todayish(): string[] {
  const now = Date.now();
  return [new Date(now).toISOString().slice(0, 10), new Date(now + 86_400_000).toISOString().slice(0, 10)];
}

test('kubectl 1.27 and 1.33 are present', () => {
  expect(binaries.map((b) => b.name).sort()).toEqual(['kubectl.1.27', 'kubectl.1.33']);
});

describe('legacy token Secrets (default --service-account-lookup)', () => {
  let server: RunningKapi;
  const dataDir = () => join(dir, 'data');
  beforeAll(async () => {
    server = await startKapi({ dataDir: dataDir() });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  for (const binary of binaries) {
    test(`${binary.name}: filled by the controller, the account for auth whoami, labelled; gone with its account`, async () => {
      const admin = kubectl(binary, server.kubeconfig);
      const ns = `legacy-${binary.name.replace(/\W/g, '')}`;
      ok(admin, ['create', 'ns', ns]);
      ok(admin, ['-n', ns, 'create', 'serviceaccount', 'bot']);
      const token = await legacyToken(admin, ns, 'bot-token', 'bot');
      const secret = JSON.parse(ok(admin, ['-n', ns, 'get', 'secret', 'bot-token', '-o', 'json']));
      const uid = ok(admin, ['-n', ns, 'get', 'sa', 'bot', '-o', 'jsonpath={.metadata.uid}']);
      expect(Object.keys(secret.data).sort()).toEqual(['ca.crt', 'namespace', 'token']);
      expect(secret.data['ca.crt']).toBe(adminCredentials(server.kubeconfig).ca.toString('base64'));
      expect(Buffer.from(secret.data.namespace, 'base64').toString()).toBe(ns);
      expect(secret.metadata.annotations['kubernetes.io/service-account.uid']).toBe(uid);
      expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).toMatchObject({ iss: 'kubernetes/serviceaccount', sub: `system:serviceaccount:${ns}:bot` });
      expect(lastUsed(admin, ns, 'bot-token')).toBe('');

      const as = kubectl(binary, tokenKubeconfig(server, token));
      expect(whoami(as)).toEqual({ username: `system:serviceaccount:${ns}:bot`, uid, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'] });
      expect(todayish()).toContain(lastUsed(admin, ns, 'bot-token'));
      // Authenticated is not authorized (RBAC): a view binding lets the account read itself.
      ok(admin, ['-n', ns, 'create', 'rolebinding', 'bot-view', '--clusterrole=view', `--serviceaccount=${ns}:bot`]);
      expect(ok(as, ['-n', ns, 'get', 'sa', 'bot', '-o', 'name'])).toBe('serviceaccount/bot\n');

      ok(admin, ['-n', ns, 'delete', 'sa', 'bot']);
      await eventually('the token Secret to be deleted with its account', () => admin.run(['-n', ns, 'get', 'secret', 'bot-token']).stderr.includes('NotFound'));
      refused(as);
    });
  }

  test('hostile bearer tokens: 401 Status, and the Secret they imitate gets no label', async () => {
    const admin = kubectl(binaries[0]!, server.kubeconfig);
    ok(admin, ['create', 'ns', 'hostile']);
    ok(admin, ['-n', 'hostile', 'create', 'serviceaccount', 'bot']);
    const token = await legacyToken(admin, 'hostile', 'bot-token', 'bot');
    const [h, p, s] = token.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, 'kubernetes.io/serviceaccount/service-account.name': 'admin' })).toString('base64url');
    const bad = {
      tampered: `${h}.${forged}.${s}`,
      'bad signature': `${h}.${p}.${s.slice(0, -4)}AAAA`,
      'alg none': `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`,
      oversized: `${h}.${Buffer.from(JSON.stringify({ ...payload, pad: 'x'.repeat(8_000) })).toString('base64url')}.${s}`,
      garbage: 'not-a-token',
      'proto claims': `${h}.${Buffer.from('{"iss":"kubernetes/serviceaccount","__proto__":{"sub":"system:serviceaccount:hostile:bot"}}').toString('base64url')}.${s}`,
    };
    const { ca } = adminCredentials(server.kubeconfig);
    for (const [name, t] of Object.entries(bad)) {
      const res = await call(server, { ca }, { path: '/api/v1/namespaces', headers: { authorization: `Bearer ${t}` } });
      expect(res.status, name).toBe(401);
      expect(res.json(), name).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    }
    expect(lastUsed(admin, 'hostile', 'bot-token')).toBe('');
    // The real token still works after all that, and only then is the Secret labelled
    // (discovery: what every authenticated user may read under RBAC).
    const res = await call(server, { ca }, { path: '/api', headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(todayish()).toContain(lastUsed(admin, 'hostile', 'bot-token'));
  });

  test('hostile token Secrets (huge, garbage, __proto__ account names) are deleted by the controller; the server is unharmed', async () => {
    const admin = kubectl(binaries[0]!, server.kubeconfig);
    ok(admin, ['create', 'ns', 'hostile-secrets']);
    const names = { huge: 'a'.repeat(60_000), garbage: '../../etc/passwd', proto: '__proto__', ctor: 'constructor' };
    for (const [name, account] of Object.entries(names)) ok(admin, ['apply', '-f', '-'], tokenSecretYaml('hostile-secrets', name, account));
    await eventually('the hostile Secrets to be deleted', () => ok(admin, ['-n', 'hostile-secrets', 'get', 'secrets', '-o', 'name']).trim() === '');
    // Without the required annotation kube's validation refuses the Secret.
    const missing = admin.run(['apply', '-f', '-'], { input: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\n  namespace: hostile-secrets\ntype: kubernetes.io/service-account-token\n' });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('metadata.annotations[kubernetes.io/service-account.name]: Required value');
    expect(ok(admin, ['get', '--raw', '/readyz'])).toBe('ok');
  });

  test('a restart on the same data dir keeps legacy tokens valid', async () => {
    const admin = kubectl(binaries[binaries.length - 1]!, server.kubeconfig);
    ok(admin, ['create', 'ns', 'restart']);
    ok(admin, ['-n', 'restart', 'create', 'serviceaccount', 'bot']);
    const token = await legacyToken(admin, 'restart', 'bot-token', 'bot');
    await server.stop();
    server = await startKapi({ dataDir: dataDir() });
    const as = kubectl(binaries[binaries.length - 1]!, tokenKubeconfig(server, token));
    expect(whoami(as).username).toBe('system:serviceaccount:restart:bot');
    // The controller left the filled Secret alone on the second start.
    const again = kubectl(binaries[binaries.length - 1]!, server.kubeconfig);
    expect(Buffer.from(again.run(['-n', 'restart', 'get', 'secret', 'bot-token', '-o', 'jsonpath={.data.token}']).stdout, 'base64').toString()).toBe(token);
  }, 60_000);
});

describe('--service-account-lookup=false', () => {
  let server: RunningKapi;
  beforeAll(async () => {
    server = await startKapi({ args: ['--service-account-lookup=false'] });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  test('a legacy token is not checked against its Secret or account (and labels nothing); bound tokens still are', async () => {
    const binary = binaries[binaries.length - 1]!;
    const admin = kubectl(binary, server.kubeconfig);
    ok(admin, ['create', 'ns', 'nolookup']);
    ok(admin, ['-n', 'nolookup', 'create', 'serviceaccount', 'bot']);
    const token = await legacyToken(admin, 'nolookup', 'bot-token', 'bot');
    const bound = ok(admin, ['-n', 'nolookup', 'create', 'token', 'bot']).trim();
    const as = kubectl(binary, tokenKubeconfig(server, token));
    expect(whoami(as).username).toBe('system:serviceaccount:nolookup:bot');
    expect(lastUsed(admin, 'nolookup', 'bot-token')).toBe('');
    ok(admin, ['-n', 'nolookup', 'delete', 'sa', 'bot']);
    await eventually('the token Secret to be deleted with its account', () => admin.run(['-n', 'nolookup', 'get', 'secret', 'bot-token']).stderr.includes('NotFound'));
    // kube-apiserver with lookup off: the token outlives its Secret and account.
    expect(whoami(as).username).toBe('system:serviceaccount:nolookup:bot');
    refused(kubectl(binary, tokenKubeconfig(server, bound)));
  });
});
