// etcd KV against raw etcd3 client calls carrying the same bytes, in one run on
// one private etcd: creates and CAS updates at 1 and 16 in flight, get, a full
// list of 10,000 2 KiB values, and watch fan-out (report-only). The raw side
// uses etcd3's lowest-level KV client (what the backend itself calls), so a
// ratio is the cost of our layer alone. Measured here, the etcd3 Node client is
// the bottleneck (~0.2–0.3 ms CPU per call), not etcd. The etcd runs with
// --unsafe-no-fsync (see bench/support/etcd-process.ts) so disk noise on a
// shared machine does not drown that difference.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Etcd3 } from 'etcd3';
import { openEtcdKv } from '../src/storage/etcd/index.js';
import type { KV } from '../src/storage/kv.js';
import { percentile, ratioRow, throughput, type Bench, type BenchRow } from './lib.js';
import { startEtcd } from './support/etcd-process.js';

const area = 'storage/etcd';
const valueBytes = 2048;
const listSize = 10_000;
const prefix = '/registry';

interface Sides {
  readonly kv: KV;
  readonly raw: Etcd3;
  readonly value: Buffer;
}

export const bench: Bench = {
  name: 'storage-etcd',
  async run(): Promise<BenchRow[]> {
    const etcd = await startEtcd();
    // The raw client needs the grpc receive limit lifted too, or the 10k list fails.
    const raw = new Etcd3({ hosts: etcd.endpoint, grpcOptions: { 'grpc.max_receive_message_length': -1 } });
    const kv = openEtcdKv({ endpoints: [etcd.endpoint], prefix, compactionIntervalMs: 0 });
    const sides: Sides = { kv, raw, value: randomBytes(valueBytes) };
    try {
      const rows: BenchRow[] = [];
      for (const concurrency of [1, 16]) rows.push(await createRow(sides, concurrency));
      await compactAll(sides);
      for (const concurrency of [1, 16]) rows.push(await casRow(sides, concurrency));
      await compactAll(sides);
      rows.push(...(await readRows(sides)));
      await compactAll(sides);
      for (const watchers of [1, 100]) rows.push(...(await watchRows(sides, watchers)));
      return rows;
    } finally {
      await kv.close();
      raw.close();
      await etcd.stop();
    }
  },
};

// Keeps etcd's history (and its boltdb file) small between phases: without
// compaction it grew to 1.4 GB in minutes of this load and slowed 2.5×.
async function compactAll({ kv }: Sides): Promise<void> {
  await kv.compact(await kv.currentRevision());
}

const key = (side: string, phase: string, round: number, i: number): string =>
  `/bench/${side}/${phase}/${round}/${String(i).padStart(6, '0')}`;

async function createRow(s: Sides, concurrency: number): Promise<BenchRow> {
  // Rounds of well under a second swing by ±0.05 on a shared 2-core machine; 1,000 ops steady them.
  const total = concurrency === 1 ? 1000 : 1500;
  let round = 0;
  const rawRate = (): Promise<number> => {
    const r = round++;
    return throughput({
      total,
      concurrency,
      op: (i) => {
        const full = Buffer.from(prefix + key('raw', `create-${concurrency}`, r, i));
        return s.raw.kv.txn({
          compare: [{ key: full, target: 'Create', result: 'Equal', create_revision: 0 }],
          success: [{ request_put: { key: full, value: s.value } }],
          failure: [{ request_range: { key: full } }],
        });
      },
    });
  };
  const kvRate = (): Promise<number> => {
    const r = round++;
    return throughput({ total, concurrency, op: (i) => s.kv.create(key('kapi', `create-${concurrency}`, r, i), s.value) });
  };
  const { baseline, measured } = await alternate(rawRate, kvRate);
  return ratioRow({
    area,
    name: `create, ${concurrency} in flight`,
    baselineName: 'raw etcd3 txn (create_revision = 0)',
    baseline,
    measured,
    unit: 'ops/s',
    minRatio: 0.9,
  });
}

async function casRow(s: Sides, concurrency: number): Promise<BenchRow> {
  // Rounds of well under a second swing by ±0.05 on a shared 2-core machine; 1,000 ops steady them.
  const total = concurrency === 1 ? 1000 : 1500;
  // One key per lane and one lane per op in flight, so updates never conflict
  // and every txn writes.
  const lanes = Array.from({ length: concurrency }, (_, i) => i);
  const free = [...lanes];
  const onLane = async (op: (lane: number) => Promise<void>): Promise<void> => {
    const lane = free.pop()!;
    try {
      await op(lane);
    } finally {
      free.push(lane);
    }
  };
  const rawRevisions = new Map<number, number>();
  const kvRevisions = new Map<number, number>();
  for (const lane of lanes) {
    const full = Buffer.from(prefix + key('raw', `cas-${concurrency}`, 0, lane));
    rawRevisions.set(lane, Number((await s.raw.kv.put({ key: full, value: s.value })).header.revision));
    kvRevisions.set(lane, (await s.kv.create(key('kapi', `cas-${concurrency}`, 0, lane), s.value)).revision);
  }
  const rawRate = (): Promise<number> =>
    throughput({
      total,
      concurrency,
      op: () =>
        onLane(async (lane) => {
          const full = Buffer.from(prefix + key('raw', `cas-${concurrency}`, 0, lane));
          const res = await s.raw.kv.txn({
            compare: [{ key: full, target: 'Mod', result: 'Equal', mod_revision: rawRevisions.get(lane)! }],
            success: [{ request_put: { key: full, value: s.value } }],
            failure: [{ request_range: { key: full } }],
          });
          if (!res.succeeded) throw new Error('raw CAS conflicted: the bench is broken');
          rawRevisions.set(lane, Number(res.header.revision));
        }),
    });
  const kvRate = (): Promise<number> =>
    throughput({
      total,
      concurrency,
      op: () =>
        onLane(async (lane) => {
          const at = kvRevisions.get(lane)!;
          const res = await s.kv.put(key('kapi', `cas-${concurrency}`, 0, lane), s.value, { expectedRevision: at });
          kvRevisions.set(lane, res.revision);
        }),
    });
  const { baseline, measured } = await alternate(rawRate, kvRate);
  return ratioRow({
    area,
    name: `CAS update, ${concurrency} in flight`,
    baselineName: 'raw etcd3 txn (mod_revision =)',
    baseline,
    measured,
    unit: 'ops/s',
    minRatio: 0.9,
  });
}

