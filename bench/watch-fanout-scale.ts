// Watch fan-out at scale (#11): 1,000 watchers over HTTP/2 TLS on one resource
// (the ConfigMaps of one namespace, no selector) while ConfigMaps in it are
// updated 100 times a second for 30 s, on SQLite and on etcd. The updates go
// round-robin over 100 ConfigMaps, each written once a second: what is measured
// is fan-out, not a hundred writers racing on one key (issue #9's bench,
// bench/watch-fanout.ts, writes one object; at this scale that contention made
// kapi's PUTs on etcd time out before fan-out was measured). Every watcher must
// get every update exactly once and in commit order (the resourceVersions the PUTs
// answered, sorted, each carrying the seq its PUT wrote); the p99 delivery delay
// (PUT sent -> event read by the watcher, so the write's own latency counts) must
// stay under 250 ms; server CPU per delivered event is reported against this
// reader's own CPU per event, so a reader that ran out of CPU shows.
// The watchers spread over HTTP/2 sessions of at most 125 streams (kapi, like
// kube-apiserver, allows 250 per connection), with client-go's flow-control
// windows (4 MiB per stream, 1 GiB per connection) so the client's windows are
// not what paces delivery. The updates are small (a seq field) so that 100,000
// events a second are the server's work, not the reader's JSON parsing.
import { connect, type ClientHttp2Session } from 'node:http2';
import { percentile, type Bench, type BenchRow, type RunOptions } from './lib.js';
import { availableBackends, startKapiOn, type Backend } from './support/kapi-backend.js';
import type { KapiProcess } from './support/kapi-process.js';
import { cpuMs, openWatcher, orderFault, request, type Watcher } from './support/watch-client.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const NAME = 'fanout-scale';
/** ConfigMaps the updates go round-robin over. */
const OBJECTS = 100;
const nameOf = (seq: number): string => `${NAME}-${seq % OBJECTS}`;
const P99_TARGET_MS = 250;
const STREAMS_PER_SESSION = 125;
/**
 * The PUTs go out on schedule whether or not earlier ones were answered; when the
 * server falls behind they pile up, and one session may hold only 250 streams
 * (over that, streams are refused), so they spread over a few.
 */
const WRITER_SESSIONS = 4;

interface Shape {
  readonly watchers: number;
  readonly rate: number;
  readonly seconds: number;
}

interface RunResult {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** PUT sent -> answered: the write's own share of the delivery delay. */
  readonly putP99: number;
  /** PUT answered -> event read (negative when the event came first). */
  readonly afterAnswerP99: number;
  /** Watchers that got every update exactly once, in commit order. */
  readonly inOrder: number;
  /** The first faulty watcher's story, for the row and the log. */
  readonly firstFault: string | undefined;
  readonly delivered: number;
  /** PUTs not answered 200, and the first one's story. */
  readonly putFailures: number;
  readonly firstPutFailure: string | undefined;
  /** Cores' worth of CPU kapi and this reader used over the run. */
  readonly serverShare: number;
  readonly readerShare: number;
  readonly serverUsPerEvent: number;
  readonly readerUsPerEvent: number;
}

// No resourceVersion: unconditional updates, so PUTs in flight together never conflict.
const configMap = (name: string, seq: number): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { seq: String(seq) } });

function openSession(kapi: KapiProcess): Promise<ClientHttp2Session> {
  const { ca, cert, key } = kapi.credentials;
  // maxSessionMemory (MB): 125 busy streams buffer more than nghttp2's 10 MB default allows.
  const session = connect(`https://127.0.0.1:${kapi.port}`, { ca, cert, key, maxSessionMemory: 256, settings: { initialWindowSize: 4 << 20 } });
  return new Promise((ok, fail) => {
    session.once('error', fail);
    session.once('connect', () => {
      session.setLocalWindowSize(1 << 30);
      ok(session);
    });
  });
}

interface Written {
  /** The PUTs answered 200, in commit (resourceVersion) order. */
  readonly committed: Array<{ resourceVersion: string; seq: number }>;
  /** PUTs answered otherwise (a 504 when the server fell a minute behind); they may still have committed. */
  readonly failed: string[];
}

