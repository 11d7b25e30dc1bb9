// Bad credentials of every kind kapi accepts (issue #13, "done when"): against one
// server with client certificates, --token-auth-file, bootstrap tokens,
// service-account tokens and OIDC, each wrong, expired, revoked, forged or
// malformed credential is 401 with kube's Status (or, where kube-apiserver ignores
// the header and treats the request as anonymous, its 403 for system:anonymous),
// never another identity, and a POST with it stores nothing. Each method has a
// working control row, so a check that could not fail shows. The OIDC issuer runs
// in this process: every call here is asynchronous (kapi fetches its keys while a
// request waits).
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { OutgoingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { decodeProtectedHeader, SignJWT, type JWTPayload } from 'jose';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../src/auth/pki/issue.js';
import { kubectlBinaries, kubectlAsync } from './support/kubectl.js';
import { adminCredentials } from './support/http.js';
import { rawHttp1 } from './support/raw-tls.js';
import { startKapi, type RunningKapi } from './support/server.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc-issuer.js';

const binaries = kubectlBinaries(['1.27', '1.33']).filter((b) => b.name !== 'kubectl');
const NS = 'badcreds';
const STATIC_TOKEN = 'tok-static-0123456789';
const BOOTSTRAP_TOKEN = 'abcdef.0123456789abcdef';
const now = () => Math.floor(Date.now() / 1000);

let server: RunningKapi;
let issuer: TestIssuer;
let dir: string;
let admin: ReturnType<typeof adminCredentials>;

/** What one attempt presents: a client certificate, an Authorization header (or several), or neither. */
interface Attempt {
  readonly cert?: CertificateAndKey;
  readonly authorization?: string | string[];
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, any>;
  readonly headers: Record<string, string | string[] | undefined>;
}

function send(attempt: Attempt, opts: { method?: string; path: string; body?: unknown }): Promise<Answer> {
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: OutgoingHttpHeaders = { accept: 'application/json' };
  if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  // Several values send several header lines (OutgoingHttpHeaders types this one as a single string).
  if (attempt.authorization !== undefined) Object.assign(headers, { authorization: attempt.authorization });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: opts.method ?? 'GET',
        path: opts.path,
        ca: admin.ca,
        ...(attempt.cert === undefined ? {} : { cert: attempt.cert.certPem, key: attempt.cert.keyPem }),
        headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Record<string, any> = {};
          try {
            parsed = JSON.parse(text) as Record<string, any>;
          } catch {
            parsed = { unparsed: text };
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const asAdmin = (opts: { method?: string; path: string; body?: unknown }) => send({ cert: { certPem: admin.cert.toString(), keyPem: admin.key.toString() } }, opts);

async function adminOk(opts: { method?: string; path: string; body?: unknown }): Promise<Record<string, any>> {
  const res = await asAdmin(opts);
  expect(res.status, `${opts.method ?? 'GET'} ${opts.path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

async function tokenRequest(name: string, audiences: string[] = []): Promise<string> {
  const res = await adminOk({
    method: 'POST',
    path: `/api/v1/namespaces/${NS}/serviceaccounts/${name}/token`,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences, expirationSeconds: 3600 } },
  });
  return res.status.token as string;
}

function bootstrapSecret(id: string, data: Record<string, string>) {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' },
    type: 'bootstrap.kubernetes.io/token',
    stringData: { 'token-id': id, 'token-secret': '0123456789abcdef', ...data },
  };
}

// --- forging JWTs -----------------------------------------------------------------------

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
function parts(token: string): { header: Record<string, unknown>; payload: JWTPayload; signature: string } {
  const [h, p, s] = token.split('.') as [string, string, string];
  return { header: JSON.parse(Buffer.from(h, 'base64url').toString()), payload: JSON.parse(Buffer.from(p, 'base64url').toString()), signature: s };
}
/** The token's payload changed, its signature kept: what tampering in transit looks like. */
function tampered(token: string, change: (p: JWTPayload) => JWTPayload): string {
  const { header, payload, signature } = parts(token);
  return `${b64url(header)}.${b64url(change(payload))}.${signature}`;
}
/** The token's payload under `alg: none` and no signature. */
function algNone(token: string): string {
  const { payload } = parts(token);
  return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`;
}
/** The payload changed and signed again with `key`, under the token's own header (alg, kid). */
async function resigned(token: string, key: KeyObject, change: (p: JWTPayload) => JWTPayload): Promise<string> {
  const header = decodeProtectedHeader(token) as { alg: string; kid?: string };
  return new SignJWT(change(parts(token).payload)).setProtectedHeader(header).sign(key);
}

// --- the server --------------------------------------------------------------------------

interface Fixture {
  saToken: string;
  saKey: KeyObject;
  otherKey: KeyObject;
  wrongAudience: string;
  revoked: string;
  oidcToken: string;
  oidcClaims: JWTPayload;
  certs: { expired: CertificateAndKey; otherCa: CertificateAndKey; serverUsage: CertificateAndKey; valid: CertificateAndKey; twoUids: CertificateAndKey };
}
let fx: Fixture;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kapi-bad-creds-'));
  issuer = await startTestIssuer();
  await issuer.addKey('RS256');
  writeFileSync(join(dir, 'issuer-ca.crt'), issuer.caPem);
  writeFileSync(join(dir, 'tokens.csv'), `${STATIC_TOKEN},alice,u-alice,dev\n`);
  server = await startKapi({
    args: [
      // The subject here is authentication: every accepted identity may write (kapi
      // still holds anonymous requests to the public paths under AlwaysAllow).
      '--authorization-mode=AlwaysAllow',
      `--token-auth-file=${join(dir, 'tokens.csv')}`,
      '--enable-bootstrap-token-auth',
      `--oidc-issuer-url=${issuer.url}`,
      '--oidc-client-id=kapi',
      `--oidc-ca-file=${join(dir, 'issuer-ca.crt')}`,
    ],
  });
  admin = adminCredentials(server.kubeconfig);

  await adminOk({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } } });
  for (const name of ['bot', 'gone']) {
    await adminOk({ method: 'POST', path: `/api/v1/namespaces/${NS}/serviceaccounts`, body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } } });
  }
  const secrets = '/api/v1/namespaces/kube-system/secrets';
  await adminOk({ method: 'POST', path: secrets, body: bootstrapSecret('abcdef', { 'usage-bootstrap-authentication': 'true', expiration: '2099-01-01T00:00:00Z' }) });
  await adminOk({ method: 'POST', path: secrets, body: bootstrapSecret('expird', { 'usage-bootstrap-authentication': 'true', expiration: '2001-01-01T00:00:00Z' }) });
  await adminOk({ method: 'POST', path: secrets, body: bootstrapSecret('nouse0', { 'usage-bootstrap-signing': 'true' }) });
  // Expirations Go's time.Parse(time.RFC3339) refuses count as expired (kube's HasExpired).
  await adminOk({ method: 'POST', path: secrets, body: bootstrapSecret('bare00', { 'usage-bootstrap-authentication': 'true', expiration: '2099-01-01' }) });
  await adminOk({ method: 'POST', path: secrets, body: bootstrapSecret('apr310', { 'usage-bootstrap-authentication': 'true', expiration: '2099-04-31T00:00:00Z' }) });

  const revoked = await tokenRequest('gone');
  expect((await send({ authorization: `Bearer ${revoked}` }, { path: `/api/v1/namespaces/${NS}/configmaps` })).status).toBe(200);
  await adminOk({ method: 'DELETE', path: `/api/v1/namespaces/${NS}/serviceaccounts/gone` });

  // The server's own CA and service-account key, from the data dir this test made for it.
  const pki = join(server.dataDir, 'pki');
  const serverCa = { certPem: readFileSync(join(pki, 'ca.crt'), 'utf8'), keyPem: readFileSync(join(pki, 'ca.key'), 'utf8') };
  const otherCa = await createCertificateAuthority({ commonName: 'kapi-ca', validityDays: 30, clock: () => new Date() });
  const client = (ca: CertificateAndKey, usage: 'client' | 'server', clock = () => new Date(), uids: string[] = []) =>
    issueCertificate({ ca, commonName: 'mallory', organizations: ['system:masters'], uids, usage, validityDays: 1, clock });
  const saKey = createPrivateKey(readFileSync(join(pki, 'sa.key'), 'utf8'));
  const saToken = await tokenRequest('bot');
  const alg = decodeProtectedHeader(saToken).alg;
  const otherKey = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey : generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const oidcClaims: JWTPayload = { iss: issuer.url, aud: 'kapi', sub: 'oidc-user', iat: now(), exp: now() + 3600 };
  fx = {
    saToken,
    saKey,
    otherKey,
    wrongAudience: await tokenRequest('bot', ['https://not-this-api.example']),
    revoked,
    oidcToken: await issuer.sign(oidcClaims),
    oidcClaims,
    certs: {
      expired: await client(serverCa, 'client', () => new Date(Date.now() - 10 * 86_400_000)),
      otherCa: await client(otherCa, 'client'),
      serverUsage: await client(serverCa, 'server'),
      valid: await client(serverCa, 'client'),
      twoUids: await client(serverCa, 'client', () => new Date(), ['u-1', 'u-2']),
    },
  };
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await issuer?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

