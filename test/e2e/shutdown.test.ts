// Bounded shutdown (issue 8): SIGTERM or SIGINT makes /readyz fail, serves
// everything else for --shutdown-delay-duration, drains in-flight requests up to
// a bound, ends watches, closes storage and exits 0 — whatever clients hold open
// (watches, idle keep-alive connections, half-sent bodies, TCP connections that
// never start TLS) — and the next start opens the same database. A second signal
// exits at once.
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect, type ClientHttp2Session } from 'node:http2';
import { Agent, request } from 'node:https';
import { expect, test } from 'vitest';
import { adminCredentials, call } from './support/http.js';
import { eventually, startKapi, type RunningKapi } from './support/server.js';

function h2Session(server: RunningKapi): ClientHttp2Session {
  const creds = adminCredentials(server.kubeconfig);
  const session = connect(server.url, creds);
  session.on('error', () => undefined);
  return session;
}

/** One HTTP/2 request; resolves with the status, or with 0 when the stream fails (server gone). */
function h2Call(session: ClientHttp2Session, opts: { method?: string; path: string; body?: string }): Promise<number> {
  return new Promise((resolve) => {
    let stream;
    try {
      stream = session.request({
        ':method': opts.method ?? 'GET',
        ':path': opts.path,
        accept: 'application/json',
        ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      });
    } catch {
      // The session is closing or gone.
      resolve(0);
      return;
    }
    let status = 0;
    stream.on('response', (h) => (status = Number(h[':status'])));
    stream.on('error', () => resolve(0));
    stream.on('close', () => resolve(status));
    stream.resume();
    stream.end(opts.body);
  });
}

const configMap = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });

async function readyzStatus(server: RunningKapi): Promise<{ status: number; body: string }> {
  const res = await call(server, adminCredentials(server.kubeconfig), { path: '/readyz?verbose' });
  return { status: res.status, body: res.body.toString() };
}

test('an open watch does not hold shutdown', async () => {
  const server = await startKapi();
  const session = h2Session(server);
  const stream = session.request({ ':path': '/api/v1/namespaces?watch=true', accept: 'application/json' });
  stream.on('error', () => undefined);
  const firstEvent = new Promise<string>((resolve) => stream.once('data', (c: Buffer) => resolve(c.toString())));
  const ended = new Promise<void>((resolve) => stream.once('close', () => resolve()));
  expect(await firstEvent).toContain('"type":"ADDED"');

  const started = Date.now();
  const exit = await server.stop();
  expect(exit).toEqual({ code: 0, signal: null });
  expect(Date.now() - started).toBeLessThan(5000);
  await ended;
  session.destroy();
}, 30_000);

