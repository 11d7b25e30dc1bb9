import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAuthenticator } from '../../src/auth/authn/create.js';
import { createRequestAuthenticator } from '../../src/auth/authn/request.js';
import { ensurePki, type Pki } from '../../src/auth/pki/ensure-pki.js';
import { isStatusError } from '../../src/errors/status-error.js';
import { ensureAdminKubeconfig, kubeconfigYaml, serverUrlFor } from '../../src/server/kubeconfig.js';

const run = promisify(execFile);
const DAY = 24 * 60 * 60 * 1000;

let dir: string;
let pki: Pki;
let otherPki: Pki;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kapi-kubeconfig-'));
  pki = await ensurePki({ dir: join(dir, 'pki'), hosts: [] });
  otherPki = await ensurePki({ dir: join(dir, 'other-pki'), hosts: [] });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const signer = () => ({ certPem: pki.caCertPem, keyPem: pki.caKeyPem });

interface Kubeconfig {
  'current-context': string;
  clusters: Array<{ name: string; cluster: Record<string, string> }>;
  contexts: Array<{ name: string; context: { cluster: string; user: string } }>;
  users: Array<{ name: string; user: Record<string, string> }>;
}
const load = async (path: string) => yaml.load(await readFile(path, 'utf8')) as Kubeconfig;
const clientCertOf = (config: Kubeconfig) => Buffer.from(config.users[0]!.user['client-certificate-data']!, 'base64').toString();

describe('serverUrlFor', () => {
  const cases: Array<{ name: string; bindAddress: string; want: string }> = [
    { name: 'loopback', bindAddress: '127.0.0.1', want: 'https://127.0.0.1:6443' },
    { name: 'IPv4 wildcard dials loopback', bindAddress: '0.0.0.0', want: 'https://127.0.0.1:6443' },
    { name: 'IPv6 wildcard dials IPv6 loopback', bindAddress: '::', want: 'https://[::1]:6443' },
    { name: 'IPv6 address in brackets', bindAddress: 'fd00::10', want: 'https://[fd00::10]:6443' },
    { name: 'other IPv4 as is', bindAddress: '10.0.0.5', want: 'https://10.0.0.5:6443' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(serverUrlFor({ bindAddress: c.bindAddress, port: 6443 })).toBe(c.want);
    });
  }
});

test('kubeconfigYaml has kubectl\'s layout, names and base64 data', () => {
  const config = yaml.load(
    kubeconfigYaml({ serverUrl: 'https://127.0.0.1:6443', caPem: 'CA', clientCertPem: 'CERT', clientKeyPem: 'KEY' }),
  );
  expect(config).toEqual({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'kapi', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': 'Q0E=' } }],
    contexts: [{ name: 'kubernetes-admin@kapi', context: { cluster: 'kapi', user: 'kubernetes-admin' } }],
    'current-context': 'kubernetes-admin@kapi',
    preferences: {},
    users: [{ name: 'kubernetes-admin', user: { 'client-certificate-data': 'Q0VSVA==', 'client-key-data': 'S0VZ' } }],
  });
});

describe('ensureAdminKubeconfig', () => {
  test('writes an admin client certificate issued by the CA, mode 0600', async () => {
    const path = join(dir, 'first', 'admin.kubeconfig');
    const result = await ensureAdminKubeconfig({ path, serverUrl: 'https://127.0.0.1:6443', caPem: pki.caCertPem, signer: signer() });
    expect(result.reusedClientCert).toBe(false);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const cert = new X509Certificate(clientCertOf(await load(path)));
    expect(cert.checkIssued(new X509Certificate(pki.caCertPem))).toBe(true);
    expect(cert.toLegacyObject().subject).toMatchObject({ CN: 'kubernetes-admin', O: 'system:masters' });
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
  });

  const cases: Array<{
    name: string;
    prepare?: (path: string) => Promise<void>;
    second: { signer: () => { certPem: string; keyPem: string }; clock?: () => Date };
    wantReused: boolean;
  }> = [
    { name: 'reuses a valid admin certificate', second: { signer }, wantReused: true },
    { name: 'reissues when the CA changed', second: { signer: () => ({ certPem: otherPki.caCertPem, keyPem: otherPki.caKeyPem }) }, wantReused: false },
    { name: 'reissues close to expiry', second: { signer, clock: () => new Date(Date.now() + 340 * DAY) }, wantReused: false },
    { name: 'replaces a damaged file', prepare: (path) => writeFile(path, '{{{ not yaml'), second: { signer }, wantReused: false },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const path = join(dir, c.name.replaceAll(' ', '-'), 'admin.kubeconfig');
      await ensureAdminKubeconfig({ path, serverUrl: 'https://127.0.0.1:6443', caPem: pki.caCertPem, signer: signer() });
      const before = clientCertOf(await load(path));
      await c.prepare?.(path);
      const s = c.second.signer();
      const result = await ensureAdminKubeconfig({
        path,
        serverUrl: 'https://127.0.0.1:7443',
        caPem: s.certPem,
        signer: s,
        ...(c.second.clock === undefined ? {} : { clock: c.second.clock }),
      });
      const after = await load(path);
      expect(result.reusedClientCert).toBe(c.wantReused);
      expect(clientCertOf(after) === before).toBe(c.wantReused);
      // Written at every start: the server URL follows the flags.
      expect(after.clusters[0]!.cluster['server']).toBe('https://127.0.0.1:7443');
    });
  }
});

const hasKubectl = await run('kubectl', ['version', '--client'], { timeout: 20_000 }).then(
  () => true,
  () => false,
);

describe.skipIf(!hasKubectl)('real kubectl', () => {
  let server: Server;
  let path: string;
  beforeAll(async () => {
    const authenticate = createRequestAuthenticator({ authenticator: createAuthenticator({ clientCaPem: pki.caCertPem }) });
    // As kapi serves: request a client certificate, don't require it, and name the
    // client CA in the request (Go clients only send a certificate it names).
    server = createServer({ key: pki.servingKeyPem, cert: pki.servingCertPem, ca: pki.caCertPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      authenticate({ headers: req.headers, raw: req }).then(
        (user) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(user ?? null));
        },
        (err: unknown) => {
          res.writeHead(isStatusError(err) ? err.code : 500, { 'content-type': 'application/json' });
          res.end(isStatusError(err) ? JSON.stringify(err.toStatus()) : '{}');
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    path = join(dir, 'kubectl', 'admin.kubeconfig');
    const port = (server.address() as AddressInfo).port;
    await ensureAdminKubeconfig({ path, serverUrl: serverUrlFor({ bindAddress: '127.0.0.1', port }), caPem: pki.caCertPem, signer: signer() });
  });
  afterAll(() => {
    server?.close();
  });

  test('reads the kubeconfig: client-certificate-data decodes to our certificate', async () => {
    const { stdout } = await run('kubectl', ['--kubeconfig', path, 'config', 'view', '--raw', '-o', 'jsonpath={.users[0].user.client-certificate-data}'], { timeout: 20_000 });
    expect(Buffer.from(stdout, 'base64').toString()).toBe(clientCertOf(await load(path)));
  });

  test('trusts the serving certificate and authenticates as kubernetes-admin', async () => {
    const { stdout } = await run('kubectl', ['--kubeconfig', path, 'get', '--raw', '/whoami'], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toMatchObject({ username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });
  });
});
