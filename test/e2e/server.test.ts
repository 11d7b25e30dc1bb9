// The running server over real sockets: TLS with HTTP/2 and HTTP/1.1, x509
// authentication, public-info paths, authorization modes, metrics, bad input
// and bad flags. Each case asserts the status code and the Status body.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { connect as tlsConnect } from 'node:tls';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { issueClientCertificate } from '../../src/auth/pki/issue.js';
import { startKapi, type RunningKapi } from './support/server.js';
import { adminCredentials, call, type Credentials } from './support/http.js';

describe('a default server', () => {
  let server: RunningKapi;
  let admin: Required<Credentials>;
  beforeAll(async () => {
    server = await startKapi();
    admin = adminCredentials(server.kubeconfig);
  }, 60_000);
  afterAll(async () => server?.stop());

  test('/version is readable without credentials and names 1.36', async () => {
    const res = await call(server, { ca: admin.ca }, { path: '/version' });
    expect(res.status).toBe(200);
    const info = res.json();
    expect(info).toMatchObject({ major: '1', minor: '36', gitTreeState: 'clean', compiler: 'tsc' });
    expect(info.gitVersion).toMatch(/^v1\.36\.0\+kapi$/);
    for (const field of ['gitCommit', 'buildDate', 'goVersion', 'platform']) expect(typeof info[field]).toBe('string');
  });

  test('health and version are public (system:public-info-viewer); anything else is 403 for system:anonymous (--anonymous-auth defaults to true)', async () => {
    const anonymous = { ca: admin.ca };
    for (const path of ['/readyz', '/livez', '/healthz', '/version']) {
      expect((await call(server, anonymous, { path })).status, path).toBe(200);
    }
    // Discovery is system:discovery's, bound to system:authenticated only (kube since 1.14).
    for (const path of ['/api', '/apis', '/api/v1']) {
      const res = await call(server, anonymous, { path });
      expect(res.status, path).toBe(403);
      expect(res.json().message).toBe(`forbidden: User "system:anonymous" cannot get path "${path}"`);
    }
    const res = await call(server, anonymous, { path: '/api/v1/namespaces' });
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { kind: 'namespaces' },
      code: 403,
    });
    const metrics = await call(server, anonymous, { path: '/metrics' });
    expect(metrics.status).toBe(403);
    expect(metrics.json().message).toBe('forbidden: User "system:anonymous" cannot get path "/metrics"');
  });

  test('a client certificate from another CA is refused with 401', async () => {
    const { createCertificateAuthority } = await import('../../src/auth/pki/issue.js');
    const otherCa = await createCertificateAuthority({ commonName: 'other-ca', validityDays: 1, clock: () => new Date() });
    const stranger = await issueClientCertificate({ ca: otherCa, commonName: 'mallory', organizations: ['system:masters'], validityDays: 1 });
    const res = await call(server, { ca: admin.ca, cert: stranger.certPem, key: stranger.keyPem }, { path: '/api/v1/namespaces' });
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized' });
  });

  test('HTTP/2 is negotiated by ALPN and serves the same API', async () => {
    const session = connect(server.url, { ca: admin.ca, cert: admin.cert, key: admin.key });
    try {
      const answer = await new Promise<{ status: number; body: string }>((ok, fail) => {
        const stream = session.request({ ':path': '/api/v1/namespaces/default', accept: 'application/json' });
        let status = 0;
        let body = '';
        stream.on('response', (h) => (status = Number(h[':status'])));
        stream.on('data', (c: Buffer) => (body += c.toString()));
        stream.on('end', () => ok({ status, body }));
        stream.on('error', fail);
        stream.end();
      });
      expect(session.alpnProtocol).toBe('h2');
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Namespace', metadata: { name: 'default' } });
    } finally {
      session.close();
    }
  });

  test('one metrics series per request, labelled like kube-apiserver', async () => {
    await call(server, admin, { path: '/api/v1/namespaces/default/configmaps' });
    const text = (await call(server, admin, { path: '/metrics' })).body.toString();
    expect(text).toMatch(
      /apiserver_request_total\{verb="LIST",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="200"\} [1-9]/,
    );
    expect(text).toMatch(/apiserver_request_duration_seconds_bucket\{le="0.005",verb="LIST"/);
  });

  const badInputs: { name: string; method: string; path: string; headers?: Record<string, string>; body?: string | Buffer; want: { status: number; reason: string } }[] = [
    {
      name: 'malformed JSON body',
      method: 'POST', path: '/api/v1/namespaces/default/configmaps',
      headers: { 'content-type': 'application/json' }, body: '{"apiVersion": "v1", "kind": ',
      want: { status: 400, reason: 'BadRequest' },
    },
    {
      name: 'malformed YAML body',
      method: 'POST', path: '/api/v1/namespaces/default/configmaps',
      headers: { 'content-type': 'application/yaml' }, body: 'apiVersion: v1\nkind: [ConfigMap\n',
      want: { status: 400, reason: 'BadRequest' },
    },
    {
      name: 'protobuf body without the k8s envelope',
      method: 'POST', path: '/api/v1/namespaces/default/configmaps',
      headers: { 'content-type': 'application/vnd.kubernetes.protobuf' }, body: Buffer.from([0x0a, 0x05, 0xff, 0xff]),
      want: { status: 400, reason: 'BadRequest' },
    },
    {
      name: 'wrong kind for the endpoint',
      method: 'POST', path: '/api/v1/namespaces/default/configmaps',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } }),
      want: { status: 400, reason: 'BadRequest' },
    },
    {
      name: 'unsupported media type',
      method: 'POST', path: '/api/v1/namespaces/default/configmaps',
      headers: { 'content-type': 'text/plain' }, body: 'hello',
      want: { status: 415, reason: 'UnsupportedMediaType' },
    },
    {
      name: 'body over 3 MiB',
      method: 'POST', path: '/api/v1/namespaces/default/configmaps',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { a: 'x'.repeat(3 * 1024 * 1024 + 10) } }),
      want: { status: 413, reason: 'RequestEntityTooLarge' },
    },
    { name: 'unknown resource path', method: 'GET', path: '/api/v1/widgets', want: { status: 404, reason: 'NotFound' } },
    { name: 'unknown non-resource path', method: 'GET', path: '/no/such/thing', want: { status: 404, reason: 'NotFound' } },
    { name: 'unacceptable Accept', method: 'GET', path: '/api/v1/namespaces/default', headers: { accept: 'text/html' }, want: { status: 406, reason: 'NotAcceptable' } },
    {
      name: 'invalid name',
      method: 'POST', path: '/api/v1/namespaces/default/configmaps',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Not_Valid' } }),
      want: { status: 422, reason: 'Invalid' },
    },
    {
      name: 'malformed TokenRequest',
      method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/default/token',
      headers: { 'content-type': 'application/json' }, body: '{"kind":"TokenRequest",',
      want: { status: 400, reason: 'BadRequest' },
    },
    {
      name: 'TokenRequest of the wrong kind',
      method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/default/token',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }),
      want: { status: 400, reason: 'BadRequest' },
    },
    {
      name: 'TokenRequest over 3 MiB',
      method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/default/token',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['x'.repeat(3 * 1024 * 1024 + 10)] } }),
      want: { status: 413, reason: 'RequestEntityTooLarge' },
    },
    {
      name: 'TokenRequest binding an unsupported kind',
      method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/default/token',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } } }),
      want: { status: 422, reason: 'Invalid' },
    },
    { name: 'GET of the token subresource', method: 'GET', path: '/api/v1/namespaces/default/serviceaccounts/default/token', want: { status: 405, reason: 'MethodNotAllowed' } },
    {
      name: 'namespace that does not exist',
      method: 'POST', path: '/api/v1/namespaces/nowhere/configmaps',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }),
      want: { status: 404, reason: 'NotFound' },
    },
  ];
  for (const c of badInputs) {
    test(`bad input: ${c.name} -> ${c.want.status} ${c.want.reason}`, async () => {
      const res = await call(server, admin, { method: c.method, path: c.path, headers: c.headers ?? {}, ...(c.body === undefined ? {} : { body: c.body }) });
      expect(res.status).toBe(c.want.status);
      const body = res.json();
      expect(body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: c.want.reason, code: c.want.status });
      expect(typeof body.message).toBe('string');
      expect(res.body.toString().endsWith('\n')).toBe(true);
    });
  }

  test('token requests and the issuer documents are refused to system:anonymous (403), a bad bearer token is 401', async () => {
    const anonymous = { ca: admin.ca };
    const token = await call(server, anonymous, {
      method: 'POST',
      path: '/api/v1/namespaces/default/serviceaccounts/default/token',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }),
    });
    expect(token.status).toBe(403);
    expect(token.json()).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: 'serviceaccounts "default" is forbidden: User "system:anonymous" cannot create resource "serviceaccounts/token" in API group "" in the namespace "default"',
    });
    // kube's default policy gives the issuer documents to system:serviceaccounts only.
    for (const path of ['/.well-known/openid-configuration', '/openid/v1/jwks']) {
      expect((await call(server, anonymous, { path })).status).toBe(403);
    }
    const bad = await call(server, anonymous, { path: '/api/v1/namespaces', headers: { authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.e30.AAAA' } });
    expect(bad.status).toBe(401);
    expect(bad.json().reason).toBe('Unauthorized');
  });

  test('a 409 body is byte-compatible with kube-apiserver', async () => {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dup' } });
    const first = await call(server, admin, { method: 'POST', path: '/api/v1/namespaces/default/configmaps', headers: { 'content-type': 'application/json' }, body });
    expect(first.status).toBe(201);
    const again = await call(server, admin, { method: 'POST', path: '/api/v1/namespaces/default/configmaps', headers: { 'content-type': 'application/json' }, body });
    expect(again.status).toBe(409);
    expect(again.body.toString()).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"dup\\" already exists","reason":"AlreadyExists","details":{"name":"dup","kind":"configmaps"},"code":409}\n',
    );
  });
  test('a client that leaves mid-body writes nothing and the server keeps serving', async () => {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'half' }, data: { k: 'v'.repeat(4000) } });
    const socket = tlsConnect({ host: '127.0.0.1', port: server.port, ca: admin.ca, cert: admin.cert, key: admin.key, servername: 'localhost', ALPNProtocols: ['http/1.1'] });
    await new Promise<void>((ok, fail) => {
      socket.once('secureConnect', ok);
      socket.once('error', fail);
    });
    const closed = new Promise((ok) => socket.once('close', ok));
    socket.write(
      `POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 100)}`,
    );
    // Let the server start reading the body, then go away without the rest.
    await new Promise((ok) => setImmediate(ok));
    socket.destroy();
    await closed;
    const get = await call(server, admin, { path: '/api/v1/namespaces/default/configmaps/half' });
    expect(get.status).toBe(404);
    expect(get.json().reason).toBe('NotFound');
    const ready = await call(server, admin, { path: '/readyz' });
    expect(ready.status).toBe(200);
  });
});

