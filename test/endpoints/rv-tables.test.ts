// The API concepts page's resourceVersion tables over HTTP, through the watch
// cache (the default) and without it (--watch-cache=false): get, list and watch
// with resourceVersion unset, "0" and N, resourceVersionMatch Exact and
// NotOlderThan, and what kube answers for the combinations and versions it
// refuses: 422 for invalid options, 400 for a malformed version or one beside a
// continue token, 410 Expired for a version older than history, 504 Timeout "Too
// large resource version" (retryAfterSeconds 1) for one the server has not
// reached; a watch reports the last two as an ERROR event in a 200 stream, as
// kube's cacher does. Bookmarks come on kube's schedule.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { nextBookmarkDelay } from '../../src/endpoints/handlers/watch.js';
import { installResources } from '../../src/endpoints/installer.js';
import { encodeStatusFor } from '../../src/endpoints/negotiation.js';
import { resolveRequestInfo } from '../../src/endpoints/request-info.js';
import { internal, isStatusError } from '../../src/errors/status-error.js';
import { createCatalog } from '../../src/registry/catalog.js';
import { createRegistry } from '../../src/registry/registry.js';
import { createCacher, type CachingStorage } from '../../src/storage/cacher/index.js';
import type { KV } from '../../src/storage/kv.js';
import type { Storage } from '../../src/storage/storage.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { exampleResources, testNamespaces } from '../support/example-group.js';
import { ADMIN, NOW } from './harness.js';

const W = '/apis/example.test/v1/namespaces/default/widgets';

let app: FastifyInstance;
let kv: KV;
let cacher: CachingStorage | undefined;
let base: string;

/** Served through the watch cache (the default) or straight from storage (--watch-cache=false). */
type Mode = 'watch cache' | 'no watch cache';
let storage: Storage;

async function start(mode: Mode): Promise<void> {
  kv = openMemoryKv();
  const store = createObjectStore({ kv });
  // A short freshness bound keeps the 504 rows fast; kube's is 3 s (the default).
  cacher = mode === 'watch cache' ? createCacher({ backend: store, freshnessTimeoutMs: 200 }) : undefined;
  storage = cacher ?? store;
  let uid = 0;
  const registry = createRegistry({ storage, catalog: createCatalog(exampleResources), admission: createAdmissionChain(), clock: () => NOW, uid: () => `uid-${++uid}` });
  await registry.store(testNamespaces).create({ metadata: { name: 'default' } });
  app = fastify();
  app.addHook('onRequest', async (request) => {
    request.kapi = { info: resolveRequestInfo(request.method, request.url), user: ADMIN, auditId: 'test', warnings: [] };
  });
  app.setErrorHandler((err, request, reply) => {
    const status = isStatusError(err) ? err : internal(err);
    const encoded = encodeStatusFor(request, status.toStatus());
    for (const [name, value] of Object.entries(status.headers)) reply.header(name, value);
    return reply.code(status.code).header('Content-Type', encoded.contentType).send(encoded.body);
  });
  installResources(app, { registry });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await app.close();
  await storage.close();
});

interface Widget {
  readonly metadata: { name: string; resourceVersion: string };
  readonly spec?: { size?: number };
}

async function post(name: string, size = 1): Promise<Widget> {
  const res = await app.inject({ method: 'POST', url: W, payload: { metadata: { name }, spec: { size } } });
  expect(res.statusCode).toBe(201);
  return res.json() as Widget;
}

async function resize(name: string, size: number): Promise<Widget> {
  const res = await app.inject({ method: 'PATCH', url: `${W}/${name}`, headers: { 'content-type': 'application/merge-patch+json' }, payload: { spec: { size } } });
  expect(res.statusCode).toBe(200);
  return res.json() as Widget;
}

/** Two versions of a and one of b; `first` is a's first version, when b did not exist yet. */
async function seed(): Promise<{ first: Widget; second: Widget; b: Widget }> {
  // The resource's cache starts on its first read and keeps history from there
  // (kube-apiserver's from its start): start it before writing.
  expect((await app.inject({ method: 'GET', url: W })).statusCode).toBe(200);
  const first = await post('a', 1);
  const b = await post('b', 1);
  const second = await resize('a', 2);
  return { first, second, b };
}

