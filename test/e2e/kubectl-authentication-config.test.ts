// --authentication-config with real kubectl (issue #13 part 4, the structured
// form): two JWT issuers on 127.0.0.1 with CEL and claim mappings, an id_token
// kubeconfig (kubectl's oidc auth provider) whose `kubectl auth whoami` shows the
// mapped identity, bad tokens answered 401 with kube's Status, anonymous requests
// limited to the configured paths, the file reloaded while the server runs, and
// bad files stopping the start with one line. The issuers run in this process,
// so kubectl runs asynchronously (kapi fetches keys while kubectl waits).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { base64url, SignJWT } from 'jose';
import { kubectlBinaries, kubectlAsync } from './support/kubectl.js';
import { adminCredentials } from './support/http.js';
import { eventually, startKapi, type RunningKapi } from './support/server.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc-issuer.js';

const ROOT = resolve(import.meta.dirname, '../..');
const binaries = kubectlBinaries(['1.27', '1.33']);
const dir = mkdtempSync(join(tmpdir(), 'kapi-authn-config-'));
const configFile = join(dir, 'authentication-config.yaml');
let a: TestIssuer;
let b: TestIssuer;
let server: RunningKapi;

const now = () => Math.floor(Date.now() / 1000);

function configYaml(bPrefix: string): string {
  const indent = (pem: string) => pem.trim().split('\n').join('\n      ');
  return `apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: ${a.url}
    audiences: [kapi]
    certificateAuthority: |
      ${indent(a.caPem)}
  claimValidationRules:
  - expression: "claims.?email_verified.orValue(false) == true"
    message: email must be verified
  claimMappings:
    username:
      expression: "'oidc:' + claims.email"
    groups:
      expression: "claims.?groups.orValue([]).map(g, 'oidc:' + g)"
    uid:
      claim: sub
    extra:
    - key: example.com/tenant
      valueExpression: "claims.?tenant.orValue('')"
  userValidationRules:
  - expression: "!user.username.startsWith('oidc:system')"
    message: no system names
- issuer:
    url: ${b.url}
    audiences: [other, kapi]
    audienceMatchPolicy: MatchAny
    certificateAuthority: |
      ${indent(b.caPem)}
  claimMappings:
    username:
      claim: sub
      prefix: "${bPrefix}"
anonymous:
  enabled: true
  conditions:
  - path: /livez
  - path: /version
`;
}

/** Replaced at once, as config management does, so the server never reads half a file. */
function writeConfig(text: string): void {
  writeFileSync(`${configFile}.tmp`, text);
  renameSync(`${configFile}.tmp`, configFile);
}


