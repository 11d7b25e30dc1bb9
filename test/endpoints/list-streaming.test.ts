// Lists written item by item (src/endpoints/list-stream.ts) over a real socket: the
// body is byte for byte what encoding the whole list gives (JSON and protobuf),
// small lists still go out whole with a Content-Length, pages carry continue and
// remainingItemCount, a slow reader holds the stream without holding the server, a
// client that goes away mid-list costs nothing more, and YAML, Table and
// PartialObjectMetadataList answers are what they were.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { configMaps } from '../../src/apis/core/v1/config-maps.js';
import { jsonCodec } from '../../src/codecs/json.js';
import { protobufCodec } from '../../src/codecs/protobuf.js';
import { yamlCodec } from '../../src/codecs/yaml.js';
import { defaultCodecs } from '../../src/codecs/registry.js';
import { CHUNK_BYTES, sendList } from '../../src/endpoints/list-stream.js';
import { deepFreeze } from '../../src/storage/object-store/codec.js';
import { asPartialMetadata } from '../../src/endpoints/partial-metadata.js';
import type { KubeList } from '../../src/schema/object.js';
import { widgets } from '../support/example-group.js';
import { createHarness, type Harness } from './harness.js';

const W = '/apis/example.test/v1/namespaces/default/widgets';
const CM = '/api/v1/namespaces/default/configmaps';
/** Enough ~1 KiB widgets that the list is many chunks long. */
const MANY = 400;

let h: Harness;
let base: string;
beforeEach(async () => {
  h = await createHarness();
  h.registry.catalog.add(configMaps);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await h.close();
});