/** Forgets history up to `rv` in the backend and the cache alike. */
async function compact(rv: string): Promise<void> {
  await kv.compact(Number(rv));
  cacher?.forgetHistoryThrough(Number(rv));
}

interface StatusBody {
  kind: string;
  status: string;
  reason: string;
  code: number;
  message: string;
  details?: { causes?: { reason: string; message: string }[]; retryAfterSeconds?: number };
}

interface Event {
  readonly type: string;
  readonly object: { kind?: string; metadata?: { name?: string; resourceVersion?: string; annotations?: Record<string, string> }; spec?: { size?: number } } & Partial<StatusBody>;
}

/** Reads a watch until `until` holds or the server ends it (bounded); answers the status and events. */
function readWatch(url: string, until: (events: readonly Event[]) => boolean, onOpen?: () => Promise<unknown>): Promise<{ status: number; events: Event[]; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const events: Event[] = [];
    let status = 0;
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`timed out; got ${JSON.stringify(events)}`));
    }, 10_000);
    const done = (ended: boolean): void => {
      clearTimeout(timer);
      req.destroy();
      resolve({ status, events, ended });
    };
    const req = httpRequest(`${base}${url}`, { method: 'GET' }, (res) => {
      status = res.statusCode ?? 0;
      let partial = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        partial += chunk;
        const lines = partial.split('\n');
        partial = lines.pop()!;
        for (const line of lines) if (line !== '') events.push(JSON.parse(line) as Event);
        if (until(events)) done(false);
      });
      res.on('end', () => done(true));
      void onOpen?.();
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end();
  });
}

