// A busy watch's frames are gathered over WATCH_WRITE_WINDOW_MS and written
// together (handlers/watch.ts): a burst of changes still reaches every watcher
// exactly once, in order, and what is held when the stream ends is written first.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';

const W = '/apis/example.test/v1/namespaces/default/widgets';
const UPDATES = 40;

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

/** Opens a watch and resolves with every line it sent once the server ends it. */
function readToEnd(url: string): { opened: Promise<void>; lines: Promise<string[]> } {
  let opened!: () => void;
  const openedP = new Promise<void>((r) => (opened = r));
  const lines = new Promise<string[]>((resolve, reject) => {
    const req = httpRequest(`${base}${url}`, (res) => {
      expect(res.statusCode).toBe(200);
      opened();
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text.split('\n').filter((l) => l !== '')));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  return { opened: openedP, lines };
}

test('a burst of updates reaches every watcher exactly once, in order, before the stream ends', async () => {
  const created = await h.app.inject({ method: 'POST', url: W, payload: { metadata: { name: 'a' } } });
  expect(created.statusCode).toBe(201);
  let current = created.json() as { metadata: { resourceVersion: string } };
  // The stream ends on its own after a second, with whatever was held written first.
  const watches = [0, 1].map(() => readToEnd(`${W}?watch=true&timeoutSeconds=1&resourceVersion=${current.metadata.resourceVersion}`));
  await Promise.all(watches.map((w) => w.opened));
  const versions: string[] = [];
  for (let i = 1; i <= UPDATES; i++) {
    const res = await h.app.inject({ method: 'PUT', url: `${W}/a`, payload: { ...current, spec: { size: i } } });
    expect(res.statusCode).toBe(200);
    current = res.json();
    versions.push(current.metadata.resourceVersion);
  }
  for (const lines of await Promise.all(watches.map((w) => w.lines))) {
    const events = lines.map((l) => JSON.parse(l) as { type: string; object: { metadata: { resourceVersion: string } } });
    expect(events.map((e) => e.type)).toEqual(Array(UPDATES).fill('MODIFIED'));
    expect(events.map((e) => e.object.metadata.resourceVersion)).toEqual(versions);
  }
});