async function readRows(s: Sides): Promise<BenchRow[]> {
  // Load 10,000 values once; both sides read the very same keys.
  await throughput({
    total: listSize,
    concurrency: 64,
    op: (i) => s.raw.kv.put({ key: Buffer.from(prefix + key('list', 'data', 0, i)), value: s.value }),
  });
  const listPrefix = '/bench/list/data/0/';
  const gets = await alternate(
    () =>
      throughput({
        total: 1500,
        concurrency: 16,
        op: (i) => s.raw.kv.range({ key: Buffer.from(prefix + key('list', 'data', 0, i % listSize)) }),
      }),
    () => throughput({ total: 1500, concurrency: 16, op: (i) => s.kv.get(key('list', 'data', 0, i % listSize)) }),
  );
  const rawStart = Buffer.from(prefix + listPrefix);
  const rawEnd = Buffer.from(rawStart);
  rawEnd[rawEnd.length - 1] = rawEnd[rawEnd.length - 1]! + 1;
  const lists = await alternate(
    () => throughput({ total: 3, concurrency: 1, op: () => s.raw.kv.range({ key: rawStart, range_end: rawEnd }) }),
    () =>
      throughput({
        total: 3,
        concurrency: 1,
        op: async () => {
          const res = await s.kv.list(listPrefix);
          if (res.entries.length !== listSize) throw new Error(`list returned ${res.entries.length} entries`);
        },
      }),
  );
  return [
    ratioRow({ area, name: 'get, 16 in flight', baselineName: 'raw etcd3 range', ...gets, unit: 'ops/s', minRatio: 0.9 }),
    ratioRow({
      area,
      name: `full list of ${listSize} × 2 KiB`,
      baselineName: 'raw etcd3 range',
      ...lists,
      unit: 'lists/s',
      minRatio: 0.9,
    }),
  ];
}

/** One writer, `watchers` watches of its prefix: deliveries/s and write-to-delivery latency. */
async function watchRows(s: Sides, watchers: number): Promise<BenchRow[]> {
  const total = watchers === 1 ? 3000 : 600;
  const watchPrefix = `/bench/watch/${watchers}/`;
  const start = await s.kv.currentRevision();
  const latencies: number[] = [];
  let delivered = 0;
  let failure: Error | undefined;
  let allDelivered: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allDelivered = resolve));
  const handles = Array.from({ length: watchers }, () =>
    s.kv.watch(watchPrefix, {
      afterRevision: start,
      onEvents: (events) => {
        const now = performance.now();
        for (const e of events) {
          // Each value starts with the time its write was issued.
          latencies.push(now - Buffer.from(e.value).readDoubleLE(0));
        }
        delivered += events.length;
        if (delivered === total * watchers) allDelivered();
      },
      onError: (err) => {
        failure = err;
        allDelivered();
      },
    }),
  );
  const value = Buffer.from(s.value);
  const began = performance.now();
  await throughput({
    total,
    concurrency: 16,
    op: (i) => {
      const stamped = Buffer.from(value);
      stamped.writeDoubleLE(performance.now(), 0);
      return s.kv.create(`${watchPrefix}${i}`, stamped);
    },
  });
  const timeout = setTimeout(() => allDelivered(), 60_000);
  await done;
  clearTimeout(timeout);
  if (failure !== undefined) throw failure;
  const seconds = (performance.now() - began) / 1000;
  for (const h of handles) h.close();
  latencies.sort((a, b) => a - b);
  const report = (name: string, measured: number, unit: string): BenchRow => ({
    area,
    name,
    baselineName: '(report only)',
    baseline: 0,
    measured,
    unit,
  });
  return [
    report(`watch: ${watchers} watcher(s), deliveries/s (${delivered}/${total * watchers})`, delivered / seconds, 'events/s'),
    report(`watch: ${watchers} watcher(s), latency p50`, percentile(latencies, 50), 'ms'),
    report(`watch: ${watchers} watcher(s), latency p99`, percentile(latencies, 99), 'ms'),
  ];
}

/**
 * Alternates baseline and measured runs, best of 5 each after one warm-up run
 * each (JIT, connection setup), so load from other work on a shared machine hits
 * both sides alike and the least disturbed sample of each is compared.
 */
async function alternate(
  baselineRun: () => Promise<number>,
  measuredRun: () => Promise<number>,
): Promise<{ baseline: number; measured: number }> {
  await baselineRun();
  await measuredRun();
  let baseline = 0;
  let measured = 0;
  for (let round = 0; round < 5; round++) {
    baseline = Math.max(baseline, await baselineRun());
    measured = Math.max(measured, await measuredRun());
  }
  return { baseline, measured };
}
