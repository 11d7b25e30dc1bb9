// The GET baseline: a bare Fastify over the same TLS setup answering the same
// bytes from memory. Also two POST ceilings for the POST row: the same server
// taking the same bodies and answering fixed bytes (no work at all), and, with a
// store directory, the same server handing each parsed body straight to the
// storage layer's create and answering the stored object (the least any
// single-process server on this storage must do per create).
// Run as a child: `node bare-fastify.js <port> <dir-with-pki> <body-file> [<store-dir>]`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastify from 'fastify';
import { createObjectStore } from '../../src/storage/object-store.js';
import { openSqliteKv } from '../../src/storage/sqlite/index.js';
import type { KubeObject } from '../../src/schema/object.js';

const [portText, certDir, bodyFile, storeDir] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
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
if (storeDir === undefined) {
  // Read and parse the JSON body, answer 201 with fixed bytes; no storage.
  app.post('/*', async (_req, reply) => reply.code(201).header('Content-Type', 'application/json').send(body));
} else {
  const storage = createObjectStore({ kv: openSqliteKv({ path: join(storeDir, 'bare.db') }) });
  app.post('/*', async (req, reply) => {
    const obj = req.body as KubeObject;
    const stored = await storage.create(`/configmaps/default/${obj.metadata.name}`, obj);
    return reply.code(201).header('Content-Type', 'application/json').send(JSON.stringify(stored));
  });
}
await app.listen({ port: Number(portText), host: '127.0.0.1' });
process.stdout.write('ready\n');
