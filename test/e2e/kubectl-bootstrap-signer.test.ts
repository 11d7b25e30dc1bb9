// The bootstrap signer and token cleaner end to end (issue #13 part 2): kapi
// started as `--controllers=*,tokencleaner,bootstrapsigner
// --enable-bootstrap-token-auth` publishes kube-public/cluster-info (readable
// anonymously, as `kubeadm join` reads it), signs it for every signing token made
// with kubectl — a detached JWS checked here with jose, independently of kapi's
// code — drops signatures of tokens deleted or expired, and deletes expired token
// Secrets. Hostile token Secrets neither crash nor get signed. A restart on the same
// data dir keeps one cluster-info, unchanged; a server without those controllers
// leaves the signatures alone; the next start with them repairs and re-signs.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify } from 'jose';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { eventually, freePort, startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
const dataDir = mkdtempSync(join(tmpdir(), 'kapi-signer-'));
const ARGS = ['--controllers=*,tokencleaner,bootstrapsigner', '--enable-bootstrap-token-auth'];
const SECRET = '0123456789abcdef';
let port: number;
let server: RunningKapi;
let admin: Kubectl;

interface ConfigMap {
  metadata: { resourceVersion: string; uid: string };
  data: Record<string, string>;
}

function clusterInfo(k: Kubectl = admin): ConfigMap {
  return JSON.parse(ok(k, ['-n', 'kube-public', 'get', 'configmap', 'cluster-info', '-o', 'json'])) as ConfigMap;
}

function tokenSecret(id: string, data: Record<string, string>, opts: { name?: string; type?: string } = {}): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: opts.name ?? `bootstrap-token-${id}`, namespace: 'kube-system' },
    type: opts.type ?? 'bootstrap.kubernetes.io/token',
    stringData: { 'token-id': id, 'token-secret': SECRET, 'usage-bootstrap-signing': 'true', 'usage-bootstrap-authentication': 'true', ...data },
  });
}

function secretGone(name: string): boolean {
  const res = admin.run(['-n', 'kube-system', 'get', 'secret', name, '-o', 'name']);
  return res.code !== 0 && /NotFound|not found/.test(res.stderr);
}

/** kube's key: the token secret, zero-padded to 32 bytes (cluster-bootstrap jws.go). */
function keyOf(token: string): Uint8Array {
  const key = new Uint8Array(32);
  key.set(Buffer.from(token.split('.')[1] ?? ''));
  return key;
}

/** Checks a detached JWS the way kubeadm join does, with jose and nothing of kapi's. */
async function verify(detached: string, kubeconfig: string, token: string): Promise<void> {
  const [header, payload, signature] = detached.split('.');
  expect(payload).toBe('');
  expect(Buffer.from(header ?? '', 'base64url').toString()).toBe(`{"alg":"HS256","kid":"${token.split('.')[0]}"}`);
  const full = `${header}.${Buffer.from(kubeconfig).toString('base64url')}.${signature}`;
  const { payload: signed } = await compactVerify(full, keyOf(token), { algorithms: ['HS256'] });
  expect(Buffer.from(signed).toString()).toBe(kubeconfig);
}

function caOf(kubeconfigPath: string): string {
  const cfg = yaml.load(readFileSync(kubeconfigPath, 'utf8')) as { clusters: { cluster: Record<string, string> }[] };
  return Buffer.from(cfg.clusters[0]!.cluster['certificate-authority-data']!, 'base64').toString();
}

/** A request without any credentials (system:anonymous). */
function anonymousGet(path: string): Promise<{ status: number; json: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', ca: caOf(server.kubeconfig), agent: false, headers: { accept: 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: (res.headers['content-type'] ?? '').includes('json') ? (JSON.parse(text) as Record<string, unknown>) : {}, text });
        } catch (err) {
          reject(err);
        }
      });
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** A bounded wait for what the controllers do in the background (generous: a loaded CI machine). */
const waitFor = (what: string, check: () => boolean) => eventually(what, check, 20_000);

const jwsKeys = (cm: ConfigMap) => Object.keys(cm.data).filter((k) => k.startsWith('jws-kubeconfig-')).sort();

