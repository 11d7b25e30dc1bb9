// Transport edges over real sockets: Warning headers carry kube's bytes on HTTP/1.1
// and HTTP/2, every error the transport raises is a `kind: Status` body, an incomplete
// body is cut off at --request-timeout while a watch is not, and non-canonical paths
// never reach another object. Each row is a hostile input.
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startKapi, type RunningKapi } from './support/server.js';
import { adminCredentials, rawHttp1, type Credentials, type RawResponse } from './support/raw-tls.js';

const REQUEST_TIMEOUT_MS = 2000;
let kapi: RunningKapi;
let creds: Credentials;

beforeAll(async () => {
  kapi = await startKapi({ args: [`--request-timeout=${REQUEST_TIMEOUT_MS / 1000}s`] });
  creds = adminCredentials(kapi.kubeconfig);
}, 30_000);
afterAll(async () => {
  await kapi?.stop();
});

function http1(lines: string[], body = ''): string {
  return `${lines.join('\r\n')}\r\nHost: 127.0.0.1\r\n\r\n${body}`;
}

function jsonBody(res: RawResponse): Record<string, unknown> {
  return JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
}

function header(res: RawResponse, name: string): Buffer[] {
  return res.headers.filter((h) => h.name === name).map((h) => h.value);
}

function h2Session(): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = connect(kapi.url, { ca: creds.ca, cert: creds.cert, key: creds.key, servername: 'localhost' });
    session.once('connect', () => resolve(session));
    session.once('error', reject);
  });
}

interface H2Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function h2Request(session: ClientHttp2Session, opts: { method?: string; path: string; body?: string; endStream?: boolean }): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request(
      { ':method': opts.method ?? 'GET', ':path': opts.path, ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }) },
      { endStream: opts.endStream ?? opts.body === undefined },
    );
    if (opts.body !== undefined) {
      if (opts.endStream === false) req.write(opts.body);
      else req.end(opts.body);
    }
    let headers: Record<string, string | string[] | undefined> = {};
    const chunks: Buffer[] = [];
    req.on('response', (h) => (headers = h as typeof headers));
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => resolve({ status: Number(headers[':status']), headers, body: Buffer.concat(chunks) }));
    req.on('error', reject);
  });
}

