// A streamed list over HTTP/2 (kubectl and client-go speak it to a TLS server):
// the same bytes as encoding the whole list, a reset stream mid-list leaves the
// session and the server serving. Cleartext h2 here: TLS adds nothing to the stream.
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { configMaps } from '../../src/apis/core/v1/config-maps.js';
import { jsonCodec } from '../../src/codecs/json.js';
import { protobufCodec } from '../../src/codecs/protobuf.js';
import { installResources } from '../../src/endpoints/installer.js';
import { CHUNK_BYTES } from '../../src/endpoints/list-stream.js';
import { resolveRequestInfo } from '../../src/endpoints/request-info.js';
import { createRegistry, type Registry } from '../../src/registry/registry.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import type { Storage } from '../../src/storage/storage.js';
import { ADMIN, NOW } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';

let app: FastifyInstance;
let storage: Storage;
let registry: Registry;
let session: ClientHttp2Session;

beforeEach(async () => {
  storage = createObjectStore({ kv: openMemoryKv() });
  registry = createRegistry({ storage, resources: [configMaps], admission: createAdmissionChain(), clock: () => NOW });
  app = fastify({ http2: true }) as unknown as FastifyInstance;
  app.addHook('onRequest', async (request) => {
    request.kapi = { info: resolveRequestInfo(request.method, request.url), user: ADMIN, auditId: 'test', warnings: [] };
  });
  installResources(app, { registry });
  await app.listen({ port: 0, host: '127.0.0.1' });
  session = connect(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
  for (let i = 0; i < 300; i++) {
    await storage.create(`/configmaps/default/cm-${i}`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${i}`, namespace: 'default', uid: `uid-${i}` },
      data: { blob: `<${'b'.repeat(1000)}>`, n: String(i) },
    });
  }
});
afterEach(async () => {
  session.close();
  await app.close();
  await storage.close();
});

function get(path: string, accept: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': path, accept });
    let status = 0;
    const chunks: Buffer[] = [];
    stream.on('response', (headers) => (status = Number(headers[':status'])));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve({ status, body: Buffer.concat(chunks) }));
    stream.on('error', reject);
    stream.end();
  });
}

test('JSON and protobuf lists over HTTP/2 are byte for byte the whole-list encodings', async () => {
  const list = await registry.store(configMaps).list({ namespace: 'default' });
  const json = await get(CM, 'application/json');
  expect(json.status).toBe(200);
  expect(json.body.length).toBeGreaterThan(2 * CHUNK_BYTES);
  expect(json.body.equals(jsonCodec.encode(list))).toBe(true);
  const pb = await get(CM, 'application/vnd.kubernetes.protobuf');
  expect(pb.status).toBe(200);
  expect(pb.body.equals(protobufCodec.encode(list))).toBe(true);
});

// The server side of the reset stream must end too: if it did not, app.close() in
// afterEach would wait on the session and fail the test on the hook's timeout.
test('a stream reset mid-list ends the server side of it and leaves the session serving', async () => {
  await new Promise<void>((resolve, reject) => {
    const stream = session.request({ ':path': CM, accept: 'application/json' });
    stream.once('data', () => {
      // CANCEL, as Go's client resets a stream whose request context ended.
      stream.close(constants.NGHTTP2_CANCEL);
      resolve();
    });
    stream.on('error', reject);
    stream.end();
  });
  const again = await get(CM, 'application/json');
  expect(again.status).toBe(200);
  expect(again.body.equals(jsonCodec.encode(await registry.store(configMaps).list({ namespace: 'default' })))).toBe(true);
});
