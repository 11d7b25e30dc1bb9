// The HTTP baselines: a bare Fastify on the same TLS setup (HTTP/2 with HTTP/1.1,
// the same serving certificate, client certificates requested) as kapi.
// - GET answers the same bytes from memory: the GET rows' baseline.
// - With a store, POST hands each parsed body straight to the storage layer's
//   create and answers the stored object: the storage layer's own create
//   throughput reached through the same transport as kapi, the POST rows' baseline
//   (the "same transport on both sides").
// - Without a store, POST answers fixed bytes: what the transport alone allows.
// Run as a child: `node bare-fastify.js <port> <dir-with-pki> <body-file> [sqlite:<dir> | etcd:<endpoint>]`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastify from 'fastify';
import { createObjectStore } from '../../src/storage/object-store.js';
import { openSqliteKv } from '../../src/storage/sqlite/index.js';
import { openEtcdKv } from '../../src/storage/etcd/index.js';
import type { KubeObject } from '../../src/schema/object.js';
import type { Storage } from '../../src/storage/storage.js';

const [portText, certDir, bodyFile, storeSpec] = process.argv.slice(2);
const body = readFileSync(bodyFile!);

/** The storage layer kapi itself would use for `sqlite:<dir>` or `etcd:<endpoint>`. */
function openStore(spec: string): Storage {
  const colon = spec.indexOf(':');
  const kind = spec.slice(0, colon);
  const where = spec.slice(colon + 1);
  if (kind === 'sqlite') return createObjectStore({ kv: openSqliteKv({ path: join(where, 'bare.db') }) });
  if (kind === 'etcd') return createObjectStore({ kv: openEtcdKv({ endpoints: [where], prefix: '/bench-bare', compactionIntervalMs: 0 }) });
  throw new Error(`unknown store ${spec}`);
}

const app = fastify({
  http2: true,
  https: {
    allowHTTP1: true,
    key: readFileSync(join(certDir!, 'apiserver.key')),
    cert: readFileSync(join(certDir!, 'apiserver.crt')),
    ca: readFileSync(join(certDir!, 'ca.crt')),
    requestCert: true,
    rejectUnauthorized: false,
  },
});
app.get('/*', async (_req, reply) => reply.header('Content-Type', 'application/json').send(body));
if (storeSpec === undefined) {
  // Read and parse the JSON body, answer 201 with fixed bytes; no storage.
  app.post('/*', async (_req, reply) => reply.code(201).header('Content-Type', 'application/json').send(body));
} else {
  const storage = openStore(storeSpec);
  app.post('/*', async (req, reply) => {
    const obj = req.body as KubeObject;
    const stored = await storage.create(`/configmaps/default/${obj.metadata.name}`, obj);
    return reply.code(201).header('Content-Type', 'application/json').send(JSON.stringify(stored));
  });
}
await app.listen({ port: Number(portText), host: '127.0.0.1' });
process.stdout.write('ready\n');