/** A kubeconfig whose user is kubectl's oidc auth provider holding the id_token (no refresh: the token is valid). */
function idTokenKubeconfig(idToken: string, issuerUrl: string, name: string): string {
  const cfg = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { users: { user: Record<string, unknown> }[] };
  cfg.users[0]!.user = { 'auth-provider': { name: 'oidc', config: { 'idp-issuer-url': issuerUrl, 'client-id': 'kapi', 'id-token': idToken } } };
  const path = join(dir, `kubeconfig-${name}`);
  writeFileSync(path, yaml.dump(cfg), { mode: 0o600 });
  return path;
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** One HTTPS request with a bearer token (or none), trusting the server's CA. */
function send(token: string | undefined, opts: { method?: string; path: string; body?: unknown }): Promise<Answer> {
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const { ca } = adminCredentials(server.kubeconfig);
  return new Promise((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: opts.method ?? 'GET',
        path: opts.path,
        ca,
        headers: {
          accept: 'application/json',
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Record<string, unknown> = {};
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = { text };
          }
          done({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

const whoami = (token: string) => send(token, { method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });

function aClaims(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { iss: a.url, aud: 'kapi', sub: 'u-1', email: 'alice@example.com', email_verified: true, groups: ['dev'], tenant: 't1', iat: now(), exp: now() + 600, ...over };
}

const UNAUTHORIZED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

describe('a server with --authentication-config', () => {
  beforeAll(async () => {
    [a, b] = await Promise.all([startTestIssuer(), startTestIssuer()]);
    await Promise.all([a.addKey('RS256'), b.addKey('ES256')]);
    writeConfig(configYaml('b:'));
    server = await startKapi({ args: [`--authentication-config=${configFile}`] });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await Promise.all([a?.close(), b?.close()]);
  });

  for (const binary of binaries) {
    test(`${binary.name}: an id_token kubeconfig shows the identity the CEL mappings make`, async () => {
      const token = await a.sign(aClaims());
      const res = await kubectlAsync(binary, idTokenKubeconfig(token, a.url, `a-${binary.name}`), ['auth', 'whoami', '-o', 'json']);
      expect(res.stderr).toBe('');
      expect(JSON.parse(res.stdout).status.userInfo).toEqual({
        username: 'oidc:alice@example.com',
        uid: 'u-1',
        groups: ['oidc:dev', 'system:authenticated'],
        extra: { 'example.com/tenant': ['t1'] },
      });
    });

    test(`${binary.name}: the second issuer maps with its claim and prefix`, async () => {
      const token = await b.sign({ iss: b.url, aud: 'kapi', sub: 'u-2', iat: now(), exp: now() + 600 });
      const res = await kubectlAsync(binary, idTokenKubeconfig(token, b.url, `b-${binary.name}`), ['auth', 'whoami', '-o', 'json']);
      expect(res.stderr).toBe('');
      expect(JSON.parse(res.stdout).status.userInfo).toEqual({ username: 'b:u-2', groups: ['system:authenticated'] });
    });

    test(`${binary.name}: a token failing a claim validation rule is Unauthorized`, async () => {
      const token = await a.sign(aClaims({ email_verified: false }));
      const res = await kubectlAsync(binary, idTokenKubeconfig(token, a.url, `bad-${binary.name}`), ['auth', 'whoami', '-o', 'json']);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(/Unauthorized|provide credentials/);
    });
  }

  test('bad tokens are 401 with kube Status and change nothing', async () => {
    const cases: { name: string; token: () => Promise<string> }[] = [
      { name: 'expired', token: () => a.sign(aClaims({ exp: now() - 3600, iat: now() - 7200 })) },
      { name: 'another audience', token: () => a.sign(aClaims({ aud: 'someone-else' })) },
      { name: 'an issuer nobody trusts', token: () => a.sign(aClaims({ iss: 'https://elsewhere.example' })) },
      { name: "one issuer's name, the other's key", token: () => b.sign(aClaims()) },
      {
        name: 'a tampered payload',
        token: async () => {
          const [h, , s] = (await a.sign(aClaims())).split('.');
          return `${h}.${base64url.encode(JSON.stringify(aClaims({ email: 'root@example.com' })))}.${s}`;
        },
      },
      { name: 'alg none', token: async () => `${base64url.encode(JSON.stringify({ alg: 'none' }))}.${base64url.encode(JSON.stringify(aClaims()))}.` },
      { name: 'HS256', token: () => new SignJWT(aClaims()).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32)) },
      { name: 'a failing claim validation rule', token: () => a.sign(aClaims({ email_verified: false })) },
      { name: 'a failing user validation rule', token: () => a.sign(aClaims({ email: 'system:admin' })) },
      { name: 'an expression reading an absent claim', token: () => a.sign(aClaims({ email: undefined })) },
    ];
    for (const c of cases) {
      const token = await c.token();
      const res = await send(token, { method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `bad-${c.name.replace(/[^a-z]/g, '')}` } } });
      expect({ name: c.name, status: res.status, body: res.body }).toEqual({ name: c.name, status: 401, body: UNAUTHORIZED });
    }
    const admin = (await send(undefined, { path: '/api/v1/namespaces' })).status;
    expect(admin).toBe(401);
  });

  test('anonymous requests reach only the configured paths', async () => {
    expect((await send(undefined, { path: '/livez' })).status).toBe(200);
    expect((await send(undefined, { path: '/version' })).status).toBe(200);
    expect(await send(undefined, { path: '/readyz' })).toEqual({ status: 401, body: UNAUTHORIZED });
    expect(await send(undefined, { path: '/api' })).toEqual({ status: 401, body: UNAUTHORIZED });
  });

  test('a changed file is applied; a broken one leaves the last good configuration serving', async () => {
    const token = await b.sign({ iss: b.url, aud: 'kapi', sub: 'u-2', iat: now(), exp: now() + 600 });
    writeConfig(configYaml('b2:'));
    await eventually('the new prefix', async () => {
      const res = await whoami(token);
      return (res.body.status as { userInfo?: { username?: string } } | undefined)?.userInfo?.username === 'b2:u-2';
    });
    writeConfig(configYaml('b3:').replace('url: https', 'url: http'));
    await eventually('the refusal in the log', () => server.logs().includes('URL scheme must be https'));
    const res = await whoami(token);
    expect((res.body.status as { userInfo: { username: string } }).userInfo.username).toBe('b2:u-2');
  });
});

describe('a bad --authentication-config stops the start with one line', () => {
  const write = (name: string, text: string | Buffer) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const valid = (extra = '') => `apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt: []\n${extra}`;
  const cases: { name: string; args: () => string[]; want: RegExp }[] = [
    {
      name: 'an http issuer',
      args: () => [`--authentication-config=${write('http.yaml', 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: "http://x", audiences: [k]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n')}`],
      want: /^kapi: invalid authentication configuration: jwt\[0\]\.issuer\.url: Invalid value: "http:\/\/x": URL scheme must be https$/,
    },
    { name: 'with an --oidc-* flag', args: () => [`--authentication-config=${write('ok.yaml', valid())}`, '--oidc-issuer-url=https://x'], want: /^kapi: authentication-config file and oidc-\* flags are mutually exclusive$/ },
    {
      name: 'anonymous beside --anonymous-auth',
      args: () => [`--authentication-config=${write('anon.yaml', valid('anonymous: {enabled: true}\n'))}`, '--anonymous-auth=false'],
      want: /^kapi: anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file$/,
    },
    { name: 'a missing file', args: () => [`--authentication-config=${join(dir, 'absent.yaml')}`], want: /^kapi: failed to load authentication configuration from file ".*absent\.yaml": open .*: no such file or directory$/ },
    { name: 'deeply nested YAML', args: () => [`--authentication-config=${write('deep.yaml', valid(`x: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`))}`], want: /^kapi: failed to load authentication configuration from file ".*": error converting YAML to JSON: yaml: exceeded max depth of 1000$/ },
    { name: 'a __proto__ key', args: () => [`--authentication-config=${write('proto.yaml', valid('__proto__: {jwt: [1]}\n'))}`], want: /^kapi: failed to load authentication configuration from file ".*": strict decoding error: unknown field "__proto__"$/ },
    { name: 'a huge file', args: () => [`--authentication-config=${write('huge.yaml', valid(`# ${'x'.repeat(4 * 1024 * 1024)}\n`))}`], want: /^kapi: failed to load authentication configuration from file ".*": file is larger than 3145728 bytes$/ },
    {
      name: 'a CEL expression nested past the limit',
      args: () => [
        `--authentication-config=${write('cel.yaml', `apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: "https://x", audiences: [k]}\n  claimMappings: {username: {expression: "${'['.repeat(400)}claims.sub${']'.repeat(400)}[0]"}}\n`)}`,
      ],
      want: /^kapi: invalid authentication configuration: jwt\[0\]\.claimMappings\.username\.expression: Invalid value: ".*": compilation failed: (max recursion depth exceeded|Exceeded maxDepth \(250\))/,
    },
  ];
  cases.forEach((c, i) => {
    test(`${c.name}: exit 1`, () => {
      const res = spawnSync(process.execPath, [join(ROOT, 'bin/kapi.js'), ...c.args(), `--data-dir=${join(dir, `bad-${i}`)}`, '--secure-port=1'], { encoding: 'utf8', timeout: 30_000 });
      expect(res.status).toBe(1);
      const lines = res.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(c.want);
    });
  });
});
