// The fuzzer's transport: a few node:http2 sessions carrying most inputs (many
// concurrent streams), an HTTPS/1.1 keep-alive agent for the inputs that must go
// over HTTP/1.1 (header encoding differs), and raw TLS sockets for bytes no
// client library would write. Every request has a deadline; missing it is a hang.
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import tls from 'node:tls';
import jsYaml from 'js-yaml';
import type { FuzzInput } from './input.js';

export interface Credentials {
  readonly url: string;
  readonly ca: Buffer;
  readonly cert: Buffer;
  readonly key: Buffer;
}

/** What came back: an answer, the connection failing without one, or nothing before the deadline. */
export type Outcome =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly headers: Readonly<Record<string, string | string[] | undefined>>;
      readonly body: Buffer;
      readonly ms: number;
      /** The stream failed after the headers: the body is whatever arrived before. */
      readonly cutOff?: string;
    }
  | { readonly kind: 'no-answer'; readonly error: string; readonly ms: number }
  | { readonly kind: 'timeout'; readonly ms: number }
  /** The client library refused to send it (an invalid header value, say): not the server's doing. */
  | { readonly kind: 'unsendable'; readonly error: string };

export function credentialsFromKubeconfig(path: string, url?: string): Credentials {
  const config = jsYaml.load(readFileSync(path, 'utf8')) as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
    users: { user: { 'client-certificate-data': string; 'client-key-data': string } }[];
  };
  const cluster = config.clusters[0]!.cluster;
  const user = config.users[0]!.user;
  const b64 = (s: string): Buffer => Buffer.from(s, 'base64');
  return { url: url ?? cluster.server, ca: b64(cluster['certificate-authority-data']), cert: b64(user['client-certificate-data']), key: b64(user['client-key-data']) };
}

type Sendable = Pick<FuzzInput, 'method' | 'path' | 'headers' | 'body' | 'transport' | 'allowNoAnswer' | 'unframed'>;

export interface Client {
  send(input: Sendable, timeoutMs: number): Promise<Outcome>;
  /** HTTP/2 on a session of its own, closed after: tells a stream's own fault from its session's. */
  sendAlone(input: Sendable, timeoutMs: number): Promise<Outcome>;
  close(): void;
}

export function createClient(creds: Credentials, opts: { sessions: number }): Client {
  // One secure context for every connection: building one per raw socket costs more than the request.
  const hostname = new URL(creds.url).hostname;
  const tlsOpts: tls.ConnectionOptions = {
    secureContext: tls.createSecureContext({ ca: creds.ca, cert: creds.cert, key: creds.key }),
    ...(/^[\d.]+$|:/.test(hostname) ? {} : { servername: hostname }),
  };
  // The last session carries only inputs meant to break their stream (allowNoAnswer): the server may
  // rightly end a session that keeps sending protocol errors, and the others must not go down with it.
  const sessions: (http2.ClientHttp2Session | undefined)[] = new Array(opts.sessions + 1).fill(undefined);
  let next = 0;
  const session = (abusive: boolean): http2.ClientHttp2Session => {
    const i = abusive ? opts.sessions : next++ % opts.sessions;
    const s = sessions[i];
    if (s !== undefined && !s.closed && !s.destroyed) return s;
    const created = http2.connect(creds.url, h2Options(tlsOpts));
    // Session errors surface on the streams; an unhandled 'error' event would end the fuzzer instead.
    created.on('error', () => undefined);
    const forget = (): void => { if (sessions[i] === created) sessions[i] = undefined; };
    // After GOAWAY the session takes no new streams: the next request opens another.
    created.on('close', forget);
    created.on('goaway', forget);
    sessions[i] = created;
    return created;
  };
  const agent = new https.Agent({ ...tlsOpts, keepAlive: true, maxSockets: 8 });

  return {
    send(input, timeoutMs) {
      if (input.transport === 'raw') return sendRaw(creds, tlsOpts, input.body ?? Buffer.alloc(0), timeoutMs);
      if (input.transport === 'h1') return sendH1(creds.url, agent, input, timeoutMs);
      return sendH2(session(input.allowNoAnswer === true), input, timeoutMs);
    },
    async sendAlone(input, timeoutMs) {
      const alone = http2.connect(creds.url, h2Options(tlsOpts));
      alone.on('error', () => undefined);
      try {
        return await sendH2(alone, input, timeoutMs);
      } finally {
        alone.close();
      }
    },
    close() {
      for (const s of sessions) s?.close();
      agent.destroy();
    },
  };
}

/** Node's client refuses more than 128 header pairs by default; Go's takes 10 MB, and the Warning budget is an invariant of its own. */
function h2Options(tlsOpts: tls.ConnectionOptions): http2.SecureClientSessionOptions {
  // maxSessionMemory: Node's client counts its own queued uploads against 10 MB by
  // default and then refuses new streams itself (ENHANCE_YOUR_CALM): several oversized
  // bodies in flight would look like the server closing the session.
  return { ...tlsOpts, maxHeaderListPairs: 100_000, maxSendHeaderBlockLength: 1 << 20, maxSessionMemory: 256, settings: { enablePush: false, maxHeaderListSize: 16 << 20 } } as http2.SecureClientSessionOptions;
}

