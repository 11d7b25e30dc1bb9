// Real TLS connections, HTTP/1.1 and HTTP/2, with the server configured as kapi's
// is (request a client certificate, don't require it): the certificate reaches
// the authenticator through peerCertificateOf and maps to the right user or a 401.
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import { connect as http2Connect, createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAuthenticator } from '../../../src/auth/authn/create.js';
import { createRequestAuthenticator } from '../../../src/auth/authn/request.js';
import { isStatusError } from '../../../src/errors/status-error.js';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../../src/auth/pki/issue.js';
import { makeFixtures, NOW, type Fixtures } from './fixtures.js';

type Transport = 'http/1.1' | 'h2';
const DAY = 24 * 60 * 60 * 1000;

let f: Fixtures;
let serving: CertificateAndKey;
let servingCa: CertificateAndKey;
let now = NOW;
const servers: Array<{ close: () => void }> = [];
const ports: Record<Transport, number> = { 'http/1.1': 0, h2: 0 };

async function handle(req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): Promise<void> {
  const authenticate = createRequestAuthenticator({ authenticator: createAuthenticator({ clientCaPem: f.ca.certPem, clock: () => now }) });
  try {
    const user = await authenticate({ headers: req.headers, raw: req });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(user ?? null));
  } catch (err) {
    res.writeHead(isStatusError(err) ? err.code : 500);
    res.end(isStatusError(err) ? JSON.stringify(err.toStatus()) : String(err));
  }
}

beforeAll(async () => {
  f = await makeFixtures();
  // The fixtures live in 2030 (injected clock); the TLS client checks the serving
  // chain against the real clock, so serving has a CA of its own.
  servingCa = await createCertificateAuthority({ commonName: 'serving-ca', validityDays: 2, clock: () => new Date() });
  serving = await issueCertificate({ ca: servingCa, commonName: 'kapi', usage: 'server', hosts: ['127.0.0.1'], validityDays: 1, clock: () => new Date() });
  const tls = { key: serving.keyPem, cert: serving.certPem, ca: f.ca.certPem, requestCert: true, rejectUnauthorized: false };
  const h1 = createHttpsServer(tls, (req, res) => void handle(req, res));
  const h2 = createSecureServer({ ...tls, allowHTTP1: false }, (req, res) => void handle(req, res));
  for (const [transport, server] of [['http/1.1', h1], ['h2', h2]] as const) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ports[transport] = (server.address() as AddressInfo).port;
    servers.push(server);
  }
});
afterAll(() => {
  for (const server of servers) server.close();
});

async function call(opts: { transport: Transport; client?: CertificateAndKey }): Promise<{ status: number; body: string }> {
  const tlsClient = { ca: servingCa.certPem, ...(opts.client === undefined ? {} : { cert: opts.client.certPem, key: opts.client.keyPem }) };
  if (opts.transport === 'http/1.1') {
    return new Promise((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port: ports['http/1.1'], path: '/', agent: false, ...tlsClient }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }
  const session = http2Connect(`https://127.0.0.1:${ports.h2}`, tlsClient);
  try {
    return await new Promise((resolve, reject) => {
      session.on('error', reject);
      const stream = session.request({ ':path': '/' });
      let status = 0;
      let body = '';
      stream.on('response', (headers) => (status = Number(headers[':status'])));
      stream.on('data', (chunk: Buffer) => (body += chunk.toString()));
      stream.on('end', () => resolve({ status, body }));
      stream.on('error', reject);
      stream.end();
    });
  } finally {
    session.close();
  }
}

describe.each<Transport>(['http/1.1', 'h2'])('client certificates over %s', (transport) => {
  const cases: Array<{ name: string; client?: (f: Fixtures) => CertificateAndKey; at?: Date; want: { status: number; user?: unknown } }> = [
    {
      name: 'admin certificate',
      client: (f) => f.admin,
      want: { status: 200, user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] } },
    },
    {
      name: 'leaf and intermediate sent by the client',
      client: (f) => ({ certPem: f.viaIntermediate.certPem + f.intermediate.certPem, keyPem: f.viaIntermediate.keyPem }),
      want: { status: 200, user: { username: 'carol', groups: ['team', 'system:authenticated'] } },
    },
    { name: 'leaf without its intermediate: 401', client: (f) => f.viaIntermediate, want: { status: 401 } },
    { name: 'no certificate: no user', want: { status: 200, user: null } },
    { name: 'certificate from another CA: 401', client: (f) => f.fromOtherCa, want: { status: 401 } },
    { name: 'expired certificate: 401', client: (f) => f.admin, at: new Date(NOW.getTime() + 400 * DAY), want: { status: 401 } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      now = c.at ?? NOW;
      const res = await call({ transport, ...(c.client === undefined ? {} : { client: c.client(f) }) });
      expect(res.status).toBe(c.want.status);
      if (c.want.status === 401) {
        expect(JSON.parse(res.body)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
      } else if (c.want.user === null) {
        expect(JSON.parse(res.body)).toBeNull();
      } else {
        expect(JSON.parse(res.body)).toMatchObject(c.want.user as object);
      }
    });
  }
});
