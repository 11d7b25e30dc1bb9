// Response compression on the real server (kube's APIResponseCompression, on by
// default): 5,000 ConfigMaps listed by kubectl (client-go's transport asks gzip on
// every request and decompresses by itself), by a raw client asking what that
// transport asks, in protobuf, by curl --compressed; a watch asking gzip is not
// compressed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type ClientHttp2Session } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminCredentials, call } from './support/http.js';
import { kubectl, kubectlBinaries, ok } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const COUNT = 5000;
const NAMESPACES = ['gz-a', 'gz-b'];
let server: RunningKapi;
let creds: ReturnType<typeof adminCredentials>;

/** POSTs over one HTTP/2 session, `inFlight` at a time; every answer must be 201. */
async function createMany(session: ClientHttp2Session, bodies: { path: string; body: string }[], inFlight: number): Promise<void> {
  let next = 0;
  const one = (b: { path: string; body: string }): Promise<void> =>
    new Promise((ok, fail) => {
      const stream = session.request({ ':method': 'POST', ':path': b.path, 'content-type': 'application/json' });
      let status = 0;
      let text = '';
      stream.on('response', (h) => (status = Number(h[':status'])));
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (text += d));
      stream.on('end', () => (status === 201 ? ok() : fail(new Error(`${b.path}: ${status} ${text}`))));
      stream.on('error', fail);
      stream.end(b.body);
    });
  const worker = async (): Promise<void> => {
    while (next < bodies.length) await one(bodies[next++]!);
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

beforeAll(async () => {
  server = await startKapi();
  creds = adminCredentials(server.kubeconfig);
  const session = connect(`https://127.0.0.1:${server.port}`, { ca: creds.ca, cert: creds.cert, key: creds.key });
  try {
    await createMany(session, NAMESPACES.map((name) => ({ path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name } }) })), 2);
    const bodies = Array.from({ length: COUNT }, (_, i) => {
      const ns = NAMESPACES[i % NAMESPACES.length]!;
      return { path: `/api/v1/namespaces/${ns}/configmaps`, body: JSON.stringify({ metadata: { name: `cm-${i}` }, data: { key: `value ${i} `.repeat(8) } }) };
    });
    await createMany(session, bodies, 16);
  } finally {
    session.close();
  }
}, 180_000);
afterAll(async () => server?.stop());

const ALL = '/api/v1/configmaps';

/** ALL at one revision, so the gzipped and plain answers can be compared byte for byte while leases renew. */
async function atOneRevision(): Promise<string> {
  const res = await call(server, creds, { path: `${ALL}?limit=1`, headers: { accept: 'application/json' } });
  return `${ALL}?resourceVersion=${res.json().metadata.resourceVersion}&resourceVersionMatch=Exact`;
}

describe('lists over the threshold', () => {
  test('JSON: gzipped with Vary, the same JSON as without', async () => {
    const path = await atOneRevision();
    const gz = await call(server, creds, { path, headers: { accept: 'application/json', 'accept-encoding': 'gzip' } });
    const plain = await call(server, creds, { path, headers: { accept: 'application/json' } });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    const a = plain.json();
    expect(a.items.filter((i: { metadata: { name: string } }) => i.metadata.name.startsWith('cm-'))).toHaveLength(COUNT);
    expect(gz.body.length).toBeLessThan(plain.body.length / 3);
  });

  test('what client-go asks for a page of kubectl get (limit=500): gzipped', async () => {
    const res = await call(server, creds, { path: `${ALL}?limit=500`, headers: { accept: 'application/json', 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.body).toString()).items).toHaveLength(500);
  });

  test('protobuf: gzipped, the same bytes as without', async () => {
    const accept = 'application/vnd.kubernetes.protobuf';
    const path = await atOneRevision();
    const gz = await call(server, creds, { path, headers: { accept, 'accept-encoding': 'gzip' } });
    const plain = await call(server, creds, { path, headers: { accept } });
    expect(gz.headers['content-type']).toBe(accept);
    expect(gz.headers['content-encoding']).toBe('gzip');
    const bytes = gunzipSync(gz.body);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('k8s\u0000');
    expect(bytes.equals(plain.body)).toBe(true);
  });

  test('identity, gzip;q=0 and garbage: not compressed', async () => {
    for (const enc of ['identity', 'gzip;q=0', 'zz, ;q=, gz ip', `${'x'.repeat(8000)}`]) {
      const res = await call(server, creds, { path: ALL, headers: { accept: 'application/json', 'accept-encoding': enc } });
      expect(res.status, enc).toBe(200);
      expect(res.headers['content-encoding'], enc).toBeUndefined();
    }
  });

  test('GET of one object asking gzip: not compressed (under the threshold)', async () => {
    const res = await call(server, creds, { path: `/api/v1/namespaces/${NAMESPACES[0]}/configmaps/cm-0`, headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  test('a watch asking gzip: not compressed', async () => {
    const res = await call(server, creds, { path: `${ALL}?watch=true&timeoutSeconds=1`, headers: { accept: 'application/json', 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    const events = res.body.toString().trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
    expect(events.filter((e) => e.object.metadata.name.startsWith('cm-'))).toHaveLength(COUNT);
  });
});

const binaries = kubectlBinaries([]);
describe.runIf(binaries.length > 0)('kubectl', () => {
  test('kubectl get cm -A -o json: every ConfigMap (asked with gzip by client-go)', () => {
    const k = kubectl(binaries[0]!, server.kubeconfig);
    const out = JSON.parse(ok(k, ['get', 'cm', '-A', '-o', 'json'])) as { items: { metadata: { name: string } }[] };
    expect(out.items.filter((i) => i.metadata.name.startsWith('cm-'))).toHaveLength(COUNT);
  });
});

const hasCurl = spawnSync('curl', ['--version']).status === 0;
describe.runIf(hasCurl)('curl --compressed', () => {
  test('gzipped on the wire, every ConfigMap after curl decompresses', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-gzip-curl-'));
    try {
      for (const [name, data] of Object.entries({ ca: creds.ca, cert: creds.cert, key: creds.key })) writeFileSync(join(dir, name), data);
      const headers = join(dir, 'headers');
      const res = spawnSync(
        'curl',
        ['-sS', '--compressed', '--cacert', join(dir, 'ca'), '--cert', join(dir, 'cert'), '--key', join(dir, 'key'), '-D', headers, '-H', 'Accept: application/json', `https://127.0.0.1:${server.port}${ALL}`],
        { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      );
      expect(res.status, res.stderr).toBe(0);
      const head = readFileSync(headers, 'utf8').toLowerCase();
      expect(head).toContain('content-encoding: gzip');
      const list = JSON.parse(res.stdout) as { items: { metadata: { name: string } }[] };
      expect(list.items.filter((i) => i.metadata.name.startsWith('cm-'))).toHaveLength(COUNT);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