function sendH2(session: http2.ClientHttp2Session, input: Pick<FuzzInput, 'method' | 'path' | 'headers' | 'body' | 'unframed'>, timeoutMs: number): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let stream: http2.ClientHttp2Stream;
    try {
      // Content-Length as Go's client sends it when the body is known (lets the server refuse an oversized one at once).
      const length = input.body === undefined || input.unframed === true || input.headers['content-length'] !== undefined ? {} : { 'content-length': String(input.body.length) };
      stream = session.request({ ':method': input.method, ':path': input.path, ...length, ...input.headers }, { endStream: input.body === undefined });
    } catch (err) {
      resolve({ kind: 'unsendable', error: String(err) });
      return;
    }
    let status = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (o: Outcome): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(o);
    };
    const timer = setTimeout(() => {
      finish({ kind: 'timeout', ms: performance.now() - started });
      stream.close(http2.constants.NGHTTP2_CANCEL);
    }, timeoutMs);
    stream.on('response', (h) => {
      status = Number(h[':status']);
      headers = h as Record<string, string | string[] | undefined>;
    });
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => finish(status === 0 ? { kind: 'no-answer', error: 'stream ended without headers', ms: performance.now() - started } : { kind: 'answer', status, headers, body: Buffer.concat(chunks), ms: performance.now() - started }));
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (status !== 0) finish({ kind: 'answer', status, headers, body: Buffer.concat(chunks), ms: performance.now() - started, cutOff: `${err.code ?? ''} ${err.message}`.trim() });
      else finish({ kind: 'no-answer', error: `${err.code ?? ''} ${err.message}`.trim(), ms: performance.now() - started });
    });
    stream.on('close', () => {
      if (status !== 0) finish({ kind: 'answer', status, headers, body: Buffer.concat(chunks), ms: performance.now() - started, ...(stream.rstCode === http2.constants.NGHTTP2_NO_ERROR ? {} : { cutOff: `rst code ${stream.rstCode}` }) });
      else finish({ kind: 'no-answer', error: `stream closed (rst code ${stream.rstCode ?? '?'})`, ms: performance.now() - started });
    });
    if (input.body !== undefined) stream.end(input.body);
  });
}

function sendH1(url: string, agent: https.Agent, input: Pick<FuzzInput, 'method' | 'path' | 'headers' | 'body'>, timeoutMs: number): Promise<Outcome> {
  const started = performance.now();
  const base = new URL(url);
  return new Promise((resolve) => {
    let done = false;
    const finish = (o: Outcome): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(o);
    };
    let req: ReturnType<typeof https.request>;
    try {
      const headers: Record<string, string> = { ...input.headers };
      if (input.body !== undefined && headers['content-length'] === undefined) headers['content-length'] = String(input.body.length);
      // A mutated Content-Length or Transfer-Encoding desynchronises the connection's
      // framing (the server waits for bytes that belong to the next request, or reads
      // them as one): such an input gets a connection of its own, never reused.
      const ownFraming = Object.keys(input.headers).some((h) => /^(content-length|transfer-encoding)$/i.test(h));
      req = https.request({ agent: ownFraming ? new https.Agent({ ...agent.options, keepAlive: false }) : agent, host: base.hostname, port: base.port, method: input.method, path: input.path, headers });
    } catch (err) {
      resolve({ kind: 'unsendable', error: String(err) });
      return;
    }
    const timer = setTimeout(() => {
      finish({ kind: 'timeout', ms: performance.now() - started });
      req.destroy();
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => finish({ kind: 'answer', status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - started }));
      res.on('error', (err) => finish({ kind: 'no-answer', error: err.message, ms: performance.now() - started }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ERR_INVALID_CHAR' || err.code === 'ERR_INVALID_HTTP_TOKEN' || err.code === 'ERR_UNESCAPED_CHARACTERS') finish({ kind: 'unsendable', error: err.message });
      else finish({ kind: 'no-answer', error: `${err.code ?? ''} ${err.message}`.trim(), ms: performance.now() - started });
    });
    req.end(input.body);
  });
}

/** One raw HTTP/1.1 exchange on its own TLS connection; the answer is the first response in what comes back. */
function sendRaw(creds: Credentials, tlsOpts: tls.ConnectionOptions, bytes: Buffer, timeoutMs: number): Promise<Outcome> {
  const started = performance.now();
  const base = new URL(creds.url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const socket = tls.connect({ ...tlsOpts, host: base.hostname, port: Number(base.port), ALPNProtocols: ['http/1.1'] }, () => {
      socket.write(bytes);
      // The write side ends: a body shorter than its Content-Length can never complete.
      socket.end();
    });
    const finish = (o: Outcome): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(o);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout', ms: performance.now() - started }), timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const parsed = parseRawResponse(all);
      finish(parsed === undefined ? { kind: 'no-answer', error: all.length === 0 ? 'connection closed without an answer' : `unparseable answer: ${JSON.stringify(all.subarray(0, 200).toString('latin1'))}`, ms: performance.now() - started } : { ...parsed, ms: performance.now() - started });
    });
  });
}

/** The first HTTP/1.1 response in `bytes` (Content-Length, chunked, or to the end). */
export function parseRawResponse(bytes: Buffer): { kind: 'answer'; status: number; headers: Record<string, string>; body: Buffer } | undefined {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (m === null) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(headEnd + 4);
  if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { kind: 'answer', status: Number(m[1]), headers, body };
}

function dechunk(b: Buffer): Buffer {
  const out: Buffer[] = [];
  let pos = 0;
  while (pos < b.length) {
    const lineEnd = b.indexOf('\r\n', pos);
    if (lineEnd < 0) break;
    const size = parseInt(b.subarray(pos, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(b.subarray(lineEnd + 2, lineEnd + 2 + size));
    pos = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}
