// The watch cache's LIST (#11): 10,000 ~2 KiB ConfigMaps listed with
// resourceVersion unset (a consistent read: the backend's current revision, the
// cache caught up to it, then memory) and encoded as the server's JSON list
// answer, served by Fastify over loopback HTTP/1.1, against two baselines served
// the same way in the same run: joining 10,000 cached per-item JSON strings into
// one body per request, and sending one precomputed buffer of the same bytes.
// Also the longest event-loop stall while those lists run (perf_hooks'
// event-loop delay histogram), and the same figures for limit=500 pages.
// The backend is SQLite on a file; the cache is what answers.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import fastify from 'fastify';
import { encodeJson } from '../src/codecs/json.js';
import type { KubeObject } from '../src/schema/object.js';
import { createCacher } from '../src/storage/cacher/index.js';
import { createObjectStore } from '../src/storage/object-store.js';
import { openSqliteKv } from '../src/storage/sqlite/index.js';
import type { StorageListResult } from '../src/storage/storage.js';
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

/** The list answer as the registry builds it (items without apiVersion/kind). */
function listBody(result: StorageListResult): Buffer {
  const items = result.items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
  const metadata: Record<string, unknown> = { resourceVersion: result.resourceVersion };
  if (result.continue !== undefined) metadata['continue'] = result.continue;
  if (result.remainingItemCount !== undefined) metadata['remainingItemCount'] = result.remainingItemCount;
  return encodeJson({ kind: 'ConfigMapList', apiVersion: 'v1', metadata, items });
}

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${path}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

function getJson(port: number, path: string): Promise<{ metadata: { continue?: string } }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode}`));
        else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { metadata: { continue?: string } });
      });
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
async function measure(port: number, path: string, total: number): Promise<Side> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const listsPerSecond = await throughput({ total, concurrency: 1, op: () => get(port, path) });
  delay.disable();
  return { listsPerSecond, maxStallMs: delay.max / 1e6 };
}

export const bench: Bench = {
  name: 'watch-cache',
  async run(opts: RunOptions): Promise<BenchRow[]> {
    const count = opts.quick ? 2_000 : 10_000;
    const rounds = opts.quick ? 5 : 8;
    const dir = mkdtempSync(join(tmpdir(), 'kapi-bench-watch-cache-'));
    const kv = openSqliteKv({ path: join(dir, 'cache.db'), synchronous: 'NORMAL' });
    const cacher = createCacher({ backend: createObjectStore({ kv }) });
    const app = fastify();
    try {
      await throughput({ total: count, concurrency: 64, op: (i) => cacher.create(`${PREFIX}${configMap(i).metadata.name}`, configMap(i)) });
      await cacher.whenReady(PREFIX);
      // The baselines' bytes: the cache's own answer, encoded once.
      const listed = await cacher.list(PREFIX);
      const perItem = listed.items.map(({ apiVersion: _a, kind: _k, ...rest }) => JSON.stringify(rest));
      const head = `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":${JSON.stringify(listed.resourceVersion)}},"items":[`;
      const whole = Buffer.from(`${head}${perItem.join(',')}]}`, 'utf8');
      app.get('/cache', async (req, reply) => {
        const limit = Number((req.query as { limit?: string }).limit ?? 0);
        const cont = (req.query as { continue?: string }).continue;
        const result = await cacher.list(PREFIX, { ...(limit > 0 ? { limit } : {}), ...(cont ? { continue: cont } : {}) });
        return reply.header('content-type', 'application/json').send(listBody(result));
      });
      app.get('/join', async (_req, reply) => reply.header('content-type', 'application/json').send(`${head}${perItem.join(',')}]}`));
      app.get('/buffer', async (_req, reply) => reply.header('content-type', 'application/json').send(whole));
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      const cacheBytes = await get(port, '/cache');
      if (Math.abs(cacheBytes - whole.length) > 64) throw new Error(`cache list is ${cacheBytes} bytes, baseline ${whole.length}`);

      // Turns (baseline, measured, …) so a slow stretch of the machine hits both sides.
      const best = { join: 0, buffer: 0, cache: 0, stall: 0 };
      for (let r = 0; r < 3; r++) {
        best.join = Math.max(best.join, (await measure(port, '/join', rounds)).listsPerSecond);
        const cached = await measure(port, '/cache', rounds);
        best.cache = Math.max(best.cache, cached.listsPerSecond);
        best.stall = Math.max(best.stall, cached.maxStallMs);
        best.buffer = Math.max(best.buffer, (await measure(port, '/buffer', rounds)).listsPerSecond);
      }
      // limit=500 pages: a whole walk through the continue tokens, one request per page as a client pages.
      const pageDelay = monitorEventLoopDelay({ resolution: 5 });
      pageDelay.enable();
      const started = process.hrtime.bigint();
      let token: string | undefined;
      let pages = 0;
      do {
        const body = await getJson(port, `/cache?limit=500${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
        token = body.metadata.continue;
        pages++;
      } while (token !== undefined);
      const walkMs = Number(process.hrtime.bigint() - started) / 1e6;
      pageDelay.disable();

      const area = 'watch-cache/list';
      const what = `${count} ~2 KiB ConfigMaps, RV unset`;
      return [
        ratioRow({ area, name: `${what}: cache vs joining cached item strings`, baselineName: 'join per-item JSON', baseline: best.join, measured: best.cache, unit: 'lists/s', minRatio: 1 }),
        ratioRow({ area, name: `${what}: cache vs one precomputed buffer`, baselineName: 'precomputed buffer', baseline: best.buffer, measured: best.cache, unit: 'lists/s', minRatio: 1 / 3 }),
        {
          area,
          name: `${what}: longest event-loop stall during cache lists`,
          baselineName: 'target',
          baseline: STALL_TARGET_MS,
          measured: best.stall,
          unit: 'ms',
          target: `<= ${STALL_TARGET_MS}`,
          pass: best.stall <= STALL_TARGET_MS,
        },
        {
          area,
          name: `${what}: limit=500 walk (${pages} pages), longest stall`,
          baselineName: 'walk ms',
          baseline: walkMs,
          measured: pageDelay.max / 1e6,
          unit: 'ms',
          target: `<= ${STALL_TARGET_MS}`,
          pass: pageDelay.max / 1e6 <= STALL_TARGET_MS,
        },
      ];
    } finally {
      await app.close();
      await cacher.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