beforeAll(async () => {
  port = await freePort();
  server = await startKapi({ args: ARGS, dataDir, port, readyTimeoutMs: 60_000 });
  admin = kubectl(binaries[0]!, server.kubeconfig);
}, 90_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('cluster-info', () => {
  test('is kubeadm\'s kubeconfig: one cluster "" with this server and its CA, nothing else', () => {
    const { data } = clusterInfo();
    const ca = Buffer.from(caOf(server.kubeconfig)).toString('base64');
    expect(data.kubeconfig).toBe(
      `apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: ${ca}\n    server: ${server.url}\n  name: ""\ncontexts: null\ncurrent-context: ""\nkind: Config\npreferences: {}\nusers: null\n`,
    );
  });

  test('anonymous may get it and nothing beside it', async () => {
    const got = await anonymousGet('/api/v1/namespaces/kube-public/configmaps/cluster-info');
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'cluster-info', namespace: 'kube-public' } });
    const refused: { path: string; message: string }[] = [
      { path: '/api/v1/namespaces/kube-public/configmaps', message: 'configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "kube-public"' },
      { path: '/api/v1/namespaces/kube-public/configmaps/kube-root-ca.crt', message: 'configmaps "kube-root-ca.crt" is forbidden: User "system:anonymous" cannot get resource "configmaps" in API group "" in the namespace "kube-public"' },
      { path: '/api/v1/namespaces/kube-system/configmaps/cluster-info', message: 'configmaps "cluster-info" is forbidden: User "system:anonymous" cannot get resource "configmaps" in API group "" in the namespace "kube-system"' },
      // kube's request info names the object of a metadata.name field selector; only get is granted.
      { path: '/api/v1/namespaces/kube-public/configmaps?watch=1&fieldSelector=metadata.name%3Dcluster-info', message: 'configmaps "cluster-info" is forbidden: User "system:anonymous" cannot watch resource "configmaps" in API group "" in the namespace "kube-public"' },
      { path: '/api/v1/namespaces/kube-system/secrets/bootstrap-token-abcdef', message: 'secrets "bootstrap-token-abcdef" is forbidden: User "system:anonymous" cannot get resource "secrets" in API group "" in the namespace "kube-system"' },
    ];
    for (const r of refused) {
      const res = await anonymousGet(r.path);
      expect(res.status, r.path).toBe(403);
      expect(res.json, r.path).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403, message: r.message });
    }
  });
});

describe.each(binaries.map((b, i) => ({ binary: b, id: `sign0${i}` })))('$binary.name', ({ binary, id }) => {
  const token = `${id}.${SECRET}`;
  test('a signing token gets a verified signature; expiring it by edit removes signature and Secret', async () => {
    const k = kubectl(binary, server.kubeconfig);
    ok(k, ['create', '-f', '-'], tokenSecret(id, { expiration: '2099-01-01T00:00:00Z', description: 'e2e' }));
    await waitFor(`jws-kubeconfig-${id}`, () => clusterInfo(k).data[`jws-kubeconfig-${id}`] !== undefined);
    const { data } = clusterInfo(k);
    await verify(data[`jws-kubeconfig-${id}`]!, data.kubeconfig!, token);
    await expect(verify(data[`jws-kubeconfig-${id}`]!, data.kubeconfig!, `${id}.fedcba9876543210`)).rejects.toThrow(/signature verification failed/);

    ok(k, ['-n', 'kube-system', 'patch', 'secret', `bootstrap-token-${id}`, '--type=merge', '-p', JSON.stringify({ stringData: { expiration: '2001-01-01T00:00:00Z' } })]);
    await waitFor('the signature to go', () => clusterInfo(k).data[`jws-kubeconfig-${id}`] === undefined);
    await waitFor('the expired Secret to be deleted', () => secretGone(`bootstrap-token-${id}`));
  }, 60_000);

  test('deleting the token removes its signature', async () => {
    const k = kubectl(binary, server.kubeconfig);
    const del = `del${id.slice(-3)}`;
    ok(k, ['create', '-f', '-'], tokenSecret(del, {}));
    await waitFor(`jws-kubeconfig-${del}`, () => clusterInfo(k).data[`jws-kubeconfig-${del}`] !== undefined);
    ok(k, ['-n', 'kube-system', 'delete', 'secret', `bootstrap-token-${del}`]);
    await waitFor('the signature to go', () => clusterInfo(k).data[`jws-kubeconfig-${del}`] === undefined);
  }, 60_000);
}, 120_000);

test('an already-expired token is deleted by the token cleaner and never signed', async () => {
  ok(admin, ['create', '-f', '-'], tokenSecret('expire', { expiration: '2001-01-01T00:00:00Z' }));
  await waitFor('the expired Secret to be deleted', () => secretGone('bootstrap-token-expire'));
  expect(clusterInfo().data['jws-kubeconfig-expire']).toBeUndefined();
}, 60_000);

