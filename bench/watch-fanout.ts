// Watch fan-out (issue #9): 100 watchers over HTTP/2 TLS on one ConfigMap while it
// is updated 200 times a second for 10 s (unconditional PUTs, sent on schedule
// whether or not earlier ones have been answered), in JSON and in protobuf
// (application/vnd.kubernetes.protobuf;stream=watch). Every watcher must get
// every update exactly once and in commit order: the resourceVersions the PUTs
// answered, sorted, each carrying the seq its PUT wrote. Rows report p50/p99
// delivery delay (PUT sent -> event read by the watcher) and server CPU per
// delivered event (all of kapi's CPU during the run, the PUTs' included, divided
// by watchers x updates). The baseline is today's handler: the tree at
// KAPI_WATCH_BASELINE_REF (default: 99d099e, the last commit with the hand-framed
// JSON handler, before watches went through the codecs) extracted with
// `git archive`, built, and started the same way in the same run. That handler
// always answers JSON, so its protobuf figures are JSON figures.
// Protobuf frames are read by support/watch-client.ts's own small reader, as
// client-go reads them, not by the server's decoder.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { connect } from 'node:http2';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { percentile, ratioRow, type Bench, type BenchRow, type RunOptions } from './lib.js';
import { startKapiProcess, type KapiProcess } from './support/kapi-process.js';
import { cpuMs, openWatcher, orderFault, PB_STREAM, request, type Encoding, type Watcher } from './support/watch-client.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const NAME = 'fanout';
const ROOT = resolve(import.meta.dirname, '../..');

/** One run's shape: the issue's is 100 watchers, 200 updates/s, 10 s. */
interface Shape {
  readonly watchers: number;
  readonly rate: number;
  readonly seconds: number;
}

/** Watchers share a few HTTP/2 sessions, as informers in a few processes would. */
const SESSIONS = 4;

interface RunResult {
  readonly p50: number;
  readonly p99: number;
  readonly cpuUsPerEvent: number;
  readonly delivered: number;
  readonly contentType: string;
}

const watchPath = (fromRv: string): string => `${CMS}?watch=true&resourceVersion=${fromRv}&fieldSelector=metadata.name%3D${NAME}&timeoutSeconds=120`;

// No resourceVersion: unconditional updates, so PUTs in flight together never conflict.
const configMap = (seq: number) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: NAME, namespace: 'default' }, data: { seq: String(seq), pad: 'x'.repeat(512) } });

/**
 * One run against one server. `requireStream`: a protobuf watch must answer
 * protobuf stream framing (the measured server); the baseline may answer JSON.
 */
