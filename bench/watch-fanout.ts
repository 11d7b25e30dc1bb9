// Watch fan-out (issue #9): 100 watchers over HTTP/2 on one ConfigMap while it is
// updated 200 times a second for 10 s, in JSON and in protobuf. Every watcher must
// get every event in order; rows report p50/p99 delivery delay (PUT sent -> event
// read by the watcher) and server CPU per delivered event. The baseline is today's
// handler: the tree at KAPI_WATCH_BASELINE_REF (default: the commit before this one) extracted with
// `git archive`, built, and started the same way in the same run. That handler
// always answers JSON, so its protobuf figures are JSON figures.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { connect, type ClientHttp2Session } from 'node:http2';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { percentile, ratioRow, type Bench, type BenchRow } from './lib.js';
import { startKapiProcess, type KapiProcess } from './support/kapi-process.js';
import { protobufCodec } from '../src/codecs/protobuf.js';
import { decodeWatchFrame } from '../src/codecs/protobuf/watch.js';

const WATCHERS = 100;
const SESSIONS = 4;
const RATE = 200;
const SECONDS = 10;
const UPDATES = RATE * SECONDS;
const CMS = '/api/v1/namespaces/default/configmaps';
const NAME = 'fanout';
const ROOT = resolve(import.meta.dirname, '../..');
const PB = 'application/vnd.kubernetes.protobuf';

type Encoding = 'json' | 'protobuf';

interface RunResult {
  readonly p50: number;
  readonly p99: number;
  readonly cpuUsPerEvent: number;
  readonly delivered: number;
  readonly contentType: string;
}

/** utime + stime of a process in ms (Linux /proc, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function request(session: ClientHttp2Session, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const stream = session.request({ ':method': method, ':path': path, 'content-type': 'application/json', accept: 'application/json' });
    let status = 0;
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => (status = Number(h[':status'])));
    stream.on('data', (c: string) => (text += c));
    stream.on('end', () => ok({ status, body: text }));
    stream.on('error', fail);
    stream.end(body);
  });
}

const configMap = (seq: number) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: NAME, namespace: 'default' }, data: { seq: String(seq), pad: 'x'.repeat(512) } });

interface Watcher {
  readonly seqs: number[];
  readonly arrivals: number[];
  contentType: string;
  close(): void;
}

/** One watch stream; records each MODIFIED event's seq and when it was read. */
function openWatcher(session: ClientHttp2Session, encoding: Encoding, fromRv: string): Promise<Watcher> {
  return new Promise((ok, fail) => {
    const stream = session.request({
      ':path': `${CMS}?watch=true&resourceVersion=${fromRv}&fieldSelector=metadata.name%3D${NAME}&timeoutSeconds=120`,
      accept: encoding === 'protobuf' ? `${PB}, */*` : 'application/json, */*',
    });
    const w: Watcher = { seqs: [], arrivals: [], contentType: '', close: () => stream.close() };
    let pending: Buffer = Buffer.alloc(0);
    const record = (type: string, seq: string | undefined) => {
      if (type !== 'MODIFIED' || seq === undefined) return;
      w.seqs.push(Number(seq));
      w.arrivals.push(performance.now());
    };
    stream.on('response', (h) => {
      w.contentType = String(h['content-type']);
      if (Number(h[':status']) !== 200) fail(new Error(`watch answered ${h[':status']}`));
      else ok(w);
    });
    stream.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      if (w.contentType.startsWith(PB)) {
        while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
          const frame = decodeWatchFrame({ codec: protobufCodec, buf: pending });
          pending = pending.subarray(frame.size);
          record(frame.type, (frame.object as { data?: { seq?: string } }).data?.seq);
        }
        return;
      }
      let nl: number;
      while ((nl = pending.indexOf(0x0a)) >= 0) {
        const line = pending.subarray(0, nl).toString('utf8');
        pending = pending.subarray(nl + 1);
        const e = JSON.parse(line) as { type: string; object: { data?: { seq?: string } } };
        record(e.type, e.object.data?.seq);
      }
    });
    stream.on('error', () => undefined);
  });
}