test('hostile token Secrets: no crash, no signature; the controllers go on', async () => {
  const hostile: { name: string; body: string }[] = [
    { name: 'bootstrap-token-malfrm', body: tokenSecret('malfrm', { expiration: 'not-a-time' }) },
    { name: 'bootstrap-token-opaque', body: tokenSecret('opaque', { expiration: '2001-01-01T00:00:00Z' }, { type: 'Opaque' }) },
    { name: 'bootstrap-token-badsec', body: tokenSecret('badsec', { 'token-secret': 'ABCDEF!@#$%^&*()' }) },
    { name: 'bootstrap-token-badid0', body: tokenSecret('BAD ID', {}, { name: 'bootstrap-token-badid0' }) },
    { name: 'bootstrap-token-huge00', body: tokenSecret('huge00', { 'token-secret': 'a'.repeat(300_000), description: 'd'.repeat(300_000) }) },
    {
      name: 'bootstrap-token-proto0',
      body: JSON.stringify({ ...JSON.parse(tokenSecret('proto0', {})), stringData: JSON.parse('{"__proto__": "x", "constructor": "y", "token-id": "proto0", "usage-bootstrap-signing": "true"}') }),
    },
  ];
  for (const h of hostile) ok(admin, ['create', '-f', '-'], h.body);
  await waitFor('the malformed expiration to count as expired (kube) and be deleted', () => secretGone('bootstrap-token-malfrm'));
  // A valid token created after them is signed: the signer got past all of them.
  ok(admin, ['create', '-f', '-'], tokenSecret('after0', {}));
  await waitFor('the token after them to be signed', () => clusterInfo().data['jws-kubeconfig-after0'] !== undefined);
  const cm = clusterInfo();
  expect(jwsKeys(cm)).toEqual(['jws-kubeconfig-after0']);
  await verify(cm.data['jws-kubeconfig-after0']!, cm.data.kubeconfig!, `after0.${SECRET}`);
  // Opaque is not a token Secret: the cleaner leaves it, expired or not.
  expect(secretGone('bootstrap-token-opaque')).toBe(false);
  expect(server.logs()).not.toMatch(/controller sync failed|re-check failed/);
  expect(await anonymousGet('/healthz')).toMatchObject({ status: 200, text: 'ok' });
}, 60_000);

test('restart: one unchanged cluster-info; without the controllers signatures stay; with them again, repaired and re-signed', async () => {
  ok(admin, ['create', '-f', '-'], tokenSecret('keep00', {}));
  ok(admin, ['create', '-f', '-'], tokenSecret('drop00', {}));
  await waitFor('both signed', () => jwsKeys(clusterInfo()).includes('jws-kubeconfig-keep00') && jwsKeys(clusterInfo()).includes('jws-kubeconfig-drop00'));
  const before = clusterInfo();
  await server.stop();

  // Without the two controllers.
  server = await startKapi({ args: ['--enable-bootstrap-token-auth'], dataDir, port, readyTimeoutMs: 60_000 });
  const started = server.logs().split('\n').find((l) => l.includes('"msg":"controllers started"')) ?? '';
  expect(started).not.toMatch(/bootstrap-signer|token-cleaner/);
  const same = clusterInfo();
  expect(same.metadata).toMatchObject({ uid: before.metadata.uid, resourceVersion: before.metadata.resourceVersion });
  expect(same.data).toEqual(before.data);
  ok(admin, ['-n', 'kube-system', 'delete', 'secret', 'bootstrap-token-drop00']);
  ok(admin, ['create', '-f', '-'], tokenSecret('expir2', { expiration: '2001-01-01T00:00:00Z' }));
  // A user's edit: a wrong kubeconfig, and a key of their own.
  ok(admin, ['-n', 'kube-public', 'patch', 'configmap', 'cluster-info', '--type=merge', '-p', JSON.stringify({ data: { kubeconfig: 'tampered', note: 'mine' } })]);
  expect(jwsKeys(clusterInfo())).toEqual(jwsKeys(before));
  expect(secretGone('bootstrap-token-expir2')).toBe(false);
  await server.stop();

  // With them again: the start repairs the kubeconfig, the signer re-signs and drops, the cleaner deletes.
  server = await startKapi({ args: ARGS, dataDir, port, readyTimeoutMs: 60_000 });
  expect(server.logs()).toMatch(/"action":"repaired".*"msg":"cluster-info ensured"/);
  await waitFor('the dropped token\'s signature to go', () => !jwsKeys(clusterInfo()).includes('jws-kubeconfig-drop00'));
  await waitFor('the expired token to be deleted', () => secretGone('bootstrap-token-expir2'));
  const after = clusterInfo();
  expect(after.metadata.uid).toBe(before.metadata.uid);
  expect(after.data.kubeconfig).toBe(before.data.kubeconfig);
  expect(after.data.note).toBe('mine');
  expect(jwsKeys(after)).toEqual(['jws-kubeconfig-after0', 'jws-kubeconfig-keep00']);
  await verify(after.data['jws-kubeconfig-keep00']!, after.data.kubeconfig!, `keep00.${SECRET}`);
  const list = JSON.parse(ok(admin, ['-n', 'kube-public', 'get', 'configmaps', '-o', 'json'])) as { items: { metadata: { name: string } }[] };
  expect(list.items.filter((i) => i.metadata.name === 'cluster-info')).toHaveLength(1);
}, 240_000);