// --- the matrix ----------------------------------------------------------------------------

/** 401: kube's Status, and nothing more about why. */
type Want = 'unauthorized' | 'anonymous' | 'accepted';

const bearer = (token: string) => `Bearer ${token}`;
const hour = 3600;

const ROWS: { name: string; attempt: () => Attempt | Promise<Attempt>; want: Want }[] = [
  // client certificates
  { name: 'certificate: control (valid, from the server CA)', attempt: () => ({ cert: fx.certs.valid }), want: 'accepted' },
  { name: 'certificate: expired', attempt: () => ({ cert: fx.certs.expired }), want: 'unauthorized' },
  { name: 'certificate: signed by another CA with the same name', attempt: () => ({ cert: fx.certs.otherCa }), want: 'unauthorized' },
  { name: 'certificate: a serving certificate (no clientAuth usage)', attempt: () => ({ cert: fx.certs.serverUsage }), want: 'unauthorized' },
  { name: 'certificate: two uid subject attributes (kube refuses the certificate)', attempt: () => ({ cert: fx.certs.twoUids }), want: 'unauthorized' },
  // static tokens
  { name: 'static token: control', attempt: () => ({ authorization: bearer(STATIC_TOKEN) }), want: 'accepted' },
  { name: 'static token: wrong', attempt: () => ({ authorization: bearer('tok-static-0123456780') }), want: 'unauthorized' },
  { name: 'static token: a prefix of a listed one', attempt: () => ({ authorization: bearer(STATIC_TOKEN.slice(0, -1)) }), want: 'unauthorized' },
  // bootstrap tokens
  { name: 'bootstrap token: control', attempt: () => ({ authorization: bearer(BOOTSTRAP_TOKEN) }), want: 'accepted' },
  { name: 'bootstrap token: wrong secret', attempt: () => ({ authorization: bearer('abcdef.0123456789abcdee') }), want: 'unauthorized' },
  { name: 'bootstrap token: unknown id', attempt: () => ({ authorization: bearer('zzzzzz.0123456789abcdef') }), want: 'unauthorized' },
  { name: 'bootstrap token: expired', attempt: () => ({ authorization: bearer('expird.0123456789abcdef') }), want: 'unauthorized' },
  { name: 'bootstrap token: expiration a bare date (not RFC 3339)', attempt: () => ({ authorization: bearer('bare00.0123456789abcdef') }), want: 'unauthorized' },
  { name: 'bootstrap token: expiration on April 31st', attempt: () => ({ authorization: bearer('apr310.0123456789abcdef') }), want: 'unauthorized' },
  { name: 'bootstrap token: usage-bootstrap-authentication missing', attempt: () => ({ authorization: bearer('nouse0.0123456789abcdef') }), want: 'unauthorized' },
  // service-account tokens
  { name: 'service-account token: control (kubectl create token)', attempt: () => ({ authorization: bearer(fx.saToken) }), want: 'accepted' },
  { name: 'service-account token: control, re-signed unchanged with the server key', attempt: async () => ({ authorization: bearer(await resigned(fx.saToken, fx.saKey, (p) => p)) }), want: 'accepted' },
  { name: 'service-account token: expired (signed with the server key)', attempt: async () => ({ authorization: bearer(await resigned(fx.saToken, fx.saKey, (p) => ({ ...p, iat: now() - 2 * hour, nbf: now() - 2 * hour, exp: now() - hour }))) }), want: 'unauthorized' },
  { name: 'service-account token: expired 20 s ago, inside kube\'s one-minute leeway: accepted', attempt: async () => ({ authorization: bearer(await resigned(fx.saToken, fx.saKey, (p) => ({ ...p, iat: now() - hour, nbf: now() - hour, exp: now() - 20 }))) }), want: 'accepted' },
  { name: 'service-account token: issued two minutes ahead (iat past the leeway)', attempt: async () => ({ authorization: bearer(await resigned(fx.saToken, fx.saKey, (p) => ({ ...p, iat: now() + 120, nbf: now() - 60 }))) }), want: 'unauthorized' },
  { name: 'service-account token: no exp at all (signed with the server key)', attempt: async () => ({ authorization: bearer(await resigned(fx.saToken, fx.saKey, (p) => ({ ...p, exp: undefined }))) }), want: 'unauthorized' },
  { name: 'service-account token: not yet valid (nbf in an hour)', attempt: async () => ({ authorization: bearer(await resigned(fx.saToken, fx.saKey, (p) => ({ ...p, nbf: now() + hour }))) }), want: 'unauthorized' },
  { name: 'service-account token: wrong audience', attempt: () => ({ authorization: bearer(fx.wrongAudience) }), want: 'unauthorized' },
  { name: 'service-account token: wrong signer, same kid', attempt: async () => ({ authorization: bearer(await resigned(fx.saToken, fx.otherKey, (p) => p)) }), want: 'unauthorized' },
  { name: 'service-account token: account deleted (revoked)', attempt: () => ({ authorization: bearer(fx.revoked) }), want: 'unauthorized' },
  { name: 'service-account token: tampered payload (another account)', attempt: () => ({ authorization: bearer(tampered(fx.saToken, (p) => ({ ...p, sub: `system:serviceaccount:${NS}:gone` }))) }), want: 'unauthorized' },
  { name: 'service-account token: tampered expiry', attempt: () => ({ authorization: bearer(tampered(fx.saToken, (p) => ({ ...p, exp: (p.exp ?? 0) + 1 }))) }), want: 'unauthorized' },
  { name: 'service-account token: alg none', attempt: () => ({ authorization: bearer(algNone(fx.saToken)) }), want: 'unauthorized' },
  { name: 'service-account token: signature stripped', attempt: () => ({ authorization: bearer(fx.saToken.slice(0, fx.saToken.lastIndexOf('.') + 1)) }), want: 'unauthorized' },
  // OIDC ID tokens
  { name: 'OIDC: control', attempt: () => ({ authorization: bearer(fx.oidcToken) }), want: 'accepted' },
  { name: 'OIDC: expired', attempt: async () => ({ authorization: bearer(await issuer.sign({ ...fx.oidcClaims, iat: now() - 3 * hour, exp: now() - 2 * hour })) }), want: 'unauthorized' },
  { name: 'OIDC: wrong audience', attempt: async () => ({ authorization: bearer(await issuer.sign({ ...fx.oidcClaims, aud: 'another-client' })) }), want: 'unauthorized' },
  { name: 'OIDC: wrong signer (a key the issuer does not publish)', attempt: async () => ({ authorization: bearer(await issuer.sign(fx.oidcClaims, { unpublished: true })) }), want: 'unauthorized' },
  { name: 'OIDC: tampered payload', attempt: () => ({ authorization: bearer(tampered(fx.oidcToken, (p) => ({ ...p, sub: 'admin' }))) }), want: 'unauthorized' },
  { name: 'OIDC: alg none', attempt: () => ({ authorization: bearer(algNone(fx.oidcToken)) }), want: 'unauthorized' },
  // the Authorization header itself, as kube's bearertoken authenticator reads it
  { name: 'header: scheme in lower case is accepted, as kube does', attempt: () => ({ authorization: `bearer ${STATIC_TOKEN}` }), want: 'accepted' },
  { name: 'header: words after the token are ignored, as kube does', attempt: () => ({ authorization: `Bearer ${STATIC_TOKEN} trailing words` }), want: 'accepted' },
  { name: 'header: `Bearer` without a token is no credential (anonymous)', attempt: () => ({ authorization: 'Bearer' }), want: 'anonymous' },
  { name: 'header: `Bearer ` and spaces only is no credential (anonymous)', attempt: () => ({ authorization: 'Bearer   ' }), want: 'anonymous' },
  { name: 'header: two spaces before a valid token: ignored, as kube does (anonymous)', attempt: () => ({ authorization: `Bearer  ${STATIC_TOKEN}` }), want: 'anonymous' },
  { name: 'header: a tab before a valid token: not a bearer header (anonymous)', attempt: () => ({ authorization: `Bearer\t${STATIC_TOKEN}` }), want: 'anonymous' },
  { name: 'header: Basic credentials are not read (anonymous)', attempt: () => ({ authorization: `Basic ${Buffer.from('alice:secret').toString('base64')}` }), want: 'anonymous' },
  { name: 'header: a token with non-ASCII bytes', attempt: () => ({ authorization: `Bearer tok-stat\u00efc-0123456789` }), want: 'unauthorized' },
  { name: 'header: a valid token glued to another with a comma', attempt: () => ({ authorization: `Bearer ${STATIC_TOKEN},${STATIC_TOKEN}` }), want: 'unauthorized' },
  { name: 'header: two Authorization headers, a wrong one first', attempt: () => ({ authorization: ['Bearer wrong-token', bearer(STATIC_TOKEN)] }), want: 'unauthorized' },
  { name: 'header: a 12 KiB token', attempt: () => ({ authorization: bearer('x'.repeat(12 * 1024)) }), want: 'unauthorized' },
  { name: 'header: a 12 KiB JWT-looking token', attempt: () => ({ authorization: bearer(`${b64url({ alg: 'RS256' })}.${'A'.repeat(12 * 1024)}.sig`) }), want: 'unauthorized' },
  // Under kube-apiserver's 1 MiB header limit a large token is read and judged (401), not refused as a header (431).
  { name: 'header: a 100 KiB token', attempt: () => ({ authorization: bearer('x'.repeat(100 * 1024)) }), want: 'unauthorized' },
  { name: 'header: a 900 KiB JWT-looking token', attempt: () => ({ authorization: bearer(`${b64url({ alg: 'RS256' })}.${'A'.repeat(900 * 1024)}.sig`) }), want: 'unauthorized' },
  // a bad certificate beside a bad token: both refused, never anonymous
  { name: 'expired certificate and a wrong token', attempt: () => ({ cert: fx.certs.expired, authorization: bearer('wrong-token') }), want: 'unauthorized' },
];