async function fill(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const name = `w-${String(i).padStart(4, '0')}`;
    await h.storage.create(`/example.test/widgets/default/${name}`, {
      apiVersion: 'example.test/v1',
      kind: 'Widget',
      metadata: { name, namespace: 'default', uid: `uid-${i}`, labels: { i: String(i % 7) } },
      spec: { color: `<${'c'.repeat(1000)}&${i}>\u2028é` },
    });
    await h.storage.create(`/configmaps/default/cm-${i}`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${i}`, namespace: 'default', uid: `cm-uid-${i}` },
      data: { blob: 'b'.repeat(1000), n: String(i) },
    });
  }
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

function get(path: string, accept = 'application/json'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers: { accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** What the whole-list encoder makes of the same list, read through the registry. */
async function wholeList(def: typeof widgets, opts: { limit?: number; continue?: string } = {}): Promise<KubeList> {
  return h.registry.store(def).list({ namespace: 'default', ...opts });
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('streamed list answers', () => {
  test('a large JSON list is streamed (chunked) and byte for byte the whole-list encoding, twice', async () => {
    await fill(MANY);
    const want = jsonCodec.encode(await wholeList(widgets));
    expect(want.length).toBeGreaterThan(4 * CHUNK_BYTES);
    // Nothing encodes the whole list (not even a second answer after the streamed one).
    const whole = vi.spyOn(jsonCodec, 'encode');
    for (let round = 0; round < 2; round++) {
      const got = await get(W);
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['content-length']).toBeUndefined();
      expect(got.headers['transfer-encoding']).toBe('chunked');
      expect(got.body.equals(want)).toBe(true);
    }
    expect(whole).not.toHaveBeenCalled();
  });

  test('a large protobuf list is streamed and byte for byte the whole-list encoding', async () => {
    await fill(MANY);
    const want = protobufCodec.encode(await wholeList(configMaps));
    expect(want.length).toBeGreaterThan(4 * CHUNK_BYTES);
    const whole = vi.spyOn(protobufCodec, 'encode');
    const got = await get(CM, 'application/vnd.kubernetes.protobuf');
    expect(whole).not.toHaveBeenCalled();
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    expect(got.headers['content-length']).toBeUndefined();
    expect(got.body.equals(want)).toBe(true);
  });

  test('small and empty lists go out whole with a Content-Length, same bytes as before', async () => {
    const empty = await get(W);
    expect(empty.status).toBe(200);
    expect(empty.body.equals(jsonCodec.encode(await wholeList(widgets)))).toBe(true);
    expect(empty.headers['content-length']).toBe(String(empty.body.length));
    expect(JSON.parse(empty.body.toString()).items).toEqual([]);
    await fill(3);
    const small = await get(W);
    expect(small.body.equals(jsonCodec.encode(await wholeList(widgets)))).toBe(true);
    expect(small.headers['content-length']).toBe(String(small.body.length));
    const pb = await get(CM, 'application/vnd.kubernetes.protobuf');
    expect(pb.body.equals(protobufCodec.encode(await wholeList(configMaps)))).toBe(true);
    expect(pb.headers['content-length']).toBe(String(pb.body.length));
  });

  test('limit pages carry continue and remainingItemCount, each page the whole-list bytes', async () => {
    await fill(MANY);
    let token: string | undefined;
    let pages = 0;
    let seen = 0;
    do {
      const q = `?limit=150${token === undefined ? '' : `&continue=${encodeURIComponent(token)}`}`;
      const got = await get(`${W}${q}`);
      expect(got.status).toBe(200);
      const want = await wholeList(widgets, { limit: 150, ...(token === undefined ? {} : { continue: token }) });
      const parsed = JSON.parse(got.body.toString()) as KubeList;
      // The page read through the registry may carry its own token; everything else is identical.
      expect(got.body.equals(jsonCodec.encode({ ...want, metadata: { ...want.metadata, ...(parsed.metadata.continue === undefined ? {} : { continue: parsed.metadata.continue }) } }))).toBe(true);
      seen += parsed.items.length;
      if (parsed.metadata.continue !== undefined) expect(parsed.metadata.remainingItemCount).toBe(MANY - seen);
      else expect(parsed.metadata.remainingItemCount).toBeUndefined();
      token = parsed.metadata.continue;
      pages++;
    } while (token !== undefined);
    expect(pages).toBe(Math.ceil(MANY / 150));
    expect(seen).toBe(MANY);
  });

  test('a slow reader holds its stream, not the server: other requests are answered meanwhile, and the body is still whole', async () => {
    await fill(MANY);
    const want = jsonCodec.encode(await wholeList(widgets));
    const chunks: Buffer[] = [];
    let res!: IncomingMessage;
    let hold = true;
    const done = new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${base}${W}`, { headers: { accept: 'application/json' } }, (r) => {
        res = r;
        r.on('data', (c: Buffer) => {
          chunks.push(c);
          if (hold) r.pause();
        });
        r.on('end', () => resolve());
        r.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    await until('the first chunk', () => chunks.length > 0);
    let ended = false;
    void done.then(() => (ended = true));
    const other = await get(`${W}?limit=1`);
    expect(other.status).toBe(200);
    expect(ended).toBe(false);
    hold = false;
    res.resume();
    await done;
    expect(Buffer.concat(chunks).equals(want)).toBe(true);
  });

  test('a client that goes away mid-list ends its stream; the server keeps serving', async () => {
    await fill(MANY);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${base}${W}`, { headers: { accept: 'application/json' } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
      req.end();
    });
    await until('the connection to close', async () => (await new Promise<number>((r) => h.app.server.getConnections((_e, n) => r(n)))) === 0);
    const again = await get(W);
    expect(again.status).toBe(200);
    expect(again.body.equals(jsonCodec.encode(await wholeList(widgets)))).toBe(true);
  });
});

describe('answers that keep the whole-list path', () => {
  test('YAML is the YAML encoding of the list', async () => {
    await fill(60);
    const got = await get(W, 'application/yaml');
    expect(got.status).toBe(200);
    expect(got.body.equals(yamlCodec.encode(await wholeList(widgets)))).toBe(true);
  });

  test('?pretty=true is indented JSON of the list', async () => {
    await fill(60);
    const got = await get(`${W}?pretty=true`);
    expect(got.body.toString()).toBe(JSON.stringify(JSON.parse(jsonCodec.encode(await wholeList(widgets)).toString()), null, 2).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028') + '\n');
  });

  test('a Table answers a Table', async () => {
    await fill(60);
    const got = await get(W, 'application/json;as=Table;v=v1;g=meta.k8s.io');
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/json;as=Table;v=v1;g=meta.k8s.io');
    const table = JSON.parse(got.body.toString()) as { kind: string; rows: unknown[] };
    expect(table.kind).toBe('Table');
    expect(table.rows).toHaveLength(60);
  });

  test('PartialObjectMetadataList (JSON and protobuf) is the whole-list encoding of the metadata-only form', async () => {
    await fill(MANY);
    const partial = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';
    const got = await get(W, partial);
    expect(got.status).toBe(200);
    expect(got.body.equals(jsonCodec.encode(asPartialMetadata(await wholeList(widgets), { kind: 'PartialObjectMetadataList', version: 'v1' })))).toBe(true);
    const pb = await get(CM, 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io');
    expect(pb.status).toBe(200);
    expect(pb.body.equals(protobufCodec.encode(asPartialMetadata(await wholeList(configMaps), { kind: 'PartialObjectMetadataList', version: 'v1' })))).toBe(true);
  });

  test('an Accept nothing fits is still 406 before anything is sent', async () => {
    const got = await get(W, 'application/vnd.kubernetes.protobuf');
    expect(got.status).toBe(406);
    // Status has a protobuf message, so the 406 itself is protobuf.
    expect(protobufCodec.decode(got.body)).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
  });
});

describe('sendList with every item a slice of its own (sliceMs 0: each yields to the event loop)', () => {
  /** A bare app whose one route answers `list` through sendList. */
  async function serve(list: unknown): Promise<{ url: string; close: () => Promise<void> }> {
    const app = fastify();
    app.get('/list', async (request, reply) => {
      if (!(await sendList(request, reply, { list: list as KubeList, codecs: defaultCodecs, sliceMs: 0 }))) throw new Error('no piecewise form');
      return reply;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/list`, close: () => app.close() };
  }

  const item = (i: number, size: number) =>
    deepFreeze({ metadata: { name: `cm-${i}`, namespace: 'default' }, data: { blob: `<${'b'.repeat(size)}>` } });
  const cases = [
    { name: 'JSON, small (one body)', accept: 'application/json', codec: jsonCodec, count: 20, size: 100 },
    { name: 'JSON, large (streamed)', accept: 'application/json', codec: jsonCodec, count: 300, size: 1000 },
    { name: 'protobuf, small (one body)', accept: 'application/vnd.kubernetes.protobuf', codec: protobufCodec, count: 20, size: 100 },
    { name: 'protobuf, large (streamed)', accept: 'application/vnd.kubernetes.protobuf', codec: protobufCodec, count: 300, size: 1000 },
    { name: 'JSON, empty', accept: 'application/json', codec: jsonCodec, count: 0, size: 0 },
    { name: 'protobuf, empty', accept: 'application/vnd.kubernetes.protobuf', codec: protobufCodec, count: 0, size: 0 },
  ];
  for (const c of cases) {
    test(`${c.name}: byte for byte the whole-list encoding`, async () => {
      const list = {
        kind: 'ConfigMapList',
        apiVersion: 'v1',
        metadata: { resourceVersion: '9', continue: 'tok', remainingItemCount: 3 },
        items: Array.from({ length: c.count }, (_, i) => ({ ...item(i, c.size) })),
      };
      const server = await serve(list);
      try {
        const got = await new Promise<Buffer>((resolve, reject) => {
          const req = httpRequest(server.url, { headers: { accept: c.accept } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (d: Buffer) => chunks.push(d));
            res.on('end', () => resolve(Buffer.concat(chunks)));
          });
          req.on('error', reject);
          req.end();
        });
        expect(got.equals(c.codec.encode(list))).toBe(true);
      } finally {
        await server.close();
      }
    });
  }
});
