// The watch cache's memory (#11): resident memory per cached ~2 KiB ConfigMap
// with 100,000 of them, as a ratio to the object's JSON size (target under 3x).
// Measured in a separate compiled kapi (SQLite, watch cache on, default flags)
// started with --inspect on a loopback port, so the bench can make it run a full
// GC (HeapProfiler.collectGarbage) before each reading and ask it for
// process.memoryUsage(); resident memory is VmRSS from /proc. Readings: after
// start (GC'd), then after the objects are created through the API (HTTP/1.1 TLS,
// 16 in flight) and listed once as JSON through the cache (resourceVersion=0, as
// an informer lists; that list leaves each object's JSON encoding cached beside
// it), GC'd; then after a protobuf list as well (client-go's encoding for
// built-in types), GC'd. Per object = (RSS after - RSS after start) / objects.
// The cache's history (5 min, at most 100,000 events by default) still holds the
// creates' events at the reading, as it would on a server loaded that recently.
import { randomBytes } from 'node:crypto';
import { get } from 'node:https';
import { type Bench, type BenchRow, type RunOptions } from './lib.js';
import { openInspector, type Inspector } from './support/inspector.js';
import { freePort, residentMb, startKapiProcess, type KapiProcess } from './support/kapi-process.js';
import { tlsLoad } from './support/tls-load.js';
import { PB } from './support/watch-client.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const PREFIX = 'mem-';
const RATIO_TARGET = 3;

const configMap = (i: number): Buffer =>
  Buffer.from(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${PREFIX}${String(i).padStart(6, '0')}`, labels: { app: 'bench' } },
      // 1,500 random bytes: ~2 KiB of base64 that no layer can deduplicate or compress.
      data: { blob: randomBytes(1500).toString('base64') },
    }),
  );

/**
 * GETs `path` and counts, in the streamed body, the occurrences of `needle`
 * (carried over chunk boundaries) without keeping the body.
 */
function countIn(kapi: KapiProcess, path: string, accept: string, needle: Buffer): Promise<{ bytes: number; count: number }> {
  return new Promise((ok, fail) => {
    const { ca, cert, key } = kapi.credentials;
    get({ host: '127.0.0.1', port: kapi.port, path, ca, cert, key, headers: { accept }, agent: false }, (res) => {
      let bytes = 0;
      let count = 0;
      let tail: Buffer = Buffer.alloc(0);
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        const buf = Buffer.concat([tail, chunk]);
        for (let at = buf.indexOf(needle); at >= 0; at = buf.indexOf(needle, at + needle.length)) count++;
        tail = buf.subarray(Math.max(0, buf.length - needle.length + 1));
      });
      res.on('end', () => (res.statusCode === 200 ? ok({ bytes, count }) : fail(new Error(`${path} answered ${res.statusCode}`))));
      res.on('error', fail);
    }).once('error', fail);
  });
}

function getBody(kapi: KapiProcess, path: string): Promise<Buffer> {
  return new Promise((ok, fail) => {
    const { ca, cert, key } = kapi.credentials;
    get({ host: '127.0.0.1', port: kapi.port, path, ca, cert, key, headers: { accept: 'application/json' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? ok(Buffer.concat(chunks)) : fail(new Error(`${path} answered ${res.statusCode}`))));
    }).once('error', fail);
  });
}

/** Starts kapi with its inspector on a free loopback port (NODE_OPTIONS reaches the child: spawn copies the environment). */
async function startInspectable(): Promise<{ kapi: KapiProcess; inspectPort: number }> {
  const inspectPort = await freePort();
  const saved = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = `${saved ?? ''} --inspect=127.0.0.1:${inspectPort}`.trim();
  try {
    return { kapi: await startKapiProcess(), inspectPort };
  } finally {
    if (saved === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = saved;
  }
}

interface Reading {
  readonly rssMb: number;
  readonly usage: NodeJS.MemoryUsage;
}

async function settle(inspector: Inspector, pid: number): Promise<Reading> {
  // Twice: the first pass runs finalizers and weak callbacks whose objects the second frees.
  await inspector.collectGarbage();
  await inspector.collectGarbage();
  return { rssMb: residentMb(pid), usage: await inspector.memoryUsage() };
}

function describe(label: string, r: Reading): string {
  const mb = (n: number): string => (n / 2 ** 20).toFixed(1);
  return `${label}: rss ${r.rssMb.toFixed(1)} MB, heapTotal ${mb(r.usage.heapTotal)} MB, heapUsed ${mb(r.usage.heapUsed)} MB, external ${mb(r.usage.external)} MB, arrayBuffers ${mb(r.usage.arrayBuffers)} MB`;
}

async function run(opts: RunOptions): Promise<BenchRow[]> {
  const count = opts.quick ? 5_000 : 100_000;
  const { kapi, inspectPort } = await startInspectable();
  let inspector: Inspector | undefined;
  try {
    inspector = await openInspector(inspectPort);
    const before = await settle(inspector, kapi.pid);
    const bodies = Array.from({ length: count }, (_, i) => configMap(i));
    await tlsLoad({ port: kapi.port, credentials: kapi.credentials, concurrency: 16, total: count, expectStatus: 201, request: (i) => ({ method: 'POST', path: CMS, body: bodies[i]! }) });
    bodies.length = 0;
    const jsonSize = (await getBody(kapi, `${CMS}/${PREFIX}000000`)).length;
    const needle = Buffer.from(`"name":"${PREFIX}`);
    const jsonList = await countIn(kapi, `${CMS}?resourceVersion=0`, 'application/json', needle);
    if (jsonList.count !== count) throw new Error(`the JSON list from the cache had ${jsonList.count} of the ${count} objects`);
    const afterJson = await settle(inspector, kapi.pid);
    const pbList = await countIn(kapi, `${CMS}?resourceVersion=0`, PB, Buffer.from(PREFIX));
    if (pbList.count !== count) throw new Error(`the protobuf list from the cache had ${pbList.count} of the ${count} objects`);
    const afterPb = await settle(inspector, kapi.pid);
    for (const [label, r] of [['after start', before], ['after load + JSON list', afterJson], ['after protobuf list too', afterPb]] as const) {
      process.stderr.write(`bench watch-cache-memory: ${describe(label, r)}\n`);
    }
    const perObject = (r: Reading): number => ((r.rssMb - before.rssMb) * 2 ** 20) / count;
    const heapPerObject = (r: Reading): number => (r.usage.heapUsed + r.usage.external - before.usage.heapUsed - before.usage.external) / count;
    const area = 'watch-cache/memory';
    const what = `${count} ~2 KiB ConfigMaps cached (SQLite), GC'd, resident memory per object`;
    const row = (name: string, r: Reading, target: boolean): BenchRow => {
      const ratio = perObject(r) / jsonSize;
      return {
        area,
        name: `${what} ${name} (heap + external ${heapPerObject(r).toFixed(0)} B/object)`,
        baselineName: "the object's JSON size",
        baseline: jsonSize,
        measured: perObject(r),
        unit: 'bytes',
        ratio,
        ...(target ? { target: `< ${RATIO_TARGET.toFixed(2)}`, pass: ratio < RATIO_TARGET } : {}),
      };
    };
    return [
      row(`after a JSON list (${(jsonList.bytes / 2 ** 20).toFixed(0)} MB)`, afterJson, true),
      row(`after a protobuf list (${(pbList.bytes / 2 ** 20).toFixed(0)} MB) as well`, afterPb, false),
    ];
  } finally {
    inspector?.close();
    await kapi.stop();
  }
}

export const bench: Bench = { name: 'watch-cache-memory', run };