describe('--authorization-mode=AlwaysDeny', () => {
  let server: RunningKapi;
  beforeAll(async () => {
    server = await startKapi({ args: ['--authorization-mode=AlwaysDeny'] });
  }, 60_000);
  afterAll(async () => server?.stop());

  test('system:masters is still allowed, anyone else gets kube’s 403', async () => {
    const admin = adminCredentials(server.kubeconfig);
    expect((await call(server, admin, { path: '/api/v1/namespaces' })).status).toBe(200);
    const ca = { certPem: readFileSync(join(server.dataDir, 'pki/ca.crt'), 'utf8'), keyPem: readFileSync(join(server.dataDir, 'pki/ca.key'), 'utf8') };
    const bob = await issueClientCertificate({ ca, commonName: 'bob', organizations: ['dev'], validityDays: 1 });
    const res = await call(server, { ca: admin.ca, cert: bob.certPem, key: bob.keyPem }, { path: '/api/v1/namespaces/default/pods' });
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: expect.stringMatching(/^pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default"/),
      details: { kind: 'pods' },
    });
  });
});

describe('AlwaysDeny holds for anonymous requests too', () => {
  test('even the public paths are denied to system:anonymous under AlwaysDeny', async () => {
    const server = await startKapi({ args: ['--authorization-mode=AlwaysDeny'] });
    try {
      const anonymous = { ca: adminCredentials(server.kubeconfig).ca };
      const res = await call(server, anonymous, { path: '/version' });
      expect(res.status).toBe(403);
      expect(res.json().message).toMatch(/^forbidden: User "system:anonymous" cannot get path "\/version"/);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe('--anonymous-auth=false', () => {
  let server: RunningKapi;
  beforeAll(async () => {
    server = await startKapi({ args: ['--anonymous-auth=false'] });
  }, 60_000);
  afterAll(async () => server?.stop());

  test('every request without credentials is 401, health included; credentials still work', async () => {
    const admin = adminCredentials(server.kubeconfig);
    for (const path of ['/readyz', '/version', '/api', '/api/v1/namespaces', '/openid/v1/jwks']) {
      const res = await call(server, { ca: admin.ca }, { path });
      expect(res.status, path).toBe(401);
      expect(res.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    }
    expect((await call(server, admin, { path: '/api/v1/namespaces' })).status).toBe(200);
  });
});

describe('start-up errors', () => {
  const ROOT = resolve(import.meta.dirname, '../..');
  const cases = [
    { name: 'unknown flag', args: ['--no-such-flag=1'], want: /^kapi: .*unknown flag: --no-such-flag/ },
    { name: 'unreadable certificate file', args: ['--tls-cert-file=/nonexistent/cert.pem', '--tls-private-key-file=/nonexistent/key.pem'], want: /^kapi: .*--tls-cert-file "\/nonexistent\/cert.pem": no such file or directory/ },
    { name: 'bad port', args: ['--secure-port=70000'], want: /^kapi: .*secure-port/ },
    { name: 'etcd3 without servers', args: ['--storage-backend=etcd3'], want: /^kapi: .*etcd-servers/ },
  ];
  for (const c of cases) {
    test(`${c.name}: one clear line, exit 1`, () => {
      const res = spawnSync(process.execPath, [join(ROOT, 'bin/kapi.js'), ...c.args], { encoding: 'utf8', timeout: 20_000 });
      expect(res.status).toBe(1);
      const lines = res.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(c.want);
    });
  }
});