async function runOnce(opts: { kapi: KapiProcess; encoding: Encoding; shape: Shape; requireStream: boolean }): Promise<RunResult> {
  const { kapi, encoding, shape, requireStream } = opts;
  const updates = shape.rate * shape.seconds;
  const { ca, cert, key } = kapi.credentials;
  const sessions = Array.from({ length: SESSIONS + 1 }, () => connect(`https://127.0.0.1:${kapi.port}`, { ca, cert, key }));
  const writer = sessions[SESSIONS]!;
  const watchers: Watcher[] = [];
  try {
    await request(writer, 'DELETE', `${CMS}/${NAME}`);
    const created = await request(writer, 'POST', CMS, configMap(0));
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.body}`);
    const fromRv = (JSON.parse(created.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    watchers.push(...(await Promise.all(Array.from({ length: shape.watchers }, (_, i) => openWatcher(sessions[i % SESSIONS]!, encoding, watchPath(fromRv))))));
    const contentType = watchers[0]!.contentType;
    if (requireStream && encoding === 'protobuf' && contentType !== PB_STREAM) throw new Error(`a protobuf watch answered ${contentType}, not ${PB_STREAM}`);
    const sent: number[] = [];
    const committed: Array<{ resourceVersion: string; seq: number }> = [];
    const cpuBefore = cpuMs(kapi.pid);
    const clientBefore = process.cpuUsage();
    const start = performance.now();
    const puts: Promise<unknown>[] = [];
    for (let seq = 1; seq <= updates; seq++) {
      const due = start + ((seq - 1) * 1000) / shape.rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      sent[seq] = performance.now();
      puts.push(
        request(writer, 'PUT', `${CMS}/${NAME}`, configMap(seq)).then((r) => {
          if (r.status !== 200) throw new Error(`PUT answered ${r.status}: ${r.body}`);
          committed.push({ resourceVersion: (JSON.parse(r.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion, seq });
        }),
      );
    }
    await Promise.all(puts);
    // PUTs in flight together may commit in another order than they were sent;
    // a watch owes the commit order, which resourceVersions give.
    committed.sort((a, b) => (BigInt(a.resourceVersion) < BigInt(b.resourceVersion) ? -1 : 1));
    const deadline = performance.now() + 30_000;
    while (watchers.some((w) => w.seqs.length < updates && !w.ended) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const cpu = cpuMs(kapi.pid) - cpuBefore;
    // This process reads every event of every watcher: past most of a core, the
    // delays measure the reader as much as the server.
    const client = process.cpuUsage(clientBefore);
    const wall = performance.now() - start;
    process.stderr.write(`bench watch: ${encoding} run on pid ${kapi.pid}: server ${((cpu / wall) * 100).toFixed(0)}% of a core, this reader ${(((client.user + client.system) / 1000 / wall) * 100).toFixed(0)}%\n`);
    const faults = watchers.map((w, i) => ({ i, fault: orderFault(w, committed), other: w.other })).filter((f) => f.fault !== undefined);
    if (faults.length > 0) {
      const first = faults[0]!;
      throw new Error(`${faults.length}/${watchers.length} ${encoding} watchers missed events or got them out of order; watcher ${first.i}: ${first.fault}${first.other.length > 0 ? `; also saw ${first.other.slice(0, 3).join(', ')}` : ''}`);
    }
    const delays: number[] = [];
    for (const w of watchers) w.seqs.forEach((s, i) => delays.push(w.arrivals[i]! - sent[s]!));
    delays.sort((a, b) => a - b);
    const delivered = shape.watchers * updates;
    return { p50: percentile(delays, 50), p99: percentile(delays, 99), cpuUsPerEvent: (cpu * 1000) / delivered, delivered, contentType };
  } finally {
    for (const w of watchers) w.close();
    for (const s of sessions) s.close();
  }
}

/** Today's handler: the baseline ref's tree, built beside this one (node_modules shared). */
async function startBaseline(): Promise<{ kapi: KapiProcess; ref: string; cleanup(): void } | undefined> {
  // The last commit with the hand-framed JSON handler (before watches went through the codecs).
  const ref = process.env.KAPI_WATCH_BASELINE_REF ?? '99d099e7241060a31d18978a83592cdd4348b5b9';
  const dir = mkdtempSync(join(tmpdir(), 'kapi-watch-baseline-'));
  try {
    execFileSync('sh', ['-c', `git -C "${ROOT}" archive "${ref}" | tar -x -C "${dir}"`], { stdio: 'ignore' });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'ignore' });
    } catch {
      // tsc exits non-zero on type errors but still emits; the start below decides.
    }
    const support = join(dir, 'dist/bench/support/kapi-process.js');
    if (!existsSync(support)) throw new Error('baseline build wrote no dist');
    const { startKapiProcess: startOld } = (await import(support)) as typeof import('./support/kapi-process.js');
    const kapi = await startOld();
    return { kapi, ref: ref.slice(0, 7), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (err) {
    process.stderr.write(`bench watch: no baseline (${String(err)}); new figures only\n`);
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

function rows(opts: { encoding: Encoding; shape: Shape; measured: RunResult; baseline: RunResult | undefined; ref: string }): BenchRow[] {
  const { encoding, shape, measured, baseline, ref } = opts;
  const area = 'watch/fan-out';
  const what = `${shape.watchers} watchers, ${shape.rate} updates/s for ${shape.seconds} s, HTTP/2 TLS, ${encoding} (${measured.contentType})`;
  const baselineName = baseline === undefined ? 'none: baseline could not run (new figures only)' : `today's handler (${ref}), ${baseline.contentType}`;
  const b = (v: number | undefined) => v ?? 0;
  return [
    ratioRow({ area, name: `${what}: p50 delivery delay`, baselineName, baseline: b(baseline?.p50), measured: measured.p50, unit: 'ms' }),
    ratioRow({ area, name: `${what}: p99 delivery delay`, baselineName, baseline: b(baseline?.p99), measured: measured.p99, unit: 'ms' }),
    ratioRow({ area, name: `${what}: server CPU per delivered event (${measured.delivered} delivered, all in order)`, baselineName, baseline: b(baseline?.cpuUsPerEvent), measured: measured.cpuUsPerEvent, unit: 'µs/event' }),
  ];
}

async function run(opts: RunOptions): Promise<BenchRow[]> {
  const shape: Shape = { watchers: 100, rate: 200, seconds: opts.quick ? 2 : 10 };
  // Unrecorded: JIT and caches warm on both servers before the first recorded run.
  const warmUp: Shape = { watchers: shape.watchers, rate: shape.rate, seconds: 1 };
  const results: Record<'old' | 'new', Partial<Record<Encoding, RunResult>>> = { old: {}, new: {} };
  const baseline = await startBaseline();
  const current = await startKapiProcess();
  try {
    if (baseline !== undefined) await runOnce({ kapi: baseline.kapi, encoding: 'json', shape: warmUp, requireStream: false });
    await runOnce({ kapi: current, encoding: 'json', shape: warmUp, requireStream: true });
    // Alternate the two servers so a noisy stretch of a shared machine hits both.
    for (const encoding of ['json', 'protobuf'] as const) {
      if (baseline !== undefined) results.old[encoding] = await runOnce({ kapi: baseline.kapi, encoding, shape, requireStream: false });
      results.new[encoding] = await runOnce({ kapi: current, encoding, shape, requireStream: true });
    }
  } finally {
    await current.stop();
    if (baseline !== undefined) {
      await baseline.kapi.stop();
      baseline.cleanup();
    }
  }
  return (['json', 'protobuf'] as const).flatMap((encoding) =>
    rows({ encoding, shape, measured: results.new[encoding]!, baseline: results.old[encoding], ref: baseline?.ref ?? '' }),
  );
}

export const bench: Bench = { name: 'watch', run };