async function runOnce(kapi: KapiProcess, encoding: Encoding): Promise<RunResult> {
  const { ca, cert, key } = kapi.credentials;
  const sessions = Array.from({ length: SESSIONS + 1 }, () => connect(`https://127.0.0.1:${kapi.port}`, { ca, cert, key }));
  const writer = sessions[SESSIONS]!;
  try {
    await request(writer, 'DELETE', `${CMS}/${NAME}`);
    const created = await request(writer, 'POST', CMS, configMap(0));
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.body}`);
    const fromRv = (JSON.parse(created.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const watchers = await Promise.all(Array.from({ length: WATCHERS }, (_, i) => openWatcher(sessions[i % SESSIONS]!, encoding, fromRv)));
    const sent: number[] = [];
    const cpuBefore = cpuMs(kapi.pid);
    const start = performance.now();
    const puts: Promise<unknown>[] = [];
    for (let seq = 1; seq <= UPDATES; seq++) {
      const due = start + ((seq - 1) * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      sent[seq] = performance.now();
      puts.push(request(writer, 'PUT', `${CMS}/${NAME}`, configMap(seq)).then((r) => {
        if (r.status !== 200) throw new Error(`PUT answered ${r.status}: ${r.body}`);
      }));
    }
    await Promise.all(puts);
    const deadline = performance.now() + 30_000;
    while (watchers.some((w) => w.seqs.length < UPDATES) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const cpu = cpuMs(kapi.pid) - cpuBefore;
    const delays: number[] = [];
    for (const w of watchers) {
      const inOrder = w.seqs.length === UPDATES && w.seqs.every((s, i) => s === i + 1);
      if (!inOrder) throw new Error(`a ${encoding} watcher got ${w.seqs.length}/${UPDATES} events or out of order`);
      w.seqs.forEach((s, i) => delays.push(w.arrivals[i]! - sent[s]!));
      w.close();
    }
    delays.sort((a, b) => a - b);
    const delivered = WATCHERS * UPDATES;
    return { p50: percentile(delays, 50), p99: percentile(delays, 99), cpuUsPerEvent: (cpu * 1000) / delivered, delivered, contentType: watchers[0]!.contentType };
  } finally {
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
    return { kapi, ref, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (err) {
    process.stderr.write(`bench watch: no baseline (${String(err)}); new figures only\n`);
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

function rows(encoding: Encoding, measured: RunResult, baseline: RunResult | undefined, ref: string): BenchRow[] {
  const area = 'watch/fan-out';
  const what = `${WATCHERS} watchers, ${RATE} updates/s for ${SECONDS} s, HTTP/2 TLS, ${encoding} (${measured.contentType})`;
  const baselineName = baseline === undefined ? 'none: baseline could not run (new figures only)' : `today's handler (${ref}), ${baseline.contentType}`;
  const b = (v: number | undefined) => v ?? 0;
  return [
    ratioRow({ area, name: `${what}: p50 delivery delay`, baselineName, baseline: b(baseline?.p50), measured: measured.p50, unit: 'ms' }),
    ratioRow({ area, name: `${what}: p99 delivery delay`, baselineName, baseline: b(baseline?.p99), measured: measured.p99, unit: 'ms' }),
    ratioRow({ area, name: `${what}: server CPU per delivered event (${measured.delivered} delivered, all in order)`, baselineName, baseline: b(baseline?.cpuUsPerEvent), measured: measured.cpuUsPerEvent, unit: 'µs/event' }),
  ];
}

async function run(): Promise<BenchRow[]> {
  const out: BenchRow[] = [];
  const results: Partial<Record<'old' | 'new', Partial<Record<Encoding, RunResult>>>> = { old: {}, new: {} };
  const baseline = await startBaseline();
  const current = await startKapiProcess();
  try {
    // Alternate the two servers so a noisy stretch of a shared machine hits both.
    for (const encoding of ['json', 'protobuf'] as const) {
      if (baseline !== undefined) results.old![encoding] = await runOnce(baseline.kapi, encoding);
      results.new![encoding] = await runOnce(current, encoding);
    }
  } finally {
    await current.stop();
    if (baseline !== undefined) {
      await baseline.kapi.stop();
      baseline.cleanup();
    }
  }
  for (const encoding of ['json', 'protobuf'] as const) out.push(...rows(encoding, results.new![encoding]!, results.old![encoding], baseline?.ref ?? ''));
  return out;
}

export const bench: Bench = { name: 'watch', run };
