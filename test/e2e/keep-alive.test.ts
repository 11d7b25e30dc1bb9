// HTTP/1.1 keep-alive connections stay usable after answers that meet write
// backpressure (issue 32): the Go, Python and Java clients send request after request
// on one pooled connection, and kube-apiserver answers every one. Node's HTTP parser
// used to lose a request whose bytes arrived while the previous answer was draining
// (src/server/http1-reads.ts says why); these send enough large writes, on several
// connections at once, that a lost request shows.
import { Agent, request } from 'node:https';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startKapi, type RunningKapi } from './support/server.js';
import { adminCredentials, openKeepAlive, type Credentials } from './support/raw-tls.js';

let kapi: RunningKapi;
let creds: Credentials;

beforeAll(async () => {
  kapi = await startKapi();
  creds = adminCredentials(kapi.kubeconfig);
}, 30_000);
afterAll(async () => {
  await kapi?.stop();
});

const ROUNDS = 50;
const VALUE_BYTES = 100 * 1024;

function configMap(name: string, fill: string, resourceVersion?: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...(resourceVersion === undefined ? {} : { resourceVersion }) },
    data: { payload: fill.repeat(VALUE_BYTES) },
  });
}

function http1(method: string, path: string, body: string): string {
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** POSTs `ROUNDS` ConfigMaps, then PUTs each once, on one connection; answers the codes in order. */
async function postsThenPuts(prefix: string): Promise<number[]> {
  const conn = await openKeepAlive({ port: kapi.port, creds });
  const codes: number[] = [];
  const versions: string[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      const res = await conn.exchange(http1('POST', '/api/v1/namespaces/default/configmaps', configMap(`${prefix}-${i}`, 'a')));
      codes.push(res.status);
      if (res.status !== 201) return codes;
      versions.push((JSON.parse(res.body.toString()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
    }
    for (let i = 0; i < ROUNDS; i++) {
      const name = `${prefix}-${i}`;
      const res = await conn.exchange(http1('PUT', `/api/v1/namespaces/default/configmaps/${name}`, configMap(name, 'b', versions[i])));
      codes.push(res.status);
      if (res.status !== 200) return codes;
    }
    return codes;
  } finally {
    conn.close();
  }
}

async function storedPayloadStart(name: string): Promise<string> {
  const conn = await openKeepAlive({ port: kapi.port, creds });
  try {
    const res = await conn.exchange(`GET /api/v1/namespaces/default/configmaps/${name} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(res.status).toBe(200);
    return (JSON.parse(res.body.toString()) as { data: { payload: string } }).data.payload.slice(0, 3);
  } finally {
    conn.close();
  }
}

describe('large writes on one keep-alive connection are all answered', () => {
  test(
    `${ROUNDS} POSTs then ${ROUNDS} PUTs of 100 KiB ConfigMaps on each of four connections at once`,
    async () => {
      const prefixes = ['ka-a', 'ka-b', 'ka-c', 'ka-d'];
      const results = await Promise.all(prefixes.map(postsThenPuts));
      const want = [...Array<number>(ROUNDS).fill(201), ...Array<number>(ROUNDS).fill(200)];
      for (const codes of results) expect(codes).toEqual(want);
      // Every write is stored, the last one of each object too.
      for (const prefix of prefixes) expect(await storedPayloadStart(`${prefix}-${ROUNDS - 1}`)).toBe('bbb');
    },
    120_000,
  );

  test(
    "Node's own keep-alive agent: one socket reused for every request",
    async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: creds.ca, cert: creds.cert, key: creds.key });
      const sockets = new Set<unknown>();
      const send = (method: string, path: string, body: string) =>
        new Promise<number>((resolve, reject) => {
          const req = request(
            {
              agent,
              host: '127.0.0.1',
              port: kapi.port,
              servername: 'localhost',
              method,
              path,
              headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
            },
            (res) => {
              sockets.add(res.socket);
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', reject);
          req.end(body);
        });
      try {
        const codes: number[] = [];
        for (let i = 0; i < ROUNDS; i++) codes.push(await send('POST', '/api/v1/namespaces/default/configmaps', configMap(`agent-${i}`, 'c')));
        for (let i = 0; i < ROUNDS; i++) {
          const name = `agent-${i}`;
          codes.push(await send('PUT', `/api/v1/namespaces/default/configmaps/${name}`, configMap(name, 'd')));
        }
        expect(codes).toEqual([...Array<number>(ROUNDS).fill(201), ...Array<number>(ROUNDS).fill(200)]);
        expect(sockets.size).toBe(1);
      } finally {
        agent.destroy();
      }
    },
    120_000,
  );
});
