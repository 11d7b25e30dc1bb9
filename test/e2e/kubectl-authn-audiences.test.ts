// What kube-apiserver 1.36 does that needs the TokenReview and TokenRequest edits
// of the issue-13 audit (src/apis/authentication/v1/token-reviews.ts,
// src/apis/core/v1/service-account-token.ts): a TokenReview asking for the
// audience a service-account token was made for (Vault's Kubernetes auth) is
// authenticated for that audience; a pod-bound token names the pod's node
// (ServiceAccountTokenPodNodeInfo) and `kubectl auth whoami` shows it; a token
// is bound only to a pod running as its account.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { kubectlBinaries } from './support/kubectl.js';
import { adminCredentials, call, type Credentials } from './support/http.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']).filter((b) => b.name !== 'kubectl');
const NS = 'auds';
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const STATIC_TOKEN = 'tok-auds-alice-0123456789';
let server: RunningKapi;
let admin: Required<Credentials>;
let dir: string;

async function send(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await call(server, admin, { method, path, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  return { status: res.status, body: res.json() };
}
async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await send(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}
const tokenRequest = (account: string, spec: Record<string, unknown>) =>
  send('POST', `/api/v1/namespaces/${NS}/serviceaccounts/${account}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600, ...spec } });
const review = (spec: Record<string, unknown>) => send('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec });
const pod = (name: string, spec: Record<string, unknown>) =>
  ok('POST', `/api/v1/namespaces/${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kapi-auds-'));
  writeFileSync(join(dir, 'tokens.csv'), `${STATIC_TOKEN},alice,u-alice\n`);
  server = await startKapi({ args: [`--token-auth-file=${join(dir, 'tokens.csv')}`] });
  admin = adminCredentials(server.kubeconfig);
  await ok('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  await ok('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot' } });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('TokenReview with audiences', () => {
  test("a review asking for the token's own audience is authenticated for it", async () => {
    const token = (await tokenRequest('bot', { audiences: ['vault', 'other'] })).body.status.token as string;
    const res = await review({ token, audiences: ['x', 'vault'] });
    expect(res.status).toBe(201);
    expect(res.body.status).toMatchObject({ authenticated: true, audiences: ['vault'], user: { username: `system:serviceaccount:${NS}:bot` } });
  });

  test('a review with no audiences judges the token against the API audience, with kube\'s error', async () => {
    const token = (await tokenRequest('bot', { audiences: ['vault'] })).body.status.token as string;
    expect((await review({ token })).body.status).toEqual({ user: {}, error: `token audiences ["vault"] is invalid for the target audiences ["${ISSUER}"]` });
    // The same token still cannot reach the API.
    const res = await call(server, { ca: admin.ca }, { path: `/api/v1/namespaces/${NS}/configmaps`, headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
  });

  test('an API token reviewed for another audience is not authenticated', async () => {
    const token = (await tokenRequest('bot', {})).body.status.token as string;
    expect((await review({ token, audiences: ['vault'] })).body.status).toEqual({ user: {}, error: `token audiences ["${ISSUER}"] is invalid for the target audiences ["vault"]` });
  });
});

describe('pod-bound tokens', () => {
  test("a pod of another account: 400 with kube's message", async () => {
    await pod('other-sa', { serviceAccountName: 'default' });
    const res = await tokenRequest('bot', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'other-sa' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'cannot bind token for serviceaccount "bot" to pod running with different serviceaccount name.' });
  });

  for (const binary of binaries) {
    test(`${binary.name}: a scheduled pod's token names its node; whoami shows it`, async () => {
      const nodeName = `node-${binary.name.replace(/\W/g, '')}`;
      const node = await ok('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName } });
      const p = await pod(`web-${nodeName}`, { serviceAccountName: 'bot', nodeName });
      const token = (await tokenRequest('bot', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: p.metadata.name } })).body.status.token as string;
      const cfg = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { users: { user: Record<string, unknown> }[] };
      cfg.users[0]!.user = { token };
      const kubeconfig = join(dir, `kc-${nodeName}`);
      writeFileSync(kubeconfig, yaml.dump(cfg), { mode: 0o600 });
      const out = await new Promise<string>((done, fail) =>
        execFile(binary.path, ['--kubeconfig', kubeconfig, 'auth', 'whoami', '-o', 'json'], { timeout: 60_000 }, (err, stdout, stderr) => (err === null ? done(stdout) : fail(new Error(stderr)))),
      );
      expect(JSON.parse(out).status.userInfo.extra).toMatchObject({
        'authentication.kubernetes.io/pod-name': [p.metadata.name],
        'authentication.kubernetes.io/pod-uid': [p.metadata.uid],
        'authentication.kubernetes.io/node-name': [nodeName],
        'authentication.kubernetes.io/node-uid': [node.metadata.uid],
      });
      // The node is information only: the token outlives it (kube checks only the pod).
      await ok('DELETE', `/api/v1/nodes/${nodeName}`);
      expect((await review({ token })).body.status.authenticated).toBe(true);
    });
  }

  test('a pod on a node that does not exist: the node name without a uid', async () => {
    const p = await pod('web-ghost', { serviceAccountName: 'bot', nodeName: 'ghost' });
    const token = (await tokenRequest('bot', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: p.metadata.name } })).body.status.token as string;
    const extra = (await review({ token })).body.status.user.extra as Record<string, string[]>;
    expect(extra['authentication.kubernetes.io/node-name']).toEqual(['ghost']);
    expect(Object.hasOwn(extra, 'authentication.kubernetes.io/node-uid')).toBe(false);
  });
});

describe('audience-agnostic tokens (--token-auth-file)', () => {
  test('good for the API audience; for another one kube\'s wrapper abstains and the token is invalid', async () => {
    expect((await review({ token: STATIC_TOKEN })).body.status).toEqual({ authenticated: true, audiences: [ISSUER], user: { username: 'alice', uid: 'u-alice', groups: ['system:authenticated'] } });
    expect((await review({ token: STATIC_TOKEN, audiences: ['vault', ISSUER] })).body.status).toMatchObject({ authenticated: true, audiences: [ISSUER] });
    expect((await review({ token: STATIC_TOKEN, audiences: ['vault'] })).body.status).toEqual({ user: {}, error: 'invalid bearer token' });
  });
});