for (const mode of ['watch cache', 'no watch cache'] as const) {
describe(mode, () => {
  beforeEach(() => start(mode));

  describe('get', () => {
    const rows: { name: string; rv: (s: { first: Widget; second: Widget }) => string | undefined; size: number }[] = [
      { name: 'unset: the most recent state', rv: () => undefined, size: 2 },
      { name: '"0": any state (the cache has the latest here)', rv: () => '0', size: 2 },
      { name: 'N: not older than N', rv: (s) => s.first.metadata.resourceVersion, size: 2 },
      { name: 'the latest N', rv: (s) => s.second.metadata.resourceVersion, size: 2 },
    ];
    for (const row of rows) {
      test(row.name, async () => {
        const s = await seed();
        const rv = row.rv(s);
        const res = await app.inject({ method: 'GET', url: `${W}/a${rv === undefined ? '' : `?resourceVersion=${rv}`}` });
        expect(res.statusCode).toBe(200);
        expect((res.json() as Widget).spec?.size).toBe(row.size);
        expect((res.json() as Widget).metadata.resourceVersion).toBe(s.second.metadata.resourceVersion);
      });
    }
  });

  describe('list', () => {
    const rows: { name: string; query: (s: { first: Widget; second: Widget }) => string; names: string[]; aSize: number; at: 'first' | 'latest' }[] = [
      { name: 'unset: the most recent state', query: () => '', names: ['a', 'b'], aSize: 2, at: 'latest' },
      { name: '"0": any state', query: () => 'resourceVersion=0', names: ['a', 'b'], aSize: 2, at: 'latest' },
      { name: '"0" NotOlderThan: any state', query: () => 'resourceVersion=0&resourceVersionMatch=NotOlderThan', names: ['a', 'b'], aSize: 2, at: 'latest' },
      { name: 'N: not older than N', query: (s) => `resourceVersion=${s.first.metadata.resourceVersion}`, names: ['a', 'b'], aSize: 2, at: 'latest' },
      { name: 'N NotOlderThan: not older than N', query: (s) => `resourceVersion=${s.first.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`, names: ['a', 'b'], aSize: 2, at: 'latest' },
      { name: 'N Exact: exactly N', query: (s) => `resourceVersion=${s.first.metadata.resourceVersion}&resourceVersionMatch=Exact`, names: ['a'], aSize: 1, at: 'first' },
      { name: 'N with a limit and no match: exactly N (legacy)', query: (s) => `resourceVersion=${s.first.metadata.resourceVersion}&limit=10`, names: ['a'], aSize: 1, at: 'first' },
      { name: '"0" with a limit: a page of any state', query: () => 'resourceVersion=0&limit=1', names: ['a'], aSize: 2, at: 'latest' },
    ];
    for (const row of rows) {
      test(row.name, async () => {
        const s = await seed();
        const q = row.query(s);
        const res = await app.inject({ method: 'GET', url: `${W}${q === '' ? '' : `?${q}`}` });
        expect(res.statusCode).toBe(200);
        const body = res.json() as { metadata: { resourceVersion: string }; items: Widget[] };
        expect(body.items.map((i) => i.metadata.name)).toEqual(row.names);
        expect(body.items[0]!.spec?.size).toBe(row.aSize);
        expect(body.metadata.resourceVersion).toBe(row.at === 'first' ? s.first.metadata.resourceVersion : s.second.metadata.resourceVersion);
      });
    }
  });

  describe('refused reads', () => {
    const INVALID = 'ListOptions.meta.k8s.io "" is invalid: ';
    const rows: { name: string; url: (s: { first: Widget; second: Widget }) => string; code: number; reason: string; message: string | RegExp }[] = [
      { name: 'list: match without a resourceVersion', url: () => `${W}?resourceVersionMatch=NotOlderThan`, code: 422, reason: 'Invalid', message: `${INVALID}resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided` },
      { name: 'list: Exact with "0"', url: () => `${W}?resourceVersion=0&resourceVersionMatch=Exact`, code: 422, reason: 'Invalid', message: `${INVALID}resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"` },
      { name: 'list: an unknown match', url: () => `${W}?resourceVersion=1&resourceVersionMatch=Newest`, code: 422, reason: 'Invalid', message: `${INVALID}resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""` },
      { name: 'list: sendInitialEvents (a watch option)', url: () => `${W}?sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=0`, code: 422, reason: 'Invalid', message: `${INVALID}sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list` },
      { name: 'list: a match beside continue', url: () => `${W}?resourceVersion=1&resourceVersionMatch=NotOlderThan&continue=abc`, code: 422, reason: 'Invalid', message: `${INVALID}resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided` },
      { name: 'list: a resourceVersion beside continue', url: () => `${W}?continue=abc&resourceVersion=5`, code: 400, reason: 'BadRequest', message: 'specifying resource version is not allowed when using continue' },
      { name: 'list: a malformed resourceVersion', url: () => `${W}?resourceVersion=abc`, code: 400, reason: 'BadRequest', message: /invalid resource version/ },
      { name: 'get: a malformed resourceVersion', url: () => `${W}/a?resourceVersion=abc`, code: 400, reason: 'BadRequest', message: /invalid resource version/ },
      { name: 'list: Exact older than history', url: (s) => `${W}?resourceVersion=${s.first.metadata.resourceVersion}&resourceVersionMatch=Exact`, code: 410, reason: 'Expired', message: /^too old resource version: \d+ \(\d+\)$/ },
      { name: 'list: N with a limit older than history', url: (s) => `${W}?resourceVersion=${s.first.metadata.resourceVersion}&limit=1`, code: 410, reason: 'Expired', message: /^too old resource version: \d+ \(\d+\)$/ },
    ];
    for (const row of rows) {
      test(`${row.name}: ${row.code} ${row.reason}`, async () => {
        const s = await seed();
        await compact(s.second.metadata.resourceVersion);
        const res = await app.inject({ method: 'GET', url: row.url(s) });
        expect(res.statusCode).toBe(row.code);
        const body = res.json() as StatusBody;
        expect(body).toMatchObject({ kind: 'Status', status: 'Failure', reason: row.reason, code: row.code });
        if (typeof row.message === 'string') expect(body.message).toBe(row.message);
        else expect(body.message).toMatch(row.message);
      });
    }

    // kube waits up to 3 s for its cache to reach N, then: 504, Retry-After: 1.
    for (const [name, url] of [
      ['get', (n: number) => `${W}/a?resourceVersion=${n}`],
      ['list', (n: number) => `${W}?resourceVersion=${n}`],
      ['list NotOlderThan', (n: number) => `${W}?resourceVersion=${n}&resourceVersionMatch=NotOlderThan`],
    ] as const) {
      test(`${name} at a version the server has not reached: 504 Too large resource version`, async () => {
        const s = await seed();
        const current = Number(s.second.metadata.resourceVersion);
        const res = await app.inject({ method: 'GET', url: url(current + 100) });
        expect(res.statusCode).toBe(504);
        expect(res.headers['retry-after']).toBe('1');
        const body = res.json() as StatusBody;
        expect(body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Timeout', code: 504 });
        expect(body.message).toBe(`Timeout: Too large resource version: ${current + 100}, current: ${current}`);
        expect(body.details?.causes).toEqual([{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]);
        expect(body.details?.retryAfterSeconds).toBe(1);
      });
    }
  });

  describe('watch', () => {
    for (const rv of [undefined, '', '0']) {
      test(`resourceVersion ${rv === undefined ? 'absent' : JSON.stringify(rv)}: the state as ADDED, then changes`, async () => {
        await seed();
        const q = rv === undefined ? '' : `&resourceVersion=${rv}`;
        const { status, events } = await readWatch(
          `${W}?watch=true${q}`,
          (got) => got.some((e) => e.object.metadata?.name === 'c'),
          async () => {
            // The state first: c is written once the stream has started.
            await post('c');
          },
        );
        expect(status).toBe(200);
        expect(events.map((e) => [e.type, e.object.metadata?.name, e.object.spec?.size])).toEqual([
          ['ADDED', 'a', 2],
          ['ADDED', 'b', 1],
          ['ADDED', 'c', 1],
        ]);
      });
    }

    test('resourceVersion N: every change after N, no state', async () => {
      const s = await seed();
      const { events } = await readWatch(`${W}?watch=true&resourceVersion=${s.first.metadata.resourceVersion}`, (got) => got.length >= 2);
      expect(events.map((e) => [e.type, e.object.metadata?.name, e.object.metadata?.resourceVersion])).toEqual([
        ['ADDED', 'b', s.b.metadata.resourceVersion],
        ['MODIFIED', 'a', s.second.metadata.resourceVersion],
      ]);
    });

    test('a label selector limits the state to matching objects', async () => {
      await post('a');
      await app.inject({ method: 'POST', url: W, payload: { metadata: { name: 'l', labels: { pick: 'yes' } } } });
      const { events } = await readWatch(`${W}?watch=true&labelSelector=pick%3Dyes`, (got) => got.length >= 1, async () => {
        await app.inject({ method: 'POST', url: W, payload: { metadata: { name: 'm', labels: { pick: 'yes' } } } });
      });
      expect(events.slice(0, 1).map((e) => [e.type, e.object.metadata?.name])).toEqual([['ADDED', 'l']]);
    });

    test('N older than history: a 200 stream with one ERROR 410 Expired', async () => {
      const s = await seed();
      await compact(s.second.metadata.resourceVersion);
      const { status, events } = await readWatch(`${W}?watch=true&resourceVersion=${s.first.metadata.resourceVersion}`, (got) => got.length >= 1);
      expect(status).toBe(200);
      expect(events).toHaveLength(1);
      expect(events[0]!.type).toBe('ERROR');
      expect(events[0]!.object).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
      expect(events[0]!.object.message).toMatch(new RegExp(`^too old resource version: ${s.first.metadata.resourceVersion} \\(\\d+\\)$`));
    });

    test('sendInitialEvents at a version the server has not reached: a 200 stream with one ERROR 504, then the end', async () => {
      const s = await seed();
      const current = Number(s.second.metadata.resourceVersion);
      const { status, events, ended } = await readWatch(
        `${W}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion=${current + 100}`,
        () => false,
      );
      expect(status).toBe(200);
      expect(ended).toBe(true);
      expect(events).toHaveLength(1);
      expect(events[0]!.type).toBe('ERROR');
      expect(events[0]!.object).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: 'Timeout',
        code: 504,
        message: `Timeout: Too large resource version: ${current + 100}, current: ${current}`,
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      });
    });

    test('a plain watch from a version not reached yet waits for the changes after it (kube does not bound it)', async () => {
      const s = await seed();
      const next = Number(s.second.metadata.resourceVersion) + 1;
      const { status, events } = await readWatch(`${W}?watch=true&resourceVersion=${next}`, (got) => got.length >= 1, async () => {
        await post('c'); // at `next`: not delivered
        await post('d');
      });
      expect(status).toBe(200);
      expect(events.map((e) => [e.type, e.object.metadata?.name])).toEqual([['ADDED', 'd']]);
    });

    test('sendInitialEvents without allowWatchBookmarks: the state, then changes, no bookmark', async () => {
      await seed();
      const { status, events } = await readWatch(
        `${W}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`,
        (got) => got.some((e) => e.object.metadata?.name === 'c'),
        async () => {
          await post('c');
        },
      );
      expect(status).toBe(200);
      expect(events.map((e) => [e.type, e.object.metadata?.name])).toEqual([
        ['ADDED', 'a'],
        ['ADDED', 'b'],
        ['ADDED', 'c'],
      ]);
    });
  });

  describe('bookmarks (allowWatchBookmarks), on kube-apiserver\'s schedule', () => {
    const MIN = 60_000;
    const rows: { name: string; now: number; deadline: number; want: number | undefined }[] = [
      { name: 'about once a minute', now: 1_000, deadline: 1_000 + 1_800_000, want: MIN },
      { name: '2 s before a deadline nearer than a minute', now: 1_000, deadline: 1_000 + 30_000, want: 28_000 },
      { name: 'right at 2 s before the deadline', now: 1_000, deadline: 3_000, want: 0 },
      { name: 'none once that moment has passed', now: 1_000, deadline: 2_500, want: undefined },
    ];
    for (const row of rows) {
      test(`next bookmark: ${row.name}`, () => {
        expect(nextBookmarkDelay(row.now, row.deadline, MIN)).toBe(row.want);
      });
    }

    test('a short watch gets one bookmark, 2 s before its deadline, at the latest version, and no earlier one', async () => {
      const s = await seed();
      const started = Date.now();
      let bookmarkAt = 0;
      let modified: Widget | undefined;
      const { status, events, ended } = await readWatch(
        `${W}?watch=true&allowWatchBookmarks=true&timeoutSeconds=3`,
        (got) => {
          if (bookmarkAt === 0 && got.some((e) => e.type === 'BOOKMARK')) bookmarkAt = Date.now();
          return false;
        },
        async () => {
          modified = await resize('b', 5);
        },
      );
      expect(status).toBe(200);
      expect(ended).toBe(true);
      expect(events.map((e) => [e.type, e.object.metadata?.name])).toEqual([
        ['ADDED', 'a'],
        ['ADDED', 'b'],
        ['MODIFIED', 'b'],
        ['BOOKMARK', undefined],
      ]);
      // Due at deadline - 2 s = 1 s after the start (timers may fire a little late, never early).
      expect(bookmarkAt - started).toBeGreaterThanOrEqual(900);
      const rv = Number(events[3]!.object.metadata?.resourceVersion);
      expect(rv).toBeGreaterThanOrEqual(Number(modified!.metadata.resourceVersion));
      expect(rv).toBeGreaterThan(Number(s.second.metadata.resourceVersion));
      expect(events[3]!.object.kind).toBe('Widget');
    });

    test('without allowWatchBookmarks no bookmark comes', async () => {
      await seed();
      const { events, ended } = await readWatch(`${W}?watch=true&timeoutSeconds=3`, () => false);
      expect(ended).toBe(true);
      expect(events.map((e) => e.type)).toEqual(['ADDED', 'ADDED']);
    });
  });
});
}
