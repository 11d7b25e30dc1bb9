// The watch client shared by the fan-out benches (bench/watch-fanout.ts and
// bench/watch-fanout-scale.ts): HTTP/2 requests, a watch reader for JSON lines and
// protobuf frames, the check that a watcher got every update in commit order, and
// a process's CPU time from /proc. The protobuf reader is this file's own (4-byte
// big-endian length, metav1.WatchEvent, the object in the `k8s\0` envelope), as
// client-go reads them, not the server's decoder, so a fault shared by the
// server's encoder and decoder cannot hide here.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ClientHttp2Session } from 'node:http2';

export const PB = 'application/vnd.kubernetes.protobuf';
export const PB_STREAM = `${PB};stream=watch`;
const MAGIC = Buffer.from('k8s\0', 'latin1');

export type Encoding = 'json' | 'protobuf';

/** Clock ticks per second for /proc's utime and stime (100 on every common Linux). */
const CLK_TCK = ((): number => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process in ms (Linux /proc). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

export function request(session: ClientHttp2Session, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
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

export interface Watcher {
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

/** One watch stream on `path` (a watch URL with its query); records each MODIFIED event and when it was read. */
export function openWatcher(session: ClientHttp2Session, encoding: Encoding, path: string): Promise<Watcher> {
  return new Promise((ok, fail) => {
    const stream = session.request({
      ':path': path,
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
export function orderFault(w: Watcher, expected: ReadonlyArray<{ resourceVersion: string; seq: number }>): string | undefined {
  for (let i = 0; i < expected.length; i++) {
    if (i >= w.resourceVersions.length) return `got ${w.resourceVersions.length}/${expected.length} events${w.ended ? ', stream ended' : ''}`;
    if (w.resourceVersions[i] !== expected[i]!.resourceVersion || w.seqs[i] !== expected[i]!.seq) {
      return `event ${i} was rv ${w.resourceVersions[i]} seq ${w.seqs[i]}, commit order says rv ${expected[i]!.resourceVersion} seq ${expected[i]!.seq}`;
    }
  }
  if (w.resourceVersions.length > expected.length) return `got ${w.resourceVersions.length - expected.length} events more than the ${expected.length} updates`;
  return undefined;
}