describe('Warning headers carry the bytes kube-apiserver sends', () => {
  // kube's recorder writes `299 - "<text>"` with `"` and `\` escaped, the text as UTF-8.
  const cases = [
    { name: 'non-Latin-1 field name', field: 'dätä€', want: ['299 - "unknown field \\"dätä€\\""'] },
    { name: 'quote and backslash are escaped', field: 'x"y\\z', want: ['299 - "unknown field \\"x\\\\\\"y\\\\\\\\z\\""'] },
    // The decoder quotes these in its message already; what matters here is that no
    // control byte reaches a header line (the recorder's own dropping is unit-tested).
    { name: 'CR LF never reach a header', field: 'a\r\nX-Injected: 1', want: undefined },
    { name: 'NUL never reaches a header', field: 'a\u0000b', want: undefined },
    { name: 'astral plane character', field: 'emoji😀', want: ['299 - "unknown field \\"emoji😀\\""'] },
  ];
  let n = 0;
  for (const c of cases) {
    test(`HTTP/1.1: ${c.name}`, async () => {
      const body = JSON.stringify({ metadata: { name: `warn-h1-${n++}` }, [c.field]: 1 });
      const res = await rawHttp1({
        port: kapi.port,
        creds,
        chunks: [
          http1(
            ['POST /api/v1/namespaces/default/configmaps?fieldValidation=Warn HTTP/1.1', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`],
            body,
          ),
        ],
      });
      expect(res.status).toBe(201);
      expect(header(res, 'x-injected')).toEqual([]);
      for (const value of header(res, 'warning')) expect([...value].some((b) => b < 0x20 || b === 0x7f)).toBe(false);
      if (c.want === undefined) return;
      expect(header(res, 'warning').map((v) => v.toString('utf8'))).toEqual(c.want);
      // The exact bytes: UTF-8, as Go writes them.
      expect(Buffer.concat(header(res, 'warning'))).toEqual(Buffer.from(c.want.join(''), 'utf8'));
    });
    test(`HTTP/2: ${c.name}`, async () => {
      const session = await h2Session();
      try {
        const res = await h2Request(session, {
          method: 'POST',
          path: '/api/v1/namespaces/default/configmaps?fieldValidation=Warn',
          body: JSON.stringify({ metadata: { name: `warn-h2-${n++}` }, [c.field]: 1 }),
        });
        expect(res.status).toBe(201);
        const raw = res.headers.warning;
        const values = raw === undefined ? [] : Array.isArray(raw) ? raw : raw.split(', 299').map((v, i) => (i === 0 ? v : `299${v}`));
        expect(res.headers['x-injected']).toBeUndefined();
        for (const v of values) expect(/[\u0000-\u001f\u007f]/.test(v)).toBe(false);
        if (c.want === undefined) return;
        // node:http2 hands header bytes over as latin1 code units.
        expect(values.map((v) => Buffer.from(v, 'latin1').toString('utf8'))).toEqual(c.want);
      } finally {
        session.close();
      }
    });
  }
});

describe('transport errors are Status bodies', () => {
  const cases: { name: string; chunks: string[]; want: { status: number; reason: string; message: string | RegExp } }[] = [
    {
      // kube-apiserver's limit is Go's MaxHeaderBytes, 1 MiB.
      name: 'header block over 1 MiB (HTTP/1.1) is 431',
      chunks: [http1(['GET /api/v1/namespaces HTTP/1.1', `X-Big: ${'a'.repeat(1100 * 1024)}`])],
      want: { status: 431, reason: 'BadRequest', message: 'Request Header Fields Too Large' },
    },

    {
      name: 'header line without a colon is 400',
      chunks: ['GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'],
      want: { status: 400, reason: 'BadRequest', message: /^malformed HTTP request/ },
    },
    {
      name: 'unknown method is 405',
      chunks: [http1(['FROB /api/v1/namespaces HTTP/1.1'])],
      want: { status: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' },
    },
    {
      name: 'garbage instead of a request line is 400 (Go: malformed HTTP request)',
      chunks: ['GARBAGE\r\n\r\n'],
      want: { status: 400, reason: 'BadRequest', message: /^malformed HTTP request/ },
    },
    {
      name: 'binary bytes instead of a request line are 400',
      chunks: ['\x16\x03\x01\x00\xff\x00garbage\r\n\r\n'],
      want: { status: 400, reason: 'BadRequest', message: /^malformed HTTP request/ },
    },
    {
      name: 'a declared body over --max-request-bytes is 413 at once, before any byte of it',
      chunks: [http1(['POST /api/v1/namespaces/default/configmaps HTTP/1.1', 'Content-Type: application/json', 'Content-Length: 99999999999'], '{}')],
      want: { status: 413, reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' },
    },
    {
      name: 'non-numeric Content-Length is 400',
      chunks: [http1(['POST /api/v1/namespaces/default/configmaps HTTP/1.1', 'Content-Type: application/json', 'Content-Length: abc'], '{}')],
      want: { status: 400, reason: 'BadRequest', message: /^malformed HTTP request/ },
    },
    {
      name: 'malformed percent-escape is 400',
      chunks: [http1(['GET /api/v1/namespaces/default/configmaps/%zz HTTP/1.1'])],
      want: { status: 400, reason: 'BadRequest', message: 'the request URL is not valid: it holds a malformed percent-escape' },
    },
    {
      // Chunked, so no declared length gives it away: the limit is found while reading.
      name: 'body over --max-request-bytes is 413 with kube text',
      chunks: [
        http1(
          ['POST /api/v1/namespaces/default/configmaps HTTP/1.1', 'Content-Type: application/json', 'Transfer-Encoding: chunked'],
          `${(3 * 1024 * 1024 + 10).toString(16)}\r\n{"a":"${'x'.repeat(3 * 1024 * 1024 + 2)}"}\r\n0\r\n\r\n`,
        ),
      ],
      want: { status: 413, reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' },
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await rawHttp1({ port: kapi.port, creds, chunks: c.chunks });
      expect(res.status).toBe(c.want.status);
      expect(header(res, 'content-type').map(String)).toEqual(['application/json']);
      const status = jsonBody(res);
      expect(status).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: c.want.status, reason: c.want.reason });
      expect(status.message).toMatch(c.want.message);
    });
  }
});

describe('an incomplete body is cut off at --request-timeout', () => {
  const timeoutStatus = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
    reason: 'Timeout',
    code: 504,
  };

  test('HTTP/1.1: Content-Length larger than what arrives gets 504 and the connection closes', async () => {
    const res = await rawHttp1({
      port: kapi.port,
      creds,
      chunks: [http1(['POST /api/v1/namespaces/default/configmaps HTTP/1.1', 'Content-Type: application/json', 'Content-Length: 100'], '{"metadata":')],
      untilClose: true,
      waitMs: REQUEST_TIMEOUT_MS + 8000,
    });
    expect(res.status).toBe(504);
    expect(jsonBody(res)).toEqual(timeoutStatus);
    expect(res.closed).toBe(true);
    expect(res.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(res.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 5000);
  });

  test('HTTP/1.1: a stalled chunked body gets 504 and the connection closes', async () => {
    const res = await rawHttp1({
      port: kapi.port,
      creds,
      chunks: [http1(['POST /api/v1/namespaces/default/configmaps HTTP/1.1', 'Content-Type: application/json', 'Transfer-Encoding: chunked'], '5\r\n{"met\r\n')],
      untilClose: true,
      waitMs: REQUEST_TIMEOUT_MS + 8000,
    });
    expect(res.status).toBe(504);
    expect(jsonBody(res)).toEqual(timeoutStatus);
    expect(res.closed).toBe(true);
  });

  test('HTTP/2: a stream whose body never ends gets 504 and is closed; a watch on the same session is not cut', async () => {
    const session = await h2Session();
    try {
      const events: string[] = [];
      const watch = session.request({ ':method': 'GET', ':path': '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0' });
      watch.on('data', (d: Buffer) => events.push(d.toString('utf8')));
      const started = Date.now();
      const stalled = await h2Request(session, { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: '{"metadata":', endStream: false });
      expect(stalled.status).toBe(504);
      expect(JSON.parse(stalled.body.toString('utf8'))).toEqual(timeoutStatus);
      expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
      // The request timeout has passed: the watch is still there and still delivers.
      const created = await h2Request(session, { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: JSON.stringify({ metadata: { name: 'after-timeout' } }) });
      expect(created.status).toBe(201);
      const deadline = Date.now() + 5000;
      while (!events.join('').includes('"after-timeout"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(events.join('')).toContain('"after-timeout"');
      expect(watch.closed).toBe(false);
      watch.close(constants.NGHTTP2_CANCEL);
    } finally {
      session.close();
    }
  });
});

describe('non-canonical paths never reach another object', () => {
  const notFound = { status: 404, reason: 'NotFound', message: 'the server could not find the requested resource' };
  const cases: { name: string; path: string; want: { status: number; reason?: string; message?: string; kind?: string } }[] = [
    { name: '.. as a namespace', path: '/api/v1/namespaces/../secrets', want: { status: 400, reason: 'BadRequest', message: `Namespace parameter invalid: "..": may not be '..'` } },
    { name: 'encoded %2e%2e as a namespace', path: '/api/v1/namespaces/%2e%2e/configmaps', want: { status: 400, reason: 'BadRequest', message: `Namespace parameter invalid: "..": may not be '..'` } },
    { name: '. as a namespace', path: '/api/v1/namespaces/./configmaps', want: { status: 400, reason: 'BadRequest', message: `Namespace parameter invalid: ".": may not be '.'` } },
    { name: '.. as a name', path: '/api/v1/namespaces/default/configmaps/..', want: { status: 400, reason: 'BadRequest', message: `Name parameter invalid: "..": may not be '..'` } },
    { name: 'name with an encoded %', path: '/api/v1/namespaces/default/configmaps/a%25b', want: { status: 400, reason: 'BadRequest', message: `Name parameter invalid: "a%b": may not contain '%'` } },
    { name: 'empty namespace segment', path: '/api/v1/namespaces//configmaps', want: notFound },
    { name: 'empty segment after the version', path: '/api/v1//configmaps', want: notFound },
    { name: '.. climbing out of a namespace', path: '/api/v1/namespaces/default/../kube-system/configmaps', want: notFound },
    { name: '. segment before the resource', path: '/api/v1/namespaces/default/./configmaps', want: notFound },
    { name: 'empty segment before the resource', path: '/api/v1/namespaces/default//configmaps', want: notFound },
    { name: 'encoded slash splits like Go (name a, subresource b)', path: '/api/v1/namespaces/default/configmaps/a%2Fb', want: notFound },
    { name: 'trailing slash is the collection', path: '/api/v1/namespaces/default/configmaps/', want: { status: 200, kind: 'ConfigMapList' } },
  ];
  for (const c of cases) {
    test(`${c.name}: ${c.path}`, async () => {
      const res = await rawHttp1({ port: kapi.port, creds, chunks: [http1([`GET ${c.path} HTTP/1.1`])] });
      expect(res.status).toBe(c.want.status);
      const body = jsonBody(res);
      if (c.want.kind !== undefined) {
        expect(body.kind).toBe(c.want.kind);
        return;
      }
      expect(body).toMatchObject({ kind: 'Status', status: 'Failure', code: c.want.status, reason: c.want.reason, message: c.want.message });
    });
  }
});
