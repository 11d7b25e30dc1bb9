// Watch over a real socket: events must arrive while the response is still open
// (headers flushed first), in order, filtered by selectors.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';

const W = '/apis/example.test/v1/namespaces/default/widgets';

let h: Harness;
let base: string;
beforeEach(async () => {
  h = await createHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await h.close();
});

interface Stream {
  readonly response: IncomingMessage;
  /** Resolves with the next n events. */
  next(n: number): Promise<{ type: string; object: { metadata: { name?: string; resourceVersion?: string }; kind?: string } }[]>;
  close(): void;
}

function openWatch(url: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${url}`, { method: 'GET' }, (response) => {
      const events: unknown[] = [];
      const waiters: { n: number; resolve: (e: unknown[]) => void }[] = [];
      let partial = '';
      const pump = () => {
        while (waiters.length > 0 && events.length >= waiters[0]!.n) {
          const w = waiters.shift()!;
          w.resolve(events.splice(0, w.n));
        }
      };
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        partial += chunk;
        const lines = partial.split('\n');
        partial = lines.pop()!;
        for (const line of lines) if (line !== '') events.push(JSON.parse(line));
        pump();
      });
      resolve({
        response,
        next: (n) => new Promise((res) => { waiters.push({ n, resolve: res as (e: unknown[]) => void }); pump(); }) as never,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function post(name: string, labels: Record<string, string> = {}) {
  const res = await h.app.inject({ method: 'POST', url: W, payload: { metadata: { name, labels } } });
  expect(res.statusCode).toBe(201);
  return res.json();
}

test('resourceVersion unset: synthetic ADDED for existing objects, then live changes', async () => {
  await post('a');
  await post('b');
  const w = await openWatch(`${W}?watch=true`);
  expect(w.response.statusCode).toBe(200);
  expect(w.response.headers['content-type']).toBe('application/json');
  expect((await w.next(2)).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED a', 'ADDED b']);
  await post('c');
  const a = (await h.app.inject({ method: 'GET', url: `${W}/a` })).json();
  await h.app.inject({ method: 'PUT', url: `${W}/a`, payload: { ...(a as object), spec: { size: 2 } } });
  await h.app.inject({ method: 'DELETE', url: `${W}/b` });
  const events = await w.next(3);
  expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED c', 'MODIFIED a', 'DELETED b']);
  expect(events[0]!.object.kind).toBe('Widget');
  w.close();
});

test('from a list resourceVersion, narrowed by metadata.name across namespaces', async () => {
  await post('a');
  const list = (await h.app.inject({ method: 'GET', url: W })).json() as { metadata: { resourceVersion: string } };
  const w = await openWatch(`/apis/example.test/v1/widgets?watch=1&fieldSelector=metadata.name%3Db&resourceVersion=${list.metadata.resourceVersion}`);
  await post('x');
  await post('b');
  const [event] = await w.next(1);
  expect(`${event!.type} ${event!.object.metadata.name}`).toBe('ADDED b');
  w.close();
});

test('label selector: an object that stops matching is DELETED', async () => {
  const w = await openWatch(`${W}?watch=true&labelSelector=app%3Dx`);
  const created = await post('a', { app: 'x' });
  expect((await w.next(1))[0]!.type).toBe('ADDED');
  await h.app.inject({ method: 'PUT', url: `${W}/a`, payload: { ...(created as object), metadata: { ...created.metadata, labels: { app: 'y' } } } });
  expect((await w.next(1))[0]!.type).toBe('DELETED');
  w.close();
});

test('legacy /watch/ path with a name', async () => {
  const w = await openWatch('/apis/example.test/v1/watch/namespaces/default/widgets/b');
  await post('a');
  await post('b');
  const [event] = await w.next(1);
  expect(`${event!.type} ${event!.object.metadata.name}`).toBe('ADDED b');
  w.close();
});

test('timeoutSeconds ends the stream', async () => {
  await post('a');
  const res = await h.app.inject({ method: 'GET', url: `${W}?watch=true&timeoutSeconds=1` });
  expect(res.statusCode).toBe(200);
  expect(res.body.trim().split('\n').map((l) => JSON.parse(l).type)).toEqual(['ADDED']);
});


test('a malformed resourceVersion fails before the stream starts', async () => {
  const res = await h.app.inject({ method: 'GET', url: `${W}?watch=true&resourceVersion=x1` });
  expect(res.statusCode).toBe(400);
  expect(res.json().reason).toBe('BadRequest');
});
