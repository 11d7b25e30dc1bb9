// A lean HTTP/1.1-over-TLS load generator for the HTTP benchmarks. Node's https
// client spends about twice the CPU per request of the server it measures (its
// agent, IncomingMessage streams, header objects); on a 2-core machine that load
// generator, not the server, set the pace. This one keeps `concurrency` keep-alive
// TLS connections, writes each request as one prebuilt buffer and reads the answer
// by its status line and Content-Length, so almost all of its cost is OpenSSL's.
// Both sides of every ratio use it, so the comparison stays like for like.
import { connect, type TLSSocket } from 'node:tls';

export interface TlsCredentials {
  readonly ca: Buffer;
  readonly cert: Buffer;
  readonly key: Buffer;
}

export interface LoadOptions {
  readonly port: number;
  readonly credentials: TlsCredentials;
  readonly concurrency: number;
  readonly total: number;
  /** The i-th request's method, path and body (sent as `contentType`, default application/json). */
  readonly request: (i: number) => { method: string; path: string; body?: Buffer; contentType?: string };
  /** Status every answer must carry. */
  readonly expectStatus: number;
  /**
   * Count answers with another status and go on (tlsLoadCounted) instead of
   * failing the run at the first one (tlsLoad).
   */
  readonly countErrors?: boolean;
}

/** What tlsLoadCounted measured: requests per second and the answers that were not `expectStatus`. */
export interface LoadResult {
  readonly rate: number;
  readonly errors: number;
  /** The first unexpected answer's status and body, for the log. */
  readonly firstError?: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

function requestBytes(port: number, req: { method: string; path: string; body?: Buffer; contentType?: string }): Buffer {
  const { method, path, body } = req;
  const head =
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json\r\n` +
    (body === undefined ? '' : `Content-Type: ${req.contentType ?? 'application/json'}\r\nContent-Length: ${body.length}\r\n`) +
    '\r\n';
  return body === undefined ? Buffer.from(head) : Buffer.concat([Buffer.from(head), body]);
}

/** Reads `Content-Length` from a header block (case-insensitive, as HTTP allows). */
function contentLength(head: string): number {
  const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (m === null) throw new Error(`answer without Content-Length:\n${head}`);
  return Number(m[1]);
}

async function openConnection(opts: LoadOptions): Promise<TLSSocket> {
  return new Promise((ok, fail) => {
    const socket = connect({
      host: '127.0.0.1',
      port: opts.port,
      ca: opts.credentials.ca,
      cert: opts.credentials.cert,
      key: opts.credentials.key,
      ALPNProtocols: ['http/1.1'],
      servername: 'localhost',
    });
    socket.once('secureConnect', () => ok(socket));
    socket.once('error', fail);
  });
}

/** Drives one connection: one request at a time, the next index from `take`. */
function drive(socket: TLSSocket, opts: LoadOptions, take: () => number | undefined, onError: (text: string) => void): Promise<void> {
  return new Promise((done, fail) => {
    let pending: Buffer = Buffer.alloc(0);
    const sendNext = (): void => {
      const i = take();
      if (i === undefined) {
        socket.removeAllListeners('data');
        done();
        return;
      }
      socket.write(requestBytes(opts.port, opts.request(i)));
    };
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const end = pending.indexOf(HEADER_END);
      if (end < 0) return;
      const head = pending.subarray(0, end).toString('latin1');
      const length = contentLength(head);
      const complete = end + HEADER_END.length + length;
      if (pending.length < complete) return;
      const status = Number(head.slice(9, 12));
      if (status !== opts.expectStatus) {
        const text = `answered ${status}, wanted ${opts.expectStatus}: ${pending.subarray(end + 4, complete).toString()}`;
        if (opts.countErrors !== true) {
          fail(new Error(text));
          return;
        }
        onError(text);
      }
      pending = pending.subarray(complete);
      sendNext();
    });
    socket.once('error', fail);
    socket.once('close', () => fail(new Error('connection closed mid-run')));
    sendNext();
  });
}

/** Runs `total` requests over `concurrency` connections; returns requests per second. Fails at the first unexpected status. */
export async function tlsLoad(opts: LoadOptions): Promise<number> {
  return (await tlsLoadCounted({ ...opts, countErrors: false })).rate;
}

/**
 * Runs `total` requests over `concurrency` connections. With `countErrors`, an
 * answer that is not `expectStatus` is counted (it still counts towards the rate,
 * so a caller must judge a run with errors as failed, not as fast).
 */
export async function tlsLoadCounted(opts: LoadOptions): Promise<LoadResult> {
  const sockets = await Promise.all(Array.from({ length: opts.concurrency }, () => openConnection(opts)));
  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
  const take = (): number | undefined => (next < opts.total ? next++ : undefined);
  const onError = (text: string): void => {
    errors++;
    firstError ??= text;
  };
  const started = process.hrtime.bigint();
  try {
    await Promise.all(sockets.map((s) => drive(s, opts, take, onError)));
  } finally {
    for (const s of sockets) {
      s.removeAllListeners('close');
      s.destroy();
    }
  }
  const rate = opts.total / (Number(process.hrtime.bigint() - started) / 1e9);
  return firstError === undefined ? { rate, errors } : { rate, errors, firstError };
}
