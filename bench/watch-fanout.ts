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
// Protobuf frames are read by this file's own small reader (4-byte big-endian
// length, metav1.WatchEvent, the object in the `k8s\0` envelope), as client-go
// reads them, not by the server's decoder, so a fault shared by the server's
// encoder and decoder cannot hide here.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { connect, type ClientHttp2Session } from 'node:http2';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { percentile, ratioRow, type Bench, type BenchRow, type RunOptions } from './lib.js';
import { startKapiProcess, type KapiProcess } from './support/kapi-process.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const NAME = 'fanout';
const ROOT = resolve(import.meta.dirname, '../..');
const PB = 'application/vnd.kubernetes.protobuf';
const PB_STREAM = `${PB};stream=watch`;
const MAGIC = Buffer.from('k8s\0', 'latin1');

type Encoding = 'json' | 'protobuf';

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

/** Clock ticks per second for /proc's utime and stime (100 on every common Linux). */
const CLK_TCK = ((): number => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process in ms (Linux /proc). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
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

// No resourceVersion: unconditional updates, so PUTs in flight together never conflict.
const configMap = (seq: number) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: NAME, namespace: 'default' }, data: { seq: String(seq), pad: 'x'.repeat(512) } });

/** Calls `each` with every field of a protobuf message: its number and, when length-delimited, its bytes. */
function eachField(buf: Buffer, each: (no: number, bytes: Buffer | undefined) => void): void {
  let pos = 0;
  const varint = (): number => {
    let value = 0;
    for (let mul = 1; ; mul *= 128) {
      if (pos >= buf.length) throw new Error('protobuf: truncated varint');
      const b = buf[pos++]!;
      value += (b & 0x7f) * mul;
      if (b < 0x80) return value;
    }
  };
  while (pos < buf.length) {
    const key = varint();
    const wire = key & 7;
    const no = Math.floor(key / 8);
    if (wire === 0) varint();
    else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else if (wire !== 2) throw new Error(`protobuf: wire type ${wire}`);
    if (wire !== 2) {
      each(no, undefined);
      continue;
    }
    const length = varint();
    if (pos + length > buf.length) throw new Error('protobuf: truncated field');
    each(no, buf.subarray(pos, pos + length));
    pos += length;
  }
}

/** What a watcher keeps of one event. */
interface Seen {
  readonly type: string;
  readonly resourceVersion: string | undefined;
  readonly seq: string | undefined;
}

/**
 * One protobuf watch frame's payload (after the length): metav1.WatchEvent {1: type,
 * 2: RawExtension {1: raw}}, raw = `k8s\0` + runtime.Unknown {2: the ConfigMap},
 * ConfigMap {1: ObjectMeta {6: resourceVersion}, 2: data entries {1: key, 2: value}}.
 */
function protobufEvent(frame: Buffer): Seen {
  let type = '';
  let raw: Buffer | undefined;
  eachField(frame, (no, b) => {
    if (no === 1 && b !== undefined) type = b.toString('utf8');
    else if (no === 2 && b !== undefined) eachField(b, (n, r) => (n === 1 && r !== undefined ? (raw = r) : undefined));
  });
  if (raw === undefined || !raw.subarray(0, 4).equals(MAGIC)) throw new Error(`protobuf ${type} event whose object lacks the k8s\\0 envelope`);
  let object: Buffer | undefined;
  eachField(raw.subarray(4), (no, b) => (no === 2 ? (object = b) : undefined));
  let resourceVersion: string | undefined;
  let seq: string | undefined;
  if (object !== undefined) {
    eachField(object, (no, b) => {
      if (b === undefined) return;
      if (no === 1) eachField(b, (n, v) => (n === 6 && v !== undefined ? (resourceVersion = v.toString('utf8')) : undefined));
      else if (no === 2) {
        let key: string | undefined;
        let value: string | undefined;
        eachField(b, (n, v) => {
          if (n === 1) key = v?.toString('utf8');
          else if (n === 2) value = v?.toString('utf8');
        });
        if (key === 'seq') seq = value;
      }
    });
  }
  return { type, resourceVersion, seq };
}

function jsonEvent(line: string): Seen {
  const e = JSON.parse(line) as { type: string; object: { metadata?: { resourceVersion?: string }; data?: { seq?: string } } };
  return { type: e.type, resourceVersion: e.object.metadata?.resourceVersion, seq: e.object.data?.seq };
}

interface Watcher {
  /** MODIFIED events in arrival order. */
  readonly seqs: number[];
  readonly resourceVersions: string[];
  readonly arrivals: number[];
  /** Anything else the stream carried (ERROR events above all), for the failure message. */
  readonly other: string[];
  contentType: string;
  ended: boolean;
  close(): void;
}

/** One watch stream from `fromRv`; records each MODIFIED event and when it was read. */
function openWatcher(session: ClientHttp2Session, encoding: Encoding, fromRv: string): Promise<Watcher> {
  return new Promise((ok, fail) => {
    const stream = session.request({
      ':path': `${CMS}?watch=true&resourceVersion=${fromRv}&fieldSelector=metadata.name%3D${NAME}&timeoutSeconds=120`,
      // What client-go sends for a protobuf client; the server picks the stream framing.
      accept: encoding === 'protobuf' ? `${PB}, */*` : 'application/json, */*',
    });
    const w: Watcher = { seqs: [], resourceVersions: [], arrivals: [], other: [], contentType: '', ended: false, close: () => stream.close() };
    let pending: Buffer = Buffer.alloc(0);
    const record = (e: Seen): void => {
      if (e.type !== 'MODIFIED' || e.seq === undefined || e.resourceVersion === undefined) {
        w.other.push(`${e.type} rv=${e.resourceVersion} seq=${e.seq}`);
        return;
      }
      w.seqs.push(Number(e.seq));
      w.resourceVersions.push(e.resourceVersion);
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
          const end = 4 + pending.readUInt32BE(0);
          record(protobufEvent(pending.subarray(4, end)));
          pending = pending.subarray(end);
        }
        return;
      }
      let nl: number;
      while ((nl = pending.indexOf(0x0a)) >= 0) {
        const line = pending.subarray(0, nl).toString('utf8');
        pending = pending.subarray(nl + 1);
        record(jsonEvent(line));
      }
    });
    stream.on('close', () => (w.ended = true));
    stream.on('error', (err) => w.other.push(`stream error: ${String(err)}`));
  });
}

/** Why a watcher did not get exactly `expected` (the PUTs' resourceVersions in commit order), or undefined. */
function orderFault(w: Watcher, expected: ReadonlyArray<{ resourceVersion: string; seq: number }>): string | undefined {
  for (let i = 0; i < expected.length; i++) {
    if (i >= w.resourceVersions.length) return `got ${w.resourceVersions.length}/${expected.length} events${w.ended ? ', stream ended' : ''}`;
    if (w.resourceVersions[i] !== expected[i]!.resourceVersion || w.seqs[i] !== expected[i]!.seq) {
      return `event ${i} was rv ${w.resourceVersions[i]} seq ${w.seqs[i]}, commit order says rv ${expected[i]!.resourceVersion} seq ${expected[i]!.seq}`;
    }
  }
  if (w.resourceVersions.length > expected.length) return `got ${w.resourceVersions.length - expected.length} events more than the ${expected.length} updates`;
  return undefined;
}

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
    watchers.push(...(await Promise.all(Array.from({ length: shape.watchers }, (_, i) => openWatcher(sessions[i % SESSIONS]!, encoding, fromRv)))));
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
