// Impersonation with real kubectl (issue #13 part 6): `--as`, `--as-group` and
// `--as-uid` run the request as the named user once the caller may impersonate it;
// a caller who may not gets 403 naming what was refused, and the request never
// runs as the caller instead.
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { issueClientCertificate } from '../../src/auth/pki/issue.js';
import { kubectl, kubectlBinaries, ok } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);

function whoami(out: string): { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> } {
  return JSON.parse(out).status.userInfo;
}

/** A kubeconfig for a client certificate of `name` (not in system:masters), next to the admin's. */
async function kubeconfigFor(server: RunningKapi, name: string): Promise<string> {
  const ca = { certPem: readFileSync(join(server.dataDir, 'pki/ca.crt'), 'utf8'), keyPem: readFileSync(join(server.dataDir, 'pki/ca.key'), 'utf8') };
  const pair = await issueClientCertificate({ ca, commonName: name, organizations: ['dev'], validityDays: 1 });
  const cfg = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { users: { user: Record<string, string> }[] };
  cfg.users[0]!.user['client-certificate-data'] = Buffer.from(pair.certPem).toString('base64');
  cfg.users[0]!.user['client-key-data'] = Buffer.from(pair.keyPem).toString('base64');
  const path = join(server.dataDir, `kubeconfig-${name}`);
  writeFileSync(path, yaml.dump(cfg), { mode: 0o600 });
  return path;
}

/** A GET with a client certificate and extra headers; answers the status and the parsed body. */
function get(server: RunningKapi, creds: { cert: string; key: string }, path: string, headers: Record<string, string | string[]>): Promise<{ status: number; json: any }> {
  const cfg = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { clusters: { cluster: Record<string, string> }[] };
  const ca = Buffer.from(cfg.clusters[0]!.cluster['certificate-authority-data'] ?? '', 'base64');
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port: server.port, method: 'GET', path, ca, cert: creds.cert, key: creds.key, agent: false, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('kubectl binaries are present', () => {
  expect(binaries.length).toBeGreaterThan(0);
});

describe('an administrator impersonates (AlwaysAllow)', () => {
  let server: RunningKapi;
  beforeAll(async () => {
    server = await startKapi();
  }, 60_000);
  afterAll(async () => server?.stop());

  for (const binary of binaries) {
    test(`${binary.name}: auth whoami --as shows the impersonated user, with system:authenticated added`, () => {
      const k = kubectl(binary, server.kubeconfig);
      expect(whoami(ok(k, ['auth', 'whoami', '-o', 'json']))).toMatchObject({ username: 'kubernetes-admin' });
      expect(whoami(ok(k, ['auth', 'whoami', '--as=jane', '-o', 'json']))).toEqual({ username: 'jane', groups: ['system:authenticated'] });
    });

    test(`${binary.name}: --as-group names the groups and --as-uid the uid`, () => {
      const k = kubectl(binary, server.kubeconfig);
      const user = whoami(ok(k, ['auth', 'whoami', '--as=jane', '--as-group=devs', '--as-group=ops', '--as-uid=u-42', '-o', 'json']));
      // kube adds system:authenticated to named groups too.
      expect(user).toEqual({ username: 'jane', uid: 'u-42', groups: ['devs', 'ops', 'system:authenticated'] });
    });

    test(`${binary.name}: a service account gets its fixed groups`, () => {
      const k = kubectl(binary, server.kubeconfig);
      expect(whoami(ok(k, ['auth', 'whoami', '--as=system:serviceaccount:default:builder', '-o', 'json']))).toEqual({
        username: 'system:serviceaccount:default:builder',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      });
    });
  }

  test('--as-group without --as is refused by kubectl or the server, never run as the caller', () => {
    const k = kubectl(binaries[0]!, server.kubeconfig);
    const res = k.run(['auth', 'whoami', '--as-group=devs', '-o', 'json']);
    expect(res.code).not.toBe(0);
    expect(res.stdout).not.toContain('kubernetes-admin');
  });
});

describe('impersonation is authorized (AlwaysDeny: only system:masters may act)', () => {
  let server: RunningKapi;
  let dev: string;
  let devCreds: { cert: string; key: string };
  beforeAll(async () => {
    server = await startKapi({ args: ['--authorization-mode=AlwaysDeny'] });
    dev = await kubeconfigFor(server, 'dev-user');
    const cfg = yaml.load(readFileSync(dev, 'utf8')) as { users: { user: Record<string, string> }[] };
    const user = cfg.users[0]!.user;
    devCreds = { cert: Buffer.from(user['client-certificate-data']!, 'base64').toString(), key: Buffer.from(user['client-key-data']!, 'base64').toString() };
  }, 60_000);
  afterAll(async () => server?.stop());

  test('a caller who may not impersonate gets 403 naming what was refused', async () => {
    const res = await get(server, devCreds, '/api/v1/namespaces/default/configmaps', { 'Impersonate-User': 'jane' });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      // The authorizer's reason follows, as kube joins them.
      message: 'users "jane" is forbidden: User "dev-user" cannot impersonate resource "users" in API group "" at the cluster scope: Everything is forbidden.',
      details: { name: 'jane', kind: 'users' },
    });
  });

  test('groups without a user are 400', async () => {
    const res = await get(server, devCreds, '/api/v1/namespaces/default/configmaps', { 'Impersonate-Group': ['a', 'b'] });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect(res.json.message).toMatch(/without impersonating a user$/);
  });

  for (const binary of binaries) {
    test(`${binary.name}: kubectl --as by a caller who may not impersonate fails as Forbidden`, () => {
      const res = kubectl(binary, dev).run(['get', 'configmaps', '-n', 'default', '--as=jane']);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('Forbidden');
    });

    test(`${binary.name}: an administrator acting as jane is authorized as jane, not as itself`, () => {
      const k = kubectl(binary, server.kubeconfig);
      expect(ok(k, ['get', 'configmaps', '-n', 'default', '-o', 'name'])).toBeDefined();
      const res = k.run(['get', 'configmaps', '-n', 'default', '--as=jane']);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('User "jane" cannot list resource "configmaps" in API group "" in the namespace "default"');
      // Impersonating a master group is what lets the request through.
      expect(k.run(['get', 'configmaps', '-n', 'default', '--as=jane', '--as-group=system:masters']).code).toBe(0);
    });
  }

  test('the user is asked about before the groups', async () => {
    const res = await get(server, devCreds, '/api/v1/namespaces/default/configmaps', { 'Impersonate-User': 'jane', 'Impersonate-Group': 'system:masters' });
    expect(res.status).toBe(403);
    expect(res.json.message).toMatch(/^users "jane" is forbidden/);
  });
});
