// `kubectl auth whoami` for every authentication method of issue #13, through
// kubectl 1.27 (SelfSubjectReview v1beta1) and 1.33 (v1), each with a kubeconfig
// whose only credential is the method's: a client certificate (with kube's uid
// subject attribute), a --token-auth-file token, a bootstrap token, `kubectl
// create token` output (plain, bound to a Pod, bound to a Node), a legacy token
// Secret, and an OIDC id_token (the `oidc` auth-provider entry). Each answer is
// compared whole: user, uid, groups and extra exactly as kube-apiserver 1.36
// builds them (credential ids, the authentication.kubernetes.io/* extras of
// service-account tokens). The README's `user.exec` entry for `kapi credential`
// runs as written; impersonation headers and TokenReview answer the same way.
// The OIDC issuer runs in this process, so kubectl runs asynchronously.
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { decodeJwt } from 'jose';
import { issueCertificate, type CertificateAndKey } from '../../src/auth/pki/issue.js';
import { kubectlBinaries, kubectlAsync } from './support/kubectl.js';
import { adminCredentials, call, type Credentials } from './support/http.js';
import { eventually, startKapi, type RunningKapi } from './support/server.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc-issuer.js';

const ROOT = resolve(import.meta.dirname, '../..');
const binaries = kubectlBinaries(['1.27', '1.33']).filter((b) => b.name !== 'kubectl');
const NS = 'whoami';
const STATIC_TOKEN = 'tok-whoami-alice-0123456789';
const BOOTSTRAP_TOKEN = 'whoami.0123456789abcdef';
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id';
const now = () => Math.floor(Date.now() / 1000);

let server: RunningKapi;
let issuer: TestIssuer;
let dir: string;
let admin: Required<Credentials>;