test('SIGTERM under heavy traffic and stuck clients exits within the bound; the next start opens the database', async () => {
  // --request-timeout bounds the drain: 3 s here instead of the default minute.
  const server = await startKapi({ args: ['--request-timeout=3s'] });
  const dataDir = server.dataDir;
  const creds = adminCredentials(server.kubeconfig);
  const sessions = [0, 1, 2].map(() => h2Session(server));
  const agent = new Agent({ keepAlive: true, maxSockets: 4, ca: creds.ca, cert: creds.cert, key: creds.key });
  let running = true;
  let served = 0;
  const acked: string[] = [];

  const h2Loop = async (s: ClientHttp2Session, id: string) => {
    for (let i = 0; running; i++) {
      const write = await h2Call(s, { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: configMap(`h2-${id}-${i}`) });
      if (write === 201) acked.push(`h2-${id}-${i}`);
      const read = await h2Call(s, { path: '/api/v1/namespaces/default/configmaps?limit=50' });
      if (write === 0 || read === 0) return;
      served += 2;
    }
  };
  const h1Loop = async (id: string) => {
    for (let i = 0; running; i++) {
      const status = await new Promise<number>((resolve) => {
        const req = request({ host: '127.0.0.1', port: server.port, path: '/api/v1/namespaces', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', () => resolve(0));
        });
        req.on('error', () => resolve(0));
        req.end();
      });
      if (status === 0) return;
      served++;
      void id;
    }
  };
  const loops = [...sessions.flatMap((s, i) => [h2Loop(s, `${i}a`), h2Loop(s, `${i}b`)]), h1Loop('a'), h1Loop('b')];

  // Clients that would hold a naive close forever: a TCP connection that never starts TLS,
  // an HTTP/1.1 body that never completes, an HTTP/2 stream whose body never ends, an idle
  // keep-alive connection (the agent's, between requests) and a watch.
  const raw: Socket = tcpConnect({ host: '127.0.0.1', port: server.port });
  raw.on('error', () => undefined);
  const halfBody = request({
    host: '127.0.0.1',
    port: server.port,
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps',
    headers: { 'content-type': 'application/json', 'content-length': '1000' },
    ca: creds.ca,
    cert: creds.cert,
    key: creds.key,
    agent: false,
  });
  halfBody.on('error', () => undefined);
  halfBody.write('{"apiVersion":');
  const stuckStream = sessions[0]!.request({ ':method': 'POST', ':path': '/api/v1/namespaces/default/configmaps', 'content-type': 'application/json' });
  stuckStream.on('error', () => undefined);
  stuckStream.write('{"kind":');
  const watch = sessions[1]!.request({ ':path': '/api/v1/configmaps?watch=true', accept: 'application/json' });
  watch.on('error', () => undefined);
  watch.resume();

  await eventually('traffic flowing', () => served > 100, 20_000);
  const started = Date.now();
  server.kill('SIGTERM');
  const exit = await server.exited;
  const tookMs = Date.now() - started;
  running = false;
  await Promise.all(loops);
  for (const s of sessions) s.destroy();
  raw.destroy();
  agent.destroy();

  expect(exit, server.logs().slice(-3000)).toEqual({ code: 0, signal: null });
  // The drain bound (3 s) plus closing; far below the minutes a hung close took.
  expect(tookMs).toBeLessThan(8000);
  expect(server.logs()).toContain('"msg":"kapi stopped"');

  const next = await startKapi({ dataDir });
  try {
    expect(next.logs()).not.toContain('database is locked');
    // Every write the clients saw acknowledged is stored.
    const list = await call(next, adminCredentials(next.kubeconfig), { path: '/api/v1/namespaces/default/configmaps' });
    expect(list.status).toBe(200);
    const names = new Set((list.json().items as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name));
    for (const name of acked) expect(names.has(name), name).toBe(true);
  } finally {
    await next.stop();
    await server.stop();
  }
}, 60_000);

test('SIGINT: /readyz fails during --shutdown-delay-duration while other requests are still served, then exit 0', async () => {
  const server = await startKapi({ args: ['--shutdown-delay-duration=4s'] });
  const creds = adminCredentials(server.kubeconfig);
  try {
    expect((await readyzStatus(server)).status).toBe(200);
    const signalled = Date.now();
    server.kill('SIGINT');
    await eventually('readyz fails', async () => (await readyzStatus(server)).status !== 200, 3000);
    const readyz = await readyzStatus(server);
    // kube-apiserver's health endpoints answer a failed check with 500.
    expect(readyz.status).toBe(500);
    expect(readyz.body).toContain('[-]shutdown failed');
    // Liveness is unaffected, and so is everything else, on new connections too.
    expect((await call(server, creds, { path: '/livez' })).status).toBe(200);
    expect((await call(server, creds, { path: '/api/v1/namespaces/default' })).status).toBe(200);
    const write = await call(server, creds, { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: configMap('during-delay'), headers: { 'content-type': 'application/json' } });
    expect(write.status).toBe(201);
    expect(Date.now() - signalled).toBeLessThan(4000);

    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(4000);
  } finally {
    await server.stop();
  }
}, 30_000);

test('a second signal while stopping exits at once, non-zero, with a log line', async () => {
  const server = await startKapi({ args: ['--shutdown-delay-duration=60s'] });
  try {
    server.kill('SIGTERM');
    await eventually('readyz fails', async () => (await readyzStatus(server)).status !== 200, 3000);
    const second = Date.now();
    server.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(Date.now() - second).toBeLessThan(2000);
    expect(server.logs()).toContain('second signal while stopping: exiting at once');
  } finally {
    await server.stop();
  }
}, 30_000);
