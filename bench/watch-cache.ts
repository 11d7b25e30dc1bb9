// The watch cache's LIST (#11): 10,000 ~2 KiB ConfigMaps listed with
// resourceVersion unset (a consistent read: the backend's current revision, the
// cache caught up to it, then memory) through the server's own list handler
// (registry over the cacher, installResources, the streaming list writer of
// endpoints/list-stream.ts), served by Fastify over loopback HTTP/1.1, against two
// baselines served the same way in the same run: joining 10,000 cached per-item JSON
// strings into one body per request, and sending one precomputed buffer of the same
// bytes. All three answers are checked to be byte-identical before anything is timed.
// Also the longest event-loop stall while those lists run (perf_hooks' event-loop
// delay histogram), for the first list (items not encoded yet) and for the rest,
// the first limit=500 page against the same two baselines made of that page's bytes,
// the longest stall during a walk of every limit=500 page, and (report only) the
// protobuf list against a precomputed buffer of its bytes.
// The backend is SQLite on a file; the cache is what answers.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import fastify from 'fastify';
import { createAdmissionChain } from '../src/admission/chain.js';
import { configMaps } from '../src/apis/core/v1/config-maps.js';
import { installResources } from '../src/endpoints/installer.js';
import { resolveRequestInfo } from '../src/endpoints/request-info.js';
import { createRegistry } from '../src/registry/registry.js';
import type { KubeObject } from '../src/schema/object.js';
import { createCacher } from '../src/storage/cacher/index.js';
import { createObjectStore } from '../src/storage/object-store.js';
import { openSqliteKv } from '../src/storage/sqlite/index.js';
import { ratioRow, throughput, type Bench, type BenchRow, type RunOptions } from './lib.js';

const PREFIX = '/configmaps/bench/';
const STALL_TARGET_MS = 50;

function configMap(i: number): KubeObject {
  const name = `cm-${String(i).padStart(5, '0')}`;
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'bench', uid: `uid-${name}`, labels: { app: 'bench' } },
    data: { blob: randomBytes(1500).toString('base64') },
  };
}

const LIST = '/api/v1/namespaces/bench/configmaps';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const PAGE = 500;

/** One GET; resolves with the body's length (or the body itself when `keep`). */
function get(port: number, path: string, opts: { accept?: string; keep?: boolean } = {}): Promise<{ bytes: number; body?: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = { accept: opts.accept ?? 'application/json' };
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers }, (res) => {
      let bytes = 0;
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => {
        bytes += d.length;
        if (opts.keep === true) chunks.push(d);
      });
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode}`));
        else resolve({ bytes, ...(opts.keep === true ? { body: Buffer.concat(chunks) } : {}) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Side {
  readonly listsPerSecond: number;
  readonly maxStallMs: number;
}

/** Lists per second over `total` sequential GETs of `path`, and the longest event-loop stall meanwhile. */
async function measure(port: number, path: string, total: number, accept?: string): Promise<Side> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const listsPerSecond = await throughput({ total, concurrency: 1, op: () => get(port, path, accept === undefined ? {} : { accept }) });
  delay.disable();
  return { listsPerSecond, maxStallMs: delay.max / 1e6 };
}

/** The longest event-loop stall while `op` runs. */
async function stallDuring(op: () => Promise<unknown>): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  await op();
  delay.disable();
  return delay.max / 1e6;
}

/**
 * The page's continue token, read from the list's metadata, which comes before its
 * items: parsing the whole 1 MiB page here would be a stall of the bench's own
 * making on the event loop it measures.
 */
function continueOf(body: Buffer): string | undefined {
  const head = body.subarray(0, Math.max(0, body.indexOf('"items":'))).toString('utf8');
  const metadata = (JSON.parse(`${head.slice(0, head.lastIndexOf(','))}}`) as { metadata: { continue?: string } }).metadata;
  return metadata.continue;
}

function check(what: string, got: Buffer | undefined, want: Buffer): void {
  if (got === undefined || !got.equals(want)) throw new Error(`${what}: ${got?.length ?? 0} bytes, not the baseline's ${want.length} identical bytes`);
}

