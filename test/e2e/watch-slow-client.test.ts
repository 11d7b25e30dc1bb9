// A watcher that stops reading is cut off, not buffered for without bound (issue #8:
// resident memory after heavy watch traffic). The client below opens a watch over
// HTTP/2 and reads nothing while ~6 MiB of events are written; the server must end
// the stream once MAX_UNREAD_WATCH_BYTES are queued, so when the client resumes it
// sees the end of the stream before all the events.
import { connect, type ClientHttp2Session } from 'node:http2';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_UNREAD_WATCH_BYTES } from '../../src/endpoints/handlers/watch.js';
import { adminCredentials, call, type Credentials } from './support/http.js';
import { startKapi, type RunningKapi } from './support/server.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const VALUE_BYTES = 100 * 1024;
const UPDATES = Math.ceil((1.5 * MAX_UNREAD_WATCH_BYTES) / VALUE_BYTES);

describe('a watcher that does not read', () => {
  let server: RunningKapi;
  let admin: Required<Credentials>;
  let session: ClientHttp2Session | undefined;
  beforeAll(async () => {
    server = await startKapi();
    admin = adminCredentials(server.kubeconfig);
  });
  afterAll(async () => {
    session?.destroy();
    await server?.stop();
  });

  test('is cut off once its unread bytes pass the bound, and the server keeps serving', async () => {
    const body = (i: number) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { v: String(i % 10).repeat(VALUE_BYTES) } });
    const created = await call(server, admin, { method: 'POST', path: CMS, body: body(0), headers: { 'content-type': 'application/json' } });
    expect(created.status).toBe(201);
    const from = created.json().metadata.resourceVersion as string;

    session = connect(server.url, { ca: admin.ca, cert: admin.cert, key: admin.key });
    const stream = session.request({ ':path': `${CMS}?watch=true&resourceVersion=${from}&timeoutSeconds=300`, accept: 'application/json' });
    const status = await new Promise<number>((ok) => stream.once('response', (h) => ok(Number(h[':status']))));
    expect(status).toBe(200);
    stream.pause();

    for (let i = 1; i <= UPDATES; i++) {
      const res = await call(server, admin, { method: 'PUT', path: `${CMS}/big`, body: body(i), headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(200);
    }

    // Resume and read to the end: the server must have ended the stream on its own.
    let received = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      received += chunk;
    });
    stream.resume();
    const ended = await new Promise<boolean>((ok) => {
      const timer = setTimeout(() => ok(false), 20_000);
      stream.once('close', () => {
        clearTimeout(timer);
        ok(true);
      });
    });
    expect(ended).toBe(true);
    const events = received.split('\n').filter((line) => line.startsWith('{'));
    expect(events.length).toBeGreaterThan(0);
    expect(events.length).toBeLessThan(UPDATES);

    // Other clients are unaffected.
    const list = await call(server, admin, { path: CMS });
    expect(list.status).toBe(200);
  });
});
