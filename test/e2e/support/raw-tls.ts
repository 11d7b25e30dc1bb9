// Raw bytes over TLS to a running kapi: for requests no well-behaved client sends
// (bad request lines, oversized headers, bodies shorter than their Content-Length),
// and to read response headers as the exact bytes on the wire.
import { connect } from 'node:tls';
import { adminCredentials as httpAdminCredentials } from './http.js';

/** The admin client certificate of a kubeconfig, as every raw exchange here uses it. */
export interface Credentials {
  readonly ca: Buffer;
  readonly cert: Buffer;
  readonly key: Buffer;
}

export function adminCredentials(kubeconfigPath: string): Credentials {
  const creds = httpAdminCredentials(kubeconfigPath);
  return { ca: creds.ca, cert: Buffer.from(creds.cert), key: Buffer.from(creds.key) };
}

export interface RawResponse {
  readonly status: number;
  /** Header lines as sent, names lower-cased, values as the raw bytes. */
  readonly headers: readonly { name: string; value: Buffer }[];
  readonly body: Buffer;
  /** Whether the server closed the connection (within the wait). */
  readonly closed: boolean;
  /** Milliseconds from the first byte written to the end of the answer or the close. */
  readonly ms: number;
}

/**
 * Writes `chunks` (in order) on a fresh HTTP/1.1 TLS connection and collects what
 * comes back until the server closes the connection, a complete response arrived and
 * `untilClose` is false, or `waitMs` passed.
 */
export function rawHttp1(opts: {
  port: number;
  creds?: Credentials;
  chunks: readonly (string | Buffer)[];
  waitMs?: number;
  untilClose?: boolean;
}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({
      host: '127.0.0.1',
      port: opts.port,
      ALPNProtocols: ['http/1.1'],
      ...(opts.creds === undefined ? { rejectUnauthorized: false } : { ca: opts.creds.ca, cert: opts.creds.cert, key: opts.creds.key }),
      servername: 'localhost',
    });
    const received: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      try {
        resolve({ ...parse(Buffer.concat(received)), closed, ms: Date.now() - started });
      } catch (err) {
        reject(err);
      }
    };
    const timer = setTimeout(() => finish(false), opts.waitMs ?? 10_000);
    socket.once('secureConnect', () => {
      for (const chunk of opts.chunks) socket.write(chunk);
    });
    socket.on('data', (d: Buffer) => {
      received.push(d);
      if (opts.untilClose !== true && isComplete(Buffer.concat(received))) finish(false);
    });
    socket.once('close', () => finish(true));
    socket.once('error', () => finish(true));
  });
}

function splitHead(raw: Buffer): { head: string; rest: Buffer } | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  return { head: raw.subarray(0, end).toString('latin1'), rest: raw.subarray(end + 4) };
}

function isComplete(raw: Buffer): boolean {
  let split = splitHead(raw);
  // Interim 100 Continue answers carry no body; the final answer follows them.
  while (split !== undefined && /^HTTP\/1\.1 100 /.test(split.head)) split = splitHead(split.rest);
  if (split === undefined) return false;
  const m = /\r\ncontent-length:\s*(\d+)/i.exec(split.head);
  return m !== null && split.rest.length >= Number(m[1]);
}

function parse(raw: Buffer): Omit<RawResponse, 'closed' | 'ms'> {
  // Skip interim 100 Continue answers.
  let rest = raw;
  for (;;) {
    const split = splitHead(rest);
    if (split === undefined) return { status: 0, headers: [], body: rest };
    const lines = split.head.split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0]!)?.[1] ?? 0);
    if (status === 100) {
      rest = split.rest;
      continue;
    }
    const headers = lines.slice(1).map((line) => {
      const colon = line.indexOf(':');
      return { name: line.slice(0, colon).toLowerCase(), value: Buffer.from(line.slice(colon + 1).trim(), 'latin1') };
    });
    return { status, headers, body: split.rest };
  }
}

/**
 * One HTTP/1.1 keep-alive connection over TLS on which requests are sent one at a
 * time, each only after the previous answer was read completely (no pipelining), as
 * the Go, Python and Java clients use a pooled connection.
 */
export interface KeepAliveConnection {
  /** Writes one request and reads its whole answer; `status: 0` and `closed` when the server closed instead. */
  exchange(request: string | Buffer): Promise<RawResponse>;
  close(): void;
}

export function openKeepAlive(opts: { port: number; creds: Credentials }): Promise<KeepAliveConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: '127.0.0.1',
      port: opts.port,
      ALPNProtocols: ['http/1.1'],
      ca: opts.creds.ca,
      cert: opts.creds.cert,
      key: opts.creds.key,
      servername: 'localhost',
    });
    let buffered = Buffer.alloc(0);
    let closed = false;
    let wake: (() => void) | undefined;
    socket.on('data', (d: Buffer) => {
      buffered = Buffer.concat([buffered, d]);
      wake?.();
    });
    socket.once('close', () => {
      closed = true;
      wake?.();
    });
    socket.on('error', () => {});
    socket.once('secureConnect', () =>
      resolve({
        exchange: (request) =>
          new Promise((answer) => {
            const started = Date.now();
            const check = () => {
              const end = completeAt(buffered);
              if (end >= 0) {
                const raw = buffered.subarray(0, end);
                buffered = buffered.subarray(end);
                wake = undefined;
                answer({ ...parse(raw), closed: false, ms: Date.now() - started });
              } else if (closed) {
                wake = undefined;
                answer({ status: 0, headers: [], body: buffered, closed: true, ms: Date.now() - started });
              }
            };
            wake = check;
            socket.write(request);
            check();
          }),
        close: () => socket.destroy(),
      }),
    );
    socket.once('error', reject);
  });
}

/** Where the first complete answer (with a Content-Length) in `raw` ends, or -1. */
function completeAt(raw: Buffer): number {
  const split = splitHead(raw);
  if (split === undefined) return -1;
  const m = /\r\ncontent-length:\s*(\d+)/i.exec(split.head);
  if (m === null) throw new Error(`answer without Content-Length: ${split.head}`);
  const end = raw.length - split.rest.length + Number(m[1]);
  return raw.length >= end ? end : -1;
}