export const bench: Bench = {
  name: 'watch-cache',
  async run(opts: RunOptions): Promise<BenchRow[]> {
    const count = opts.quick ? 2_000 : 10_000;
    const rounds = opts.quick ? 5 : 8;
    const dir = mkdtempSync(join(tmpdir(), 'kapi-bench-watch-cache-'));
    const kv = openSqliteKv({ path: join(dir, 'cache.db'), synchronous: 'NORMAL' });
    const cacher = createCacher({ backend: createObjectStore({ kv }) });
    const registry = createRegistry({ storage: cacher, resources: [configMaps], admission: createAdmissionChain(), clock: () => new Date() });
    const app = fastify();
    try {
      await throughput({ total: count, concurrency: 64, op: (i) => cacher.create(`${PREFIX}${configMap(i).metadata.name}`, configMap(i)) });
      await cacher.whenReady(PREFIX);
      // The server's list path, with a fixed admin in place of the filter chain.
      app.addHook('onRequest', async (req) => {
        req.kapi = { info: resolveRequestInfo(req.method, req.url), user: { username: 'bench', groups: ['system:masters'] }, auditId: 'bench', warnings: [] };
      });
      installResources(app, { registry });
      // The baselines' bytes: the cache's own items, each encoded once, as the registry lists them (no apiVersion/kind).
      const listed = await cacher.list(PREFIX);
      const perItem = listed.items.map(({ apiVersion: _a, kind: _k, ...rest }) => JSON.stringify(rest));
      const head = `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":${JSON.stringify(listed.resourceVersion)}},"items":[`;
      const whole = Buffer.from(`${head}${perItem.join(',')}]}\n`, 'utf8');
      app.get('/join', async (_req, reply) => reply.header('content-type', 'application/json').send(`${head}${perItem.join(',')}]}\n`));
      app.get('/buffer', async (_req, reply) => reply.header('content-type', 'application/json').send(whole));
      let pbWhole: Buffer = Buffer.alloc(0);
      app.get('/pb-buffer', async (_req, reply) => reply.header('content-type', PROTOBUF).send(pbWhole));
      // The first limit=500 page's baselines: its envelope (continue token, remainingItemCount) as kapi writes it, then 500 cached item strings.
      let pageHead = '';
      let pageWhole: Buffer = Buffer.alloc(0);
      app.get('/page-join', async (_req, reply) => reply.header('content-type', 'application/json').send(`${pageHead}${perItem.slice(0, PAGE).join(',')}]}\n`));
      app.get('/page-buffer', async (_req, reply) => reply.header('content-type', 'application/json').send(pageWhole));
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;

      // The first list encodes every item (nothing cached yet): its stall is the worst one.
      // Only counted, not kept: joining the received chunks here would stall this same event loop.
      let firstBytes = 0;
      const coldStall = await stallDuring(async () => (firstBytes = (await get(port, LIST)).bytes));
      if (firstBytes !== whole.length) throw new Error(`kapi list: ${firstBytes} bytes, not the baseline's ${whole.length}`);
      check('joined baseline', (await get(port, '/join', { keep: true })).body, whole);
      check('kapi list (cached items)', (await get(port, LIST, { keep: true })).body, whole);
      // Protobuf's baseline is the kapi answer itself, captured once (there is no second encoder to compare with).
      pbWhole = (await get(port, LIST, { accept: PROTOBUF, keep: true })).body!;
      pageWhole = (await get(port, `${LIST}?limit=${PAGE}`, { keep: true })).body!;
      pageHead = pageWhole.subarray(0, pageWhole.indexOf('"items":[') + '"items":['.length).toString('utf8');
      check('joined page baseline', (await get(port, '/page-join', { keep: true })).body, pageWhole);

      // Turns (baseline, measured, …) so a slow stretch of the machine hits both sides.
      const best = { join: 0, buffer: 0, cache: 0, stall: 0, pb: 0, pbBuffer: 0, pageJoin: 0, page: 0, pageBuffer: 0 };
      for (let r = 0; r < 3; r++) {
        best.join = Math.max(best.join, (await measure(port, '/join', rounds)).listsPerSecond);
        const cached = await measure(port, LIST, rounds);
        best.cache = Math.max(best.cache, cached.listsPerSecond);
        best.stall = Math.max(best.stall, cached.maxStallMs);
        best.buffer = Math.max(best.buffer, (await measure(port, '/buffer', rounds)).listsPerSecond);
        best.pb = Math.max(best.pb, (await measure(port, LIST, rounds, PROTOBUF)).listsPerSecond);
        best.pbBuffer = Math.max(best.pbBuffer, (await measure(port, '/pb-buffer', rounds, PROTOBUF)).listsPerSecond);
        best.pageJoin = Math.max(best.pageJoin, (await measure(port, '/page-join', rounds * 10)).listsPerSecond);
        best.page = Math.max(best.page, (await measure(port, `${LIST}?limit=${PAGE}`, rounds * 10)).listsPerSecond);
        best.pageBuffer = Math.max(best.pageBuffer, (await measure(port, '/page-buffer', rounds * 10)).listsPerSecond);
      }
      // limit=500 pages: a whole walk through the continue tokens, one request per page as a client pages.
      let pages = 0;
      const started = process.hrtime.bigint();
      const pageStall = await stallDuring(async () => {
        let token: string | undefined;
        do {
          const { body } = await get(port, `${LIST}?limit=${PAGE}${token ? `&continue=${encodeURIComponent(token)}` : ''}`, { keep: true });
          token = continueOf(body!);
          pages++;
        } while (token !== undefined);
      });
      const walkMs = Number(process.hrtime.bigint() - started) / 1e6;

      const area = 'watch-cache/list';
      const what = `${count} ~2 KiB ConfigMaps, RV unset`;
      const stallRow = (name: string, measured: number, baselineName = 'target', baseline = STALL_TARGET_MS): BenchRow => ({
        area,
        name,
        baselineName,
        baseline,
        measured,
        unit: 'ms',
        target: `<= ${STALL_TARGET_MS}`,
        pass: measured <= STALL_TARGET_MS,
      });
      return [
        ratioRow({ area, name: `${what}: cache vs joining cached item strings`, baselineName: 'join per-item JSON', baseline: best.join, measured: best.cache, unit: 'lists/s', minRatio: 1 }),
        ratioRow({ area, name: `${what}: cache vs one precomputed buffer`, baselineName: 'precomputed buffer', baseline: best.buffer, measured: best.cache, unit: 'lists/s', minRatio: 1 / 3 }),
        stallRow(`${what}: longest event-loop stall during cache lists`, best.stall),
        ratioRow({ area, name: `${what}: first limit=${PAGE} page vs joining its cached item strings`, baselineName: 'join per-item JSON', baseline: best.pageJoin, measured: best.page, unit: 'pages/s', minRatio: 1 }),
        ratioRow({ area, name: `${what}: first limit=${PAGE} page vs one precomputed buffer`, baselineName: 'precomputed buffer', baseline: best.pageBuffer, measured: best.page, unit: 'pages/s', minRatio: 1 / 3 }),
        stallRow(`${what}: longest event-loop stall during the first list (no item encoded yet)`, coldStall),
        stallRow(`${what}: limit=${PAGE} walk (${pages} pages), longest stall`, pageStall, 'walk ms', walkMs),
        ratioRow({ area, name: `${what}: protobuf list vs one precomputed protobuf buffer (report only)`, baselineName: 'precomputed buffer', baseline: best.pbBuffer, measured: best.pb, unit: 'lists/s' }),
      ];
    } finally {
      await app.close();
      await cacher.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
