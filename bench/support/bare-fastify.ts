// The GET baseline: a bare Fastify over the same TLS setup answering the same
// bytes from memory (and a POST ceiling: the same server taking the same bodies). Run as a child: `node bare-fastify.js <port> <dir-with-pki>`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastify from 'fastify';

const [portText, certDir, bodyFile] = process.argv.slice(2);
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
// The POST ceiling: read and parse the JSON body, answer 201 with fixed bytes; no storage.
app.post('/*', async (_req, reply) => reply.code(201).header('Content-Type', 'application/json').send(body));
await app.listen({ port: Number(portText), host: '127.0.0.1' });
process.stdout.write('ready\n');