/** Sends `updates` PUTs on schedule (`rate` a second, not waiting for answers); returns when all are answered. */
async function writeOnSchedule(opts: { writers: readonly ClientHttp2Session[]; shape: Shape; sent: number[]; answered: number[] }): Promise<Written> {
  const { writers, shape, sent, answered } = opts;
  const committed: Array<{ resourceVersion: string; seq: number }> = [];
  const failed: string[] = [];
  const puts: Promise<unknown>[] = [];
  const start = performance.now();
  for (let seq = 1; seq <= shape.rate * shape.seconds; seq++) {
    const wait = start + ((seq - 1) * 1000) / shape.rate - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    sent[seq] = performance.now();
    puts.push(
      request(writers[seq % writers.length]!, 'PUT', `${CMS}/${nameOf(seq)}`, configMap(nameOf(seq), seq)).then(
        (r) => {
          if (r.status !== 200) {
            failed.push(`PUT ${seq} answered ${r.status}: ${r.body.slice(0, 160)}`);
            return;
          }
          answered[seq] = performance.now();
          committed.push({ resourceVersion: (JSON.parse(r.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion, seq });
        },
        (err: unknown) => failed.push(`PUT ${seq}: ${String(err)}`),
      ),
    );
  }
  await Promise.all(puts);
  // PUTs in flight together may commit in another order than they were sent;
  // a watch owes the commit order, which resourceVersions give.
  committed.sort((a, b) => (BigInt(a.resourceVersion) < BigInt(b.resourceVersion) ? -1 : 1));
  return { committed, failed };
}

/**
 * Waits until every watcher has `updates` events or ended, bounded by progress
 * rather than a fixed time: on a loaded machine the backlog may take long to
 * drain, and that shows in the delays; only 15 s without a single event read
 * (or 10 minutes in all) ends the wait, and whoever is short then is reported.
 */
async function drained(watchers: readonly Watcher[], updates: number): Promise<void> {
  const total = (): number => watchers.reduce((n, w) => n + w.seqs.length, 0);
  const hardStop = performance.now() + 600_000;
  let last = total();
  let lastProgress = performance.now();
  while (watchers.some((w) => w.seqs.length < updates && !w.ended) && performance.now() < hardStop && performance.now() - lastProgress < 15_000) {
    await new Promise((r) => setTimeout(r, 100));
    const now = total();
    if (now !== last) {
      last = now;
      lastProgress = performance.now();
    }
  }
}

/** The committed updates a watcher never got, as resourceVersion ranges: "N events: a-b, c-d …". */
function missingRanges(w: Watcher, committed: ReadonlyArray<{ resourceVersion: string }>): string {
  const got = new Set(w.resourceVersions);
  const ranges: string[] = [];
  let count = 0;
  let open: { from: string; to: string } | undefined;
  for (const c of committed) {
    if (got.has(c.resourceVersion)) {
      if (open !== undefined) ranges.push(open.from === open.to ? open.from : `${open.from}-${open.to}`);
      open = undefined;
      continue;
    }
    count++;
    open = open === undefined ? { from: c.resourceVersion, to: c.resourceVersion } : { ...open, to: c.resourceVersion };
  }
  if (open !== undefined) ranges.push(open.from === open.to ? open.from : `${open.from}-${open.to}`);
  return `${count} events (rv ${ranges.slice(0, 8).join(', ')}${ranges.length > 8 ? ` … ${ranges.length} ranges` : ''})`;
}

async function runOnce(kapi: KapiProcess, shape: Shape): Promise<RunResult> {
  const sessionCount = Math.ceil(shape.watchers / STREAMS_PER_SESSION);
  const sessions = await Promise.all(Array.from({ length: sessionCount + WRITER_SESSIONS }, () => openSession(kapi)));
  const writers = sessions.slice(sessionCount);
  const writer = writers[0]!;
  const watchers: Watcher[] = [];
  try {
    // The objects afresh (a warm-up run left them behind); the watch starts after the last create.
    let fromRv = 0n;
    for (let i = 0; i < OBJECTS; i++) {
      await request(writer, 'DELETE', `${CMS}/${nameOf(i)}`);
      const created = await request(writer, 'POST', CMS, configMap(nameOf(i), 0));
      if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.body}`);
      const rv = BigInt((JSON.parse(created.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
      if (rv > fromRv) fromRv = rv;
    }
    // The whole resource from the create on: no selector for the server to shortcut with.
    const path = `${CMS}?watch=true&resourceVersion=${fromRv}&timeoutSeconds=${shape.seconds + 300}`;
    // Opened a session's worth at a time: a thousand HEADERS at once is a burst no informer fleet makes.
    for (let i = 0; i < shape.watchers; i += STREAMS_PER_SESSION) {
      const batch = Math.min(STREAMS_PER_SESSION, shape.watchers - i);
      watchers.push(...(await Promise.all(Array.from({ length: batch }, (_, j) => openWatcher(sessions[(i + j) % sessionCount]!, 'json', path)))));
    }
    const sent: number[] = [];
    const answered: number[] = [];
    const cpuBefore = cpuMs(kapi.pid);
    const readerBefore = process.cpuUsage();
    const start = performance.now();
    const { committed, failed } = await writeOnSchedule({ writers, shape, sent, answered });
    await drained(watchers, committed.length);
    const cpu = cpuMs(kapi.pid) - cpuBefore;
    const reader = process.cpuUsage(readerBefore);
    const wall = performance.now() - start;
    const serverShare = cpu / wall;
    const readerShare = (reader.user + reader.system) / 1000 / wall;
    process.stderr.write(`bench watch-fanout-scale: pid ${kapi.pid}: server ${(serverShare * 100).toFixed(0)}% of a core, this reader ${(readerShare * 100).toFixed(0)}%\n`);
    if (failed.length > 0) process.stderr.write(`bench watch-fanout-scale: ${failed.length} PUTs failed; first: ${failed[0]}\n`);
    const faults = watchers.map((w, i) => ({ i, fault: orderFault(w, committed), other: w.other })).filter((f) => f.fault !== undefined);
    const first = faults[0];
    const firstFault = first === undefined ? undefined : `watcher ${first.i}: ${first.fault}${first.other.length > 0 ? `; also saw ${first.other.slice(0, 3).join(', ')}` : ''}`;
    if (firstFault !== undefined) {
      process.stderr.write(`bench watch-fanout-scale: ${faults.length}/${watchers.length} watchers faulty; ${firstFault}\n`);
      const gaps = faults.map((f) => missingRanges(watchers[f.i]!, committed));
      process.stderr.write(`bench watch-fanout-scale: watcher ${faults[0]!.i} lacks ${gaps[0]}; ${gaps.filter((g) => g === gaps[0]).length}/${faults.length} faulty watchers lack exactly the same\n`);
    }
    const delays: number[] = [];
    const afterAnswer: number[] = [];
    let delivered = 0;
    for (const w of watchers) {
      delivered += w.seqs.length;
      w.seqs.forEach((s, i) => {
        delays.push(w.arrivals[i]! - sent[s]!);
        afterAnswer.push(w.arrivals[i]! - answered[s]!);
      });
    }
    const puts = sent.map((t, seq) => answered[seq]! - t).filter((d) => !Number.isNaN(d));
    for (const list of [delays, afterAnswer, puts]) list.sort((a, b) => a - b);
    return {
      p50: percentile(delays, 50),
      p99: percentile(delays, 99),
      max: delays.at(-1) ?? 0,
      putP99: percentile(puts, 99),
      afterAnswerP99: percentile(afterAnswer, 99),
      inOrder: watchers.length - faults.length,
      putFailures: failed.length,
      firstPutFailure: failed[0],
      serverShare,
      readerShare,
      firstFault,
      delivered,
      serverUsPerEvent: (cpu * 1000) / Math.max(1, delivered),
      readerUsPerEvent: (reader.user + reader.system) / Math.max(1, delivered),
    };
  } finally {
    for (const w of watchers) w.close();
    for (const s of sessions) s.close();
  }
}

function rows(backend: Backend, shape: Shape, r: RunResult): BenchRow[] {
  const area = `watch/fan-out-scale/${backend}`;
  const what = `${shape.watchers} watchers, ${shape.rate} updates/s for ${shape.seconds} s, HTTP/2 TLS, JSON`;
  const expected = shape.watchers * shape.rate * shape.seconds;
  return [
    {
      area,
      name: `${what}: watchers that got every event in order${r.firstFault === undefined ? '' : ` (first fault: ${r.firstFault})`}${
        r.putFailures === 0 ? '' : `; ${r.putFailures} PUTs failed, first: ${r.firstPutFailure}`
      }`,
      baselineName: 'watchers',
      baseline: shape.watchers,
      measured: r.inOrder,
      unit: 'watchers',
      target: `= ${shape.watchers}`,
      pass: r.inOrder === shape.watchers && r.delivered === expected && r.putFailures === 0,
    },
    {
      area,
      name: `${what}: p99 delivery delay, PUT sent -> event read (p50 ${r.p50.toFixed(1)} ms, max ${r.max.toFixed(0)} ms; of which the PUT itself: p99 ${r.putP99.toFixed(0)} ms; PUT answered -> event read: p99 ${r.afterAnswerP99.toFixed(0)} ms)`,
      baselineName: 'target',
      baseline: P99_TARGET_MS,
      measured: r.p99,
      unit: 'ms',
      target: `< ${P99_TARGET_MS}`,
      pass: r.p99 < P99_TARGET_MS,
    },
    {
      area,
      name: `${what}: kapi CPU per delivered event (${r.delivered} delivered; the PUTs' CPU included; kapi used ${r.serverShare.toFixed(2)} cores, this reader ${r.readerShare.toFixed(2)})`,
      baselineName: "this reader's CPU per event",
      baseline: r.readerUsPerEvent,
      measured: r.serverUsPerEvent,
      unit: 'µs/event',
      ratio: r.readerUsPerEvent === 0 ? 0 : r.serverUsPerEvent / r.readerUsPerEvent,
    },
  ];
}

async function run(opts: RunOptions): Promise<BenchRow[]> {
  // KAPI_BENCH_FANOUT_RATE overrides the full shape's updates/s, to find where a machine's kapi keeps up.
  const rate = Number(process.env.KAPI_BENCH_FANOUT_RATE ?? 100);
  const shape: Shape = opts.quick ? { watchers: 100, rate: 50, seconds: 2 } : { watchers: 1000, rate, seconds: 30 };
  const out: BenchRow[] = [];
  for (const backend of availableBackends()) {
    const server = await startKapiOn(backend);
    try {
      // Unrecorded: JIT and caches warm before the recorded run.
      if (!opts.quick) await runOnce(server.kapi, { ...shape, seconds: 2 });
      out.push(...rows(backend, shape, await runOnce(server.kapi, shape)));
    } finally {
      await server.stop();
    }
  }
  return out;
}

export const bench: Bench = { name: 'watch-fanout-scale', run };