interface UserInfo {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

async function adminCall(method: string, path: string, body?: unknown): Promise<any> {
  const res = await call(server, admin, {
    method,
    path,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  expect(res.status, `${method} ${path}: ${res.body.toString()}`).toBeLessThan(300);
  return res.json();
}


let files = 0;
/** The admin kubeconfig's cluster with `user` as the only credential. */
function kubeconfigWith(user: Record<string, unknown>): string {
  const cfg = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { users: { user: Record<string, unknown> }[] };
  cfg.users[0]!.user = user;
  const path = join(dir, `kubeconfig-${++files}`);
  writeFileSync(path, yaml.dump(cfg), { mode: 0o600 });
  return path;
}

async function whoami(binary: { name: string; path: string }, user: Record<string, unknown>): Promise<UserInfo> {
  const res = await kubectlAsync(binary, kubeconfigWith(user), ['auth', 'whoami', '-o', 'json']);
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);
  const review = JSON.parse(res.stdout);
  expect(review.apiVersion).toBe(binary.name === 'kubectl.1.27' ? 'authentication.k8s.io/v1beta1' : 'authentication.k8s.io/v1');
  return review.status.userInfo as UserInfo;
}

async function tokenRequest(account: string, boundObjectRef?: { kind: string; apiVersion: string; name: string }): Promise<string> {
  const res = await adminCall('POST', `/api/v1/namespaces/${NS}/serviceaccounts/${account}/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: { expirationSeconds: 3600, ...(boundObjectRef === undefined ? {} : { boundObjectRef }) },
  });
  return res.status.token as string;
}

const jtiOf = (token: string): string => decodeJwt(token).jti as string;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const certUser = (c: CertificateAndKey) => ({ 'client-certificate-data': b64(c.certPem), 'client-key-data': b64(c.keyPem) });
const fingerprint = (c: CertificateAndKey) => `X509SHA256=${createHash('sha256').update(new X509Certificate(c.certPem).raw).digest('hex')}`;
const SA_GROUPS = ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated'];

interface Fixture {
  cert: CertificateAndKey;
  certNoUid: CertificateAndKey;
  certTwoUids: CertificateAndKey;
  botUid: string;
  podUid: string;
  nodeUid: string;
  legacyToken: string;
}
let fx: Fixture;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kapi-whoami-'));
  issuer = await startTestIssuer();
  await issuer.addKey('RS256');
  writeFileSync(join(dir, 'issuer-ca.crt'), issuer.caPem);
  writeFileSync(join(dir, 'tokens.csv'), `${STATIC_TOKEN},alice,u-alice,"dev,ops"\n`);
  server = await startKapi({
    args: [
      `--token-auth-file=${join(dir, 'tokens.csv')}`,
      '--enable-bootstrap-token-auth',
      `--oidc-issuer-url=${issuer.url}`,
      '--oidc-client-id=kapi',
      '--oidc-username-prefix=oidc:',
      '--oidc-groups-claim=groups',
      '--oidc-groups-prefix=oidc:',
      `--oidc-ca-file=${join(dir, 'issuer-ca.crt')}`,
    ],
  });
  admin = adminCredentials(server.kubeconfig);

  await adminCall('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  const bot = await adminCall('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot' } });
  const pod = await adminCall('POST', `/api/v1/namespaces/${NS}/pods`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web' },
    spec: { serviceAccountName: 'bot', containers: [{ name: 'c', image: 'nginx' }] },
  });
  const node = await adminCall('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
  await adminCall('POST', '/api/v1/namespaces/kube-system/secrets', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'bootstrap-token-whoami', namespace: 'kube-system' },
    type: 'bootstrap.kubernetes.io/token',
    stringData: { 'token-id': 'whoami', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', 'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:alpha,system:bootstrappers:worker' },
  });
  await adminCall('POST', `/api/v1/namespaces/${NS}/secrets`, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'bot-token', annotations: { 'kubernetes.io/service-account.name': 'bot' } },
    type: 'kubernetes.io/service-account-token',
  });
  let legacyToken = '';
  await eventually('the token controller fills bot-token', async () => {
    const secret = await adminCall('GET', `/api/v1/namespaces/${NS}/secrets/bot-token`);
    legacyToken = Buffer.from(secret.data?.token ?? '', 'base64').toString('utf8');
    return legacyToken !== '';
  });

  const pki = join(server.dataDir, 'pki');
  const ca = { certPem: readFileSync(join(pki, 'ca.crt'), 'utf8'), keyPem: readFileSync(join(pki, 'ca.key'), 'utf8') };
  const client = (uids: string[]) => issueCertificate({ ca, commonName: 'jane', organizations: ['dev', 'qa'], uids, usage: 'client', validityDays: 1, clock: () => new Date() });
  fx = {
    cert: await client(['u-jane']),
    certNoUid: await client([]),
    certTwoUids: await client(['u-1', 'u-2']),
    botUid: bot.metadata.uid,
    podUid: pod.metadata.uid,
    nodeUid: node.metadata.uid,
    legacyToken,
  };
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await issuer?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

test('kubectl 1.27 and 1.33 are present', () => {
  expect(binaries.map((b) => b.name).sort()).toEqual(['kubectl.1.27', 'kubectl.1.33']);
});

for (const binary of binaries) {
  describe(`${binary.name} auth whoami`, () => {
    test('a client certificate: CN, O as groups, the uid attribute, the certificate fingerprint as credential id', async () => {
      expect(await whoami(binary, certUser(fx.cert))).toEqual({
        username: 'jane',
        uid: 'u-jane',
        groups: ['dev', 'qa', 'system:authenticated'],
        extra: { [CREDENTIAL_ID]: [fingerprint(fx.cert)] },
      });
      expect(await whoami(binary, certUser(fx.certNoUid))).toEqual({
        username: 'jane',
        groups: ['dev', 'qa', 'system:authenticated'],
        extra: { [CREDENTIAL_ID]: [fingerprint(fx.certNoUid)] },
      });
    });

    test('a certificate with two uid attributes is refused, as kube refuses it', async () => {
      const res = await kubectlAsync(binary, kubeconfigWith(certUser(fx.certTwoUids)), ['auth', 'whoami', '-o', 'json']);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(/Unauthorized|provide credentials/);
    });

    test('a --token-auth-file token: user, uid and groups of its line', async () => {
      expect(await whoami(binary, { token: STATIC_TOKEN })).toEqual({ username: 'alice', uid: 'u-alice', groups: ['dev', 'ops', 'system:authenticated'] });
    });

    test('a bootstrap token: system:bootstrap:<id> in system:bootstrappers and its extra groups, sorted without repeats', async () => {
      expect(await whoami(binary, { token: BOOTSTRAP_TOKEN })).toEqual({
        username: 'system:bootstrap:whoami',
        groups: ['system:bootstrappers', 'system:bootstrappers:alpha', 'system:bootstrappers:worker', 'system:authenticated'],
      });
    });

    test('`kubectl create token` output: the account, its uid, groups and the token id as credential id', async () => {
      const res = await kubectlAsync(binary, server.kubeconfig, ['-n', NS, 'create', 'token', 'bot']);
      expect(res.code, res.stderr).toBe(0);
      const token = res.stdout.trim();
      expect(await whoami(binary, { token })).toEqual({
        username: `system:serviceaccount:${NS}:bot`,
        uid: fx.botUid,
        groups: SA_GROUPS,
        extra: { [CREDENTIAL_ID]: [`JTI=${jtiOf(token)}`] },
      });
    });

    test('a token bound to a Pod names the pod; one bound to a Node names the node', async () => {
      const podToken = await tokenRequest('bot', { kind: 'Pod', apiVersion: 'v1', name: 'web' });
      expect(await whoami(binary, { token: podToken })).toMatchObject({
        username: `system:serviceaccount:${NS}:bot`,
        uid: fx.botUid,
        groups: SA_GROUPS,
        extra: {
          'authentication.kubernetes.io/pod-name': ['web'],
          'authentication.kubernetes.io/pod-uid': [fx.podUid],
          [CREDENTIAL_ID]: [`JTI=${jtiOf(podToken)}`],
        },
      });
      const nodeToken = await tokenRequest('bot', { kind: 'Node', apiVersion: 'v1', name: 'node-1' });
      expect(await whoami(binary, { token: nodeToken })).toEqual({
        username: `system:serviceaccount:${NS}:bot`,
        uid: fx.botUid,
        groups: SA_GROUPS,
        extra: {
          'authentication.kubernetes.io/node-name': ['node-1'],
          'authentication.kubernetes.io/node-uid': [fx.nodeUid],
          [CREDENTIAL_ID]: [`JTI=${jtiOf(nodeToken)}`],
        },
      });
    });

    test('a legacy token Secret: the account, no extra', async () => {
      expect(await whoami(binary, { token: fx.legacyToken })).toEqual({ username: `system:serviceaccount:${NS}:bot`, uid: fx.botUid, groups: SA_GROUPS });
    });

    test('an OIDC id_token (auth-provider oidc): prefixed sub and groups, the jti as credential id', async () => {
      const idToken = await issuer.sign({ iss: issuer.url, aud: 'kapi', sub: 'u-7', groups: ['dev'], jti: `id-${binary.name}`, iat: now(), exp: now() + 600 });
      const user = { 'auth-provider': { name: 'oidc', config: { 'idp-issuer-url': issuer.url, 'client-id': 'kapi', 'id-token': idToken } } };
      expect(await whoami(binary, user)).toEqual({
        username: 'oidc:u-7',
        groups: ['oidc:dev', 'system:authenticated'],
        extra: { [CREDENTIAL_ID]: [`JTI=id-${binary.name}`] },
      });
    });
  });
}

describe("the README's exec entry", () => {
  /** The ```yaml block of the README's `kapi credential` section, as a reader copies it. */
  function readmeExecUser(): { name: string; user: { exec: { command: string; args: string[] } & Record<string, unknown> } } {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Credentials from a command'));
    const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block, 'a yaml block in the kapi credential section').toBeDefined();
    const doc = yaml.load(block!) as { users: { name: string; user: { exec: { command: string; args: string[] } } }[] };
    return doc.users[0]!;
  }

  for (const binary of binaries) {
    test(`${binary.name} runs it as written (paths filled in) and is the account it names`, async () => {
      const entry = readmeExecUser();
      const exec = entry.user.exec;
      // The reader fills in where kapi and the data dir are; nothing else changes.
      const args = exec.args.map((a) => (a === '/path/to/kapi/bin/kapi.js' ? join(ROOT, 'bin/kapi.js') : a === './data/admin.kubeconfig' ? server.kubeconfig : a));
      expect(args).not.toEqual(exec.args);
      const sa = /^([^/]+)\/(.+)$/.exec(args[args.indexOf('--service-account') + 1] ?? '');
      expect(sa, 'the entry names a service account').not.toBeNull();
      const [, ns, name] = sa as unknown as [string, string, string];
      const existing = await call(server, admin, { path: `/api/v1/namespaces/${ns}/serviceaccounts/${name}` });
      if (existing.status === 404) await adminCall('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
      const user = await whoami(binary, { exec: { ...exec, command: exec.command === 'node' ? process.execPath : exec.command, args } });
      expect(user).toMatchObject({ username: `system:serviceaccount:${ns}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'] });
    });
  }
});

describe('impersonation headers reach SelfSubjectReview', () => {
  test('Impersonate-User, -Uid, -Group and -Extra-* (key unescaped and lower-cased) are the user', async () => {
    const res = await call(server, admin, {
      method: 'POST',
      path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
      headers: {
        'content-type': 'application/json',
        'impersonate-user': 'jane',
        'impersonate-uid': 'u-jane',
        'impersonate-group': 'devs',
        'impersonate-extra-acme.com%2FProject': 'p1',
      },
    });
    expect(res.status).toBe(201);
    expect(res.json().status.userInfo).toEqual({ username: 'jane', uid: 'u-jane', groups: ['devs', 'system:authenticated'], extra: { 'acme.com/project': ['p1'] } });
  });
});

describe('TokenReview answers the same identities', () => {
  async function review(spec: Record<string, unknown>): Promise<{ status: number; body: any }> {
    const res = await call(server, admin, {
      method: 'POST',
      path: '/apis/authentication.k8s.io/v1/tokenreviews',
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec }),
      headers: { 'content-type': 'application/json' },
    });
    return { status: res.status, body: res.json() };
  }

  test('a service-account token: the user with its extras, for the API audience', async () => {
    const token = await tokenRequest('bot', { kind: 'Pod', apiVersion: 'v1', name: 'web' });
    const res = await review({ token });
    expect(res.status).toBe(201);
    expect(res.body.status).toMatchObject({
      authenticated: true,
      audiences: [ISSUER],
      user: {
        username: `system:serviceaccount:${NS}:bot`,
        uid: fx.botUid,
        groups: SA_GROUPS,
        extra: { 'authentication.kubernetes.io/pod-name': ['web'], 'authentication.kubernetes.io/pod-uid': [fx.podUid], [CREDENTIAL_ID]: [`JTI=${jtiOf(token)}`] },
      },
    });
  });

  test('static, bootstrap and legacy tokens are reviewed as their users', async () => {
    expect((await review({ token: STATIC_TOKEN })).body.status).toEqual({ authenticated: true, audiences: [ISSUER], user: { username: 'alice', uid: 'u-alice', groups: ['dev', 'ops', 'system:authenticated'] } });
    expect((await review({ token: BOOTSTRAP_TOKEN })).body.status).toMatchObject({ authenticated: true, user: { username: 'system:bootstrap:whoami' } });
    expect((await review({ token: fx.legacyToken })).body.status).toMatchObject({ authenticated: true, user: { username: `system:serviceaccount:${NS}:bot`, uid: fx.botUid } });
  });

  test('an expired OIDC token is not authenticated, and the review says why', async () => {
    const expired = await issuer.sign({ iss: issuer.url, aud: 'kapi', sub: 'u-7', iat: now() - 7200, exp: now() - 3600 });
    const res = await review({ token: expired });
    expect(res.status).toBe(201);
    expect(res.body.status.authenticated).toBeUndefined();
    expect(res.body.status.user).toEqual({});
    expect(res.body.status.error).toEqual(expect.any(String));
  });
});
