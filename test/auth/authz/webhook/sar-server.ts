// A SubjectAccessReview webhook for tests: HTTPS on 127.0.0.1 (a free port) with
// a CA of its own, asking for a client certificate, recording every request as
// it arrived (body text, Authorization header, client certificate CN) and
// answering from a script the test sets. It also writes kubeconfig files that
// point at it. The test that starts it stops it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../../../src/auth/pki/issue.js';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  /** The client certificate's CN, '' when none was sent. */
  readonly clientCn: string;
}

/**
 * An answer: a status and body; or a connection that never answers, is reset
 * (RST), or is closed without answering; or a body cut off after its first bytes
 * (`partial`) or never finished (`stall`).
 */
export type Answer = { readonly status?: number; readonly body: string; readonly headers?: Readonly<Record<string, string>> } | 'hang' | 'reset' | 'close' | 'partial' | 'stall';

export interface SarServer {
  readonly url: string;
  readonly ca: CertificateAndKey;
  /** A client certificate the server's CA signed (CN kapi-apiserver). */
  readonly client: CertificateAndKey;
  readonly requests: ReceivedRequest[];
  /** Answers for the next requests, in order; when none is left, `fallback` answers. */
  readonly script: Answer[];
  fallback: Answer;
  /** Writes a kubeconfig for this server into a fresh folder and answers its path. */
  kubeconfig(opts?: { path?: string; token?: string; withClientCert?: boolean; inlineCa?: boolean }): string;
  close(): Promise<void>;
}

export const allow = (reason = ''): Answer => ({ body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: { allowed: true, ...(reason === '' ? {} : { reason }) } }) });
export const deny = (reason = ''): Answer => ({ body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: { allowed: false, denied: true, ...(reason === '' ? {} : { reason }) } }) });
export const noOpinion = (reason = ''): Answer => ({ body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: { allowed: false, ...(reason === '' ? {} : { reason }) } }) });

export async function startSarServer(): Promise<SarServer> {
  const clock = () => new Date();
  const ca = await createCertificateAuthority({ commonName: 'sar-webhook-ca', validityDays: 1, clock });
  const serving = await issueCertificate({ ca, commonName: '127.0.0.1', usage: 'server', hosts: ['127.0.0.1'], validityDays: 1, clock });
  const client = await issueCertificate({ ca, commonName: 'kapi-apiserver', usage: 'client', validityDays: 1, clock });
  const requests: ReceivedRequest[] = [];
  const script: Answer[] = [];
  const state = { fallback: allow() as Answer };
  const server: Server = createServer({ key: serving.keyPem, cert: serving.certPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        clientCn: typeof peer?.subject?.CN === 'string' ? peer.subject.CN : '',
      });
      const answer = script.shift() ?? state.fallback;
      if (answer === 'hang') return;
      // A TLS socket cannot send an RST itself; the TCP socket under it can.
      if (answer === 'reset') return void raw.get(req.socket.remotePort ?? 0)?.resetAndDestroy();
      if (answer === 'close') return void req.socket.destroy();
      if (answer === 'partial' || answer === 'stall') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"status":');
        if (answer === 'partial') setImmediate(() => req.socket.destroy());
        return;
      }
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body);
    });
  });
  const raw = new Map<number, Socket>();
  server.on('connection', (socket: Socket) => {
    raw.set(socket.remotePort ?? 0, socket);
    socket.on('close', () => raw.delete(socket.remotePort ?? 0));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'kapi-sar-'));
  let files = 0;
  return {
    url,
    ca,
    client,
    requests,
    script,
    get fallback() {
      return state.fallback;
    },
    set fallback(a: Answer) {
      state.fallback = a;
    },
    kubeconfig(opts = {}) {
      const file = join(dir, `kubeconfig-${++files}.yaml`);
      writeFileSync(join(dir, 'ca.crt'), ca.certPem);
      const b64 = (s: string) => Buffer.from(s).toString('base64');
      const user: Record<string, string> = {};
      if (opts.withClientCert ?? true) Object.assign(user, { 'client-certificate-data': b64(client.certPem), 'client-key-data': b64(client.keyPem) });
      if (opts.token !== undefined) user.token = opts.token;
      const cluster = { server: `${url}${opts.path ?? '/authorize'}`, ...(opts.inlineCa === false ? { 'certificate-authority': 'ca.crt' } : { 'certificate-authority-data': b64(ca.certPem) }) };
      writeFileSync(
        file,
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [{ name: 'authz', cluster }],
          users: [{ name: 'apiserver', user }],
          contexts: [{ name: 'webhook', context: { cluster: 'authz', user: 'apiserver' } }],
          'current-context': 'webhook',
        }),
      );
      return file;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