function expectWanted(res: Answer, want: Want, what: string): void {
  if (want === 'unauthorized') {
    expect(res.status, what).toBe(401);
    // kube's 401 says nothing about why.
    expect(res.body, what).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  } else if (want === 'anonymous') {
    expect(res.status, what).toBe(403);
    expect(res.body, what).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403 });
    expect(res.body.message, what).toMatch(/^[a-z]+ is forbidden: User "system:anonymous" cannot/);
  } else {
    expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  }
}

describe('each bad credential is refused and has no effect', () => {
  ROWS.forEach((row, i) => {
    test(row.name, async () => {
      const attempt = await row.attempt();
      const list = await send(attempt, { path: `/api/v1/namespaces/${NS}/configmaps` });
      expectWanted(list, row.want, 'GET');
      const name = `row-${i}`;
      const created = await send(attempt, {
        method: 'POST',
        path: `/api/v1/namespaces/${NS}/configmaps`,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { row: row.name } },
      });
      expectWanted(created, row.want, 'POST');
      // The persisted state: only an accepted credential may have written.
      const stored = await asAdmin({ path: `/api/v1/namespaces/${NS}/configmaps/${name}` });
      expect(stored.status).toBe(row.want === 'accepted' ? 200 : 404);
    });
  });

  test('a header block beyond the limit is 431 with a Status, and the POST stores nothing', async () => {
    // kube-apiserver's limit is Go's MaxHeaderBytes (1 MiB); past it both answer 431.
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'oversized' } });
    const res = await rawHttp1({
      port: server.port,
      chunks: [
        `POST /api/v1/namespaces/${NS}/configmaps HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nAuthorization: Bearer ${'y'.repeat(1100 * 1024)}\r\n\r\n${body}`,
      ],
    });
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ kind: 'Status', status: 'Failure', code: 431, reason: 'BadRequest', message: 'Request Header Fields Too Large' });
    expect((await asAdmin({ path: `/api/v1/namespaces/${NS}/configmaps/oversized` })).status).toBe(404);
  });

  test('the namespace holds exactly what the accepted rows wrote', async () => {
    const list = await adminOk({ path: `/api/v1/namespaces/${NS}/configmaps` });
    const names = (list.items as { metadata: { name: string } }[]).map((i) => i.metadata.name).filter((n) => n.startsWith('row-') || n === 'oversized');
    const accepted = ROWS.flatMap((r, i) => (r.want === 'accepted' ? [`row-${i}`] : []));
    expect(names.sort()).toEqual(accepted.sort());
  });
});

