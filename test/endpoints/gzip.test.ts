// Response compression (kube's APIResponseCompression): which Accept-Encoding
// values count, which answers are gzipped (over 128 KiB, whole or streamed, any
// codec form, errors too) and which never are (small ones, watches, the gate off).
// Rows follow k8s.io/apiserver responsewriters TestContentEncodingSupported and
// TestSerializeObject.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { acceptsGzip, GZIP_THRESHOLD_BYTES } from '../../src/endpoints/compression.js';
import { createHarness, type Harness } from './harness.js';

describe('acceptsGzip (kube ContentEncodingSupported)', () => {
  const rows: { name: string; header: string | string[] | undefined; want: boolean }[] = [
    { name: 'absent', header: undefined, want: false },
    { name: 'empty', header: '', want: false },
    { name: 'gzip', header: 'gzip', want: true },
    { name: 'with others', header: 'deflate, gzip', want: true },
    { name: 'kubectl/client-go', header: 'gzip', want: true },
    { name: 'curl --compressed', header: 'deflate, gzip, br, zstd', want: true },
    { name: 'spaces around', header: ' gzip ', want: true },
    { name: 'empty entries', header: 'deflate, , gzip,', want: true },
    { name: 'identity beside gzip changes nothing', header: 'gzip, identity', want: true },
    { name: 'identity only', header: 'identity', want: false },
    { name: 'other encodings only', header: 'deflate', want: false },
    { name: 'garbage entries', header: ', ,  other, nothing, what, ', want: false },
    { name: 'gzip;q=0 refuses gzip', header: 'gzip;q=0', want: false },
    // kube compares the whole entry, so any parameter leaves it out.
    { name: 'gzip;q=1 is not the bare token', header: 'gzip;q=1', want: false },
    { name: 'case-sensitive as kube', header: 'GZIP', want: false },
    { name: 'x-gzip', header: 'x-gzip', want: false },
    { name: 'wildcard', header: '*', want: false },
    { name: 'gzip inside a word', header: 'notgzip, gzipped', want: false },
    { name: 'control bytes', header: 'gz\u0000ip, \u0001gzip', want: false },
    { name: 'huge garbage', header: `${'x,'.repeat(200_000)}y`, want: false },
    { name: 'huge, gzip at the end', header: `${'deflate,'.repeat(100_000)}gzip`, want: true },
    { name: 'repeated header lines', header: ['deflate', 'gzip'], want: true },
    { name: '__proto__', header: '__proto__, constructor', want: false },
  ];
  for (const row of rows) test(row.name, () => expect(acceptsGzip(row.header)).toBe(row.want));
});

const G = '/apis/example.test/v1/gadgets';
const W = '/apis/example.test/v1/namespaces/default/widgets';
/** ~1 KiB of data per Gadget: 200 of them make a list far past the threshold and past one 64 KiB chunk. */
const PAYLOAD = 'v'.repeat(1000);
const MANY = 200;
/** A list between one 64 KiB chunk and the threshold: streamed without gzip, whole with it, never compressed. */
const MIDDLE = 90;

async function seed(h: Harness): Promise<void> {
  for (let i = 0; i < MANY; i++) {
    const res = await h.app.inject({ method: 'POST', url: G, payload: { metadata: { name: `g-${String(i).padStart(4, '0')}` }, data: { p: PAYLOAD } } });
    expect(res.statusCode).toBe(201);
  }
  for (let i = 0; i < MIDDLE; i++) {
    const res = await h.app.inject({ method: 'POST', url: W, payload: { metadata: { name: `w-${i}`, labels: { mid: 'y' } }, spec: { color: PAYLOAD } } });
    expect(res.statusCode).toBe(201);
  }
}

let on: Harness;
let off: Harness;
beforeAll(async () => {
  on = await createHarness();
  off = await createHarness({ responseCompression: false });
  await seed(on);
  await seed(off);
}, 60_000);
afterAll(async () => {
  await on?.close();
  await off?.close();
});

