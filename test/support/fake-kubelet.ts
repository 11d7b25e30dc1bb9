// A kubelet's log endpoint for tests: HTTPS on 127.0.0.1 (a free port) with a
// serving certificate of its own CA, asking for client certificates of a second CA.
// GET /containerLogs/<ns>/<pod>/<container> answers the lines the test gave that
// container, or, for a container named after an answer, that answer: `refuse-<code>`
// answers <code> with the body `refused <code>`, `redirect` a 302. With follow=true
// the response stays open and `push` sends more lines until the test ends it.
// Every request is recorded with the client certificate's common name. The test
// that starts it stops it.
import { createServer, type Server } from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../src/auth/pki/issue.js';

export interface KubeletRequest {
  readonly path: string;
  readonly query: Record<string, string>;
  /** The client certificate's CN; '' when the client sent none. */
  readonly clientCommonName: string;
}

export interface FakeKubelet {
  readonly port: number;
  /** The CA that signed the kubelet's serving certificate (--kubelet-certificate-authority). */
  readonly servingCaPem: string;
  /** A client certificate and key the kubelet accepts (--kubelet-client-certificate/-key). */
  readonly client: CertificateAndKey;
  readonly requests: KubeletRequest[];
  /** The log of a container, by `<ns>/<pod>/<container>`. */
  setLog(container: string, lines: readonly string[]): void;
  /** Sends a line to every open follow of that container; answers how many streams got it. */
  push(container: string, line: string): number;
  /** Open follow streams of that container. */
  following(container: string): number;
  stop(): Promise<void>;
}

export async function startFakeKubelet(): Promise<FakeKubelet> {
  const clock = () => new Date();
  const servingCa = await createCertificateAuthority({ commonName: 'fake-kubelet-serving-ca', validityDays: 1, clock });
  const serving = await issueCertificate({ ca: servingCa, commonName: '127.0.0.1', usage: 'server', hosts: ['127.0.0.1'], validityDays: 1, clock });
  const clientCa = await createCertificateAuthority({ commonName: 'fake-kubelet-client-ca', validityDays: 1, clock });
  const client = await issueCertificate({ ca: clientCa, commonName: 'kube-apiserver-kubelet-client', organizations: ['kubeadm:cluster-admins'], usage: 'client', validityDays: 1, clock });
  const logs = new Map<string, readonly string[]>();
  const streams = new Map<string, Set<ServerResponse>>();
  const requests: KubeletRequest[] = [];

  const server: Server = createServer({ key: serving.keyPem, cert: serving.certPem, ca: clientCa.certPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    requests.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), clientCommonName: typeof peer?.subject?.CN === 'string' ? peer.subject.CN : '' });
    const match = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (req.method !== 'GET' || match === null) {
      res.writeHead(404).end('404 page not found');
      return;
    }
    const container = match.slice(1).map(decodeURIComponent).join('/');
    const name = decodeURIComponent(match[3]!);
    const refused = /^refuse-(\d{3})$/.exec(name);
    if (refused !== null) {
      res.writeHead(Number(refused[1]), { 'content-type': 'text/plain' }).end(`refused ${refused[1]}`);
      return;
    }
    if (name === 'redirect') {
      res.writeHead(302, { location: 'https://example.invalid/' }).end();
      return;
    }
    const lines = logs.get(container) ?? [];
    const tail = url.searchParams.get('tailLines');
    const shown = tail === null ? lines : lines.slice(Math.max(0, lines.length - Number(tail)));
    res.writeHead(200, { 'content-type': 'text/plain' });
    for (const line of shown) res.write(`${line}\n`);
    if (url.searchParams.get('follow') !== 'true') {
      res.end();
      return;
    }
    const open = streams.get(container) ?? new Set<ServerResponse>();
    streams.set(container, open);
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    servingCaPem: servingCa.certPem,
    client,
    requests,
    setLog: (container, lines) => void logs.set(container, lines),
    push: (container, line) => {
      const open = streams.get(container) ?? new Set();
      for (const res of open) res.write(`${line}\n`);
      return open.size;
    },
    following: (container) => streams.get(container)?.size ?? 0,
    stop: async () => {
      for (const open of streams.values()) for (const res of open) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