// --- through kubectl ------------------------------------------------------------------------


let configs = 0;
function kubeconfigWith(user: Record<string, string>): string {
  const cfg = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { users: { user: Record<string, string> }[] };
  cfg.users[0]!.user = user;
  const path = join(dir, `kubeconfig-${++configs}`);
  writeFileSync(path, yaml.dump(cfg), { mode: 0o600 });
  return path;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const KUBECTL_ROWS: { name: string; user: () => Record<string, string> | Promise<Record<string, string>> }[] = [
  { name: 'an expired client certificate', user: () => ({ 'client-certificate-data': b64(fx.certs.expired.certPem), 'client-key-data': b64(fx.certs.expired.keyPem) }) },
  { name: 'a certificate of another CA', user: () => ({ 'client-certificate-data': b64(fx.certs.otherCa.certPem), 'client-key-data': b64(fx.certs.otherCa.keyPem) }) },
  { name: 'a wrong static token', user: () => ({ token: 'tok-static-wrong' }) },
  { name: 'a wrong bootstrap token', user: () => ({ token: 'abcdef.0123456789abcdee' }) },
  { name: 'a revoked service-account token', user: () => ({ token: fx.revoked }) },
  { name: 'a service-account token with alg none', user: () => ({ token: algNone(fx.saToken) }) },
  { name: 'an expired OIDC token', user: async () => ({ token: await issuer.sign({ ...fx.oidcClaims, iat: now() - 3 * hour, exp: now() - 2 * hour }) }) },
];

for (const binary of binaries) {
  describe(`${binary.name} with a bad credential`, () => {
    KUBECTL_ROWS.forEach((row, i) => {
      test(`${row.name}: Unauthorized, nothing created`, async () => {
        const name = `kubectl-${binary.name.replace(/\W/g, '')}-${i}`;
        const res = await kubectlAsync(binary, kubeconfigWith(await row.user()), ['-n', NS, 'create', 'configmap', name, '--from-literal=a=b']);
        expect(res.code).not.toBe(0);
        expect(res.stderr).toMatch(/Unauthorized|the server has asked for the client to provide credentials/);
        expect((await asAdmin({ path: `/api/v1/namespaces/${NS}/configmaps/${name}` })).status).toBe(404);
      });
    });
  });
}