interface Row {
  readonly name: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly gzipped: boolean;
  /** Compare with the same request without Accept-Encoding (false for answers that vary, e.g. Table ages). */
  readonly same?: boolean;
}

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const rows: Row[] = [
  { name: 'big JSON list, gzip: compressed (streamed)', url: G, headers: { 'accept-encoding': 'gzip' }, gzipped: true },
  { name: 'big JSON list, kubectl-like Accept-Encoding list', url: G, headers: { 'accept-encoding': 'deflate, gzip' }, gzipped: true },
  { name: 'big list as ?pretty JSON (whole body): compressed', url: `${G}?pretty=true`, headers: { 'accept-encoding': 'gzip' }, gzipped: true },
  { name: 'big list as YAML: compressed', url: G, headers: { 'accept-encoding': 'gzip', accept: 'application/yaml' }, gzipped: true },
  { name: 'big list as a Table with its objects: compressed', url: `${G}?includeObject=Object`, headers: { 'accept-encoding': 'gzip', accept: TABLE }, gzipped: true, same: false },
  { name: 'big list, paged under the threshold: not compressed', url: `${G}?limit=20`, headers: { 'accept-encoding': 'gzip' }, gzipped: false },
  { name: 'list between one chunk and the threshold: not compressed', url: `${W}?labelSelector=mid%3Dy`, headers: { 'accept-encoding': 'gzip' }, gzipped: false },
  { name: 'GET of one object: not compressed', url: `${G}/g-0001`, headers: { 'accept-encoding': 'gzip' }, gzipped: false },
  { name: 'big list, no Accept-Encoding', url: G, headers: {}, gzipped: false },
  { name: 'big list, identity', url: G, headers: { 'accept-encoding': 'identity' }, gzipped: false },
  { name: 'big list, gzip;q=0', url: G, headers: { 'accept-encoding': 'gzip;q=0' }, gzipped: false },
  { name: 'big list, garbage', url: G, headers: { 'accept-encoding': 'g z i p, \u00ff\u00fe, ;;;, =' }, gzipped: false },
  { name: 'big list, huge header', url: G, headers: { 'accept-encoding': `${'deflate, '.repeat(3000)}br` }, gzipped: false },
  { name: 'big list, huge header ending in gzip', url: G, headers: { 'accept-encoding': `${'deflate, '.repeat(3000)}gzip` }, gzipped: true },
];

describe('answers with the gate on', () => {
  for (const row of rows) {
    test(row.name, async () => {
      const res = await on.app.inject({ method: 'GET', url: row.url, headers: row.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(row.gzipped ? 'gzip' : undefined);
      expect(res.headers.vary).toBe(row.gzipped ? 'Accept-Encoding' : undefined);
      const body = row.gzipped ? gunzipSync(res.rawPayload) : res.rawPayload;
      if (row.gzipped) {
        expect(body.length).toBeGreaterThan(GZIP_THRESHOLD_BYTES);
        expect(res.rawPayload.length).toBeLessThan(body.length / 4);
      }
      if (row.same === false) return;
      const plain = await on.app.inject({ method: 'GET', url: row.url, headers: row.headers.accept === undefined ? {} : { accept: row.headers.accept } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(body.equals(plain.rawPayload)).toBe(true);
    });
  }

  test('an error answer over the threshold is compressed too (kube: SerializeObject of the Status)', async () => {
    const name = 'n'.repeat(200_000);
    const res = await on.app.inject({ method: 'GET', url: `${G}/${name}`, headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  });

  test('a watch asking gzip is never compressed', async () => {
    const res = await on.app.inject({ method: 'GET', url: `${G}?watch=true&timeoutSeconds=1`, headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBeGreaterThan(GZIP_THRESHOLD_BYTES);
    const events = res.body.trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(events).toHaveLength(MANY);
    expect(events.every((e) => e.type === 'ADDED')).toBe(true);
  });

  test('discovery and OpenAPI are not the resource handlers: never compressed', async () => {
    const res = await on.app.inject({ method: 'GET', url: '/openapi/v2', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});

describe('answers with the gate off', () => {
  for (const row of rows.filter((r) => r.gzipped)) {
    test(`${row.name}: not compressed`, async () => {
      const res = await off.app.inject({ method: 'GET', url: row.url, headers: row.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toBeUndefined();
    });
  }
});
