// HTTPS calls to a running server over HTTP/1.1 with the admin client
// certificate of its kubeconfig (or other credentials): status, headers and body
// of the answer, for tests that assert on the wire.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import yaml from 'js-yaml';
import type { RunningKapi } from './server.js';

export interface Credentials {
  ca: Buffer;
  cert?: Buffer | string;
  key?: Buffer | string;
}

export function adminCredentials(kubeconfigPath: string): Required<Credentials> {
  const cfg = yaml.load(readFileSync(kubeconfigPath, 'utf8')) as {
    clusters: { cluster: Record<string, string> }[];
    users: { user: Record<string, string> }[];
  };
  const b64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64');
  return {
    ca: b64(cfg.clusters[0]!.cluster['certificate-authority-data']),
    cert: b64(cfg.users[0]!.user['client-certificate-data']),
    key: b64(cfg.users[0]!.user['client-key-data']),
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json(): any;
}

export function call(
  server: RunningKapi,
  creds: Credentials,
  opts: { method?: string; path: string; body?: Buffer | string; headers?: Record<string, string> },
): Promise<Answer> {
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: opts.method ?? 'GET',
        path: opts.path,
        ca: creds.ca,
        ...(creds.cert === undefined ? {} : { cert: creds.cert, key: creds.key }),
        // Node sends a DELETE body without Content-Length or chunking unless told its length.
        headers: { ...(opts.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(opts.body)) }), ...opts.headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          ok({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body.toString()) });
        });
      },
    );
    req.on('error', fail);
    req.end(opts.body);
  });
}

/**
 * One JSON write (POST/PUT/DELETE as JSON, PATCH as a merge patch) that must
 * succeed: for tests whose subject is what the write causes, not the write.
 */
export async function writeOk(server: RunningKapi, creds: Credentials, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: object): Promise<void> {
  const res = await call(server, creds, {
    method,
    path,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headers: { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.body.toString()}`);
}
