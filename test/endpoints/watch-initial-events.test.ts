// Streaming lists (KEP-3157, client-go's WatchList): sendInitialEvents=true
// sends ADDED for the current state, a BOOKMARK annotated
// k8s.io/initial-events-end: "true" carrying that state's resourceVersion, then
// live changes; the option combinations kube-apiserver refuses are 422 with its
// words (apimachinery validateWatchOptions).
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
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

interface Event {
  readonly type: string;
  readonly object: { kind?: string; metadata: { name?: string; resourceVersion?: string; annotations?: Record<string, string> } };
}

/** Reads events until `until` holds (bounded), then closes the stream. */
function readWatch(url: string, until: (events: readonly Event[]) => boolean, onOpen?: () => Promise<void>): Promise<Event[]> {
  return new Promise((resolve, reject) => {
    const events: Event[] = [];
    const req = httpRequest(`${base}${url}`, { method: 'GET' }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
      let partial = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        partial += chunk;
        const lines = partial.split('\n');
        partial = lines.pop()!;
        for (const line of lines) if (line !== '') events.push(JSON.parse(line) as Event);
        if (until(events)) {
          clearTimeout(timer);
          req.destroy();
          resolve(events);
        }
      });
      void onOpen?.();
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`timed out; got ${JSON.stringify(events)}`));
    }, 10_000);
    req.on('error', (err) => {
      if (!until(events)) reject(err);
    });
    req.end();
  });
}

async function post(name: string): Promise<string> {
  const res = await h.app.inject({ method: 'POST', url: W, payload: { metadata: { name } } });
  expect(res.statusCode).toBe(201);
  return res.json().metadata.resourceVersion as string;
}

const STREAM = 'watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan';
const isEnd = (e: Event): boolean => e.type === 'BOOKMARK' && e.object.metadata.annotations?.['k8s.io/initial-events-end'] === 'true';

describe('sendInitialEvents=true', () => {
  for (const rv of ['', '0']) {
    test(`resourceVersion ${JSON.stringify(rv)}: ADDED for the state, the end bookmark at its version, then changes`, async () => {
      await post('a');
      const last = await post('b');
      const events = await readWatch(
        `${W}?${STREAM}&resourceVersion=${rv}`,
        (got) => got.some((e) => e.type === 'ADDED' && e.object.metadata.name === 'c'),
        async () => void (await post('c')),
      );
      const end = events.findIndex(isEnd);
      expect(end).toBe(2);
      expect(events.slice(0, 2).map((e) => [e.type, e.object.metadata.name, e.object.kind])).toEqual([
        ['ADDED', 'a', 'Widget'],
        ['ADDED', 'b', 'Widget'],
      ]);
      expect(Number(events[end]!.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(last));
      expect(events.slice(end + 1).filter((e) => e.type !== 'BOOKMARK').map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'c']]);
    });
  }

  test('resourceVersion N: the state not older than N', async () => {
    const rv = await post('a');
    const events = await readWatch(`${W}?${STREAM}&resourceVersion=${rv}`, (got) => got.some(isEnd));
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(Number(events[1]!.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
  });

  test('sendInitialEvents=false with resourceVersion unset starts at the most recent state without replaying it', async () => {
    await post('a');
    const events = await readWatch(
      `${W}?watch=true&sendInitialEvents=false&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`,
      (got) => got.some((e) => e.type === 'ADDED'),
      async () => void (await post('b')),
    );
    expect(events.filter((e) => e.type !== 'BOOKMARK').map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'b']]);
  });
});

describe('refused watch options', () => {
  const rows: { name: string; query: string; message: string }[] = [
    {
      name: 'sendInitialEvents without resourceVersionMatch',
      query: 'watch=true&sendInitialEvents=true&allowWatchBookmarks=true',
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    },
    {
      name: 'resourceVersionMatch without sendInitialEvents',
      query: 'watch=true&resourceVersion=1&resourceVersionMatch=NotOlderThan',
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    },
  ];
  for (const row of rows) {
    test(row.name, async () => {
      const res = await h.app.inject({ method: 'GET', url: `${W}?${row.query}` });
      expect(res.statusCode).toBe(422);
      expect(res.json().reason).toBe('Invalid');
      expect(res.json().message).toBe(row.message);
    });
  }
});
