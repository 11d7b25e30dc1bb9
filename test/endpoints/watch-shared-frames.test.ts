// Fan-out: watchers of one resource in the same codec share one frame per event.
// Three watchers see every update, and the JSON framer runs once per event, not
// once per watcher (storage hands them one frozen object; framing.ts keeps its bytes).
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { jsonCodec } from '../../src/codecs/json.js';
import { defaultCodecs } from '../../src/codecs/registry.js';
import { createHarness, type Harness } from './harness.js';

const W = '/apis/example.test/v1/namespaces/default/widgets';
const WATCHERS = 3;
const UPDATES = 5;

let h: Harness;
let base: string;
beforeEach(async () => {
  h = await createHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await h.close();
});

/** Opens a watch and resolves with the raw lines once `n` have arrived. */
function collect(url: string, n: number): { opened: Promise<void>; lines: Promise<string[]> } {
  let opened!: () => void;
  const openedP = new Promise<void>((r) => (opened = r));
  const lines = new Promise<string[]>((resolve, reject) => {
    const req = httpRequest(`${base}${url}`, (res) => {
      opened();
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        const got = text.split('\n').filter((l) => l !== '');
        if (got.length >= n) {
          req.destroy();
          resolve(got);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
  return { opened: openedP, lines };
}

test('watchers of one resource get every event, framed once per event', async () => {
  const created = await h.app.inject({ method: 'POST', url: W, payload: { metadata: { name: 'a' } } });
  let current = created.json() as { metadata: { resourceVersion: string } };
  const framer = defaultCodecs.framerFor(jsonCodec)!;
  const frames = vi.spyOn(framer, 'frame');
  const watches = Array.from({ length: WATCHERS }, () => collect(`${W}?watch=true&resourceVersion=${current.metadata.resourceVersion}`, UPDATES));
  await Promise.all(watches.map((w) => w.opened));
  for (let i = 1; i <= UPDATES; i++) {
    const res = await h.app.inject({ method: 'PUT', url: `${W}/a`, payload: { ...current, spec: { size: i } } });
    expect(res.statusCode).toBe(200);
    current = res.json();
  }
  const got = await Promise.all(watches.map((w) => w.lines));
  for (const lines of got) {
    expect(lines.map((l) => (JSON.parse(l) as { object: { spec: { size: number } } }).object.spec.size)).toEqual([1, 2, 3, 4, 5]);
    expect(lines).toEqual(got[0]);
  }
  expect(frames).toHaveBeenCalledTimes(UPDATES);
});
