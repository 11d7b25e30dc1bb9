// The fuzzer's report: options in, counts by status and one reproducing input
// per failure signature out, printed and (when anything failed) written to
// <run dir>/failures.json with every body in full.
import { join } from 'node:path';
import type { FuzzInput } from './input.js';

export interface FuzzOptions {
  readonly count: number;
  readonly seconds: number;
  readonly seed: number;
  /** Streams in flight at once. */
  readonly concurrency?: number;
  /** Per-request deadline: no answer by then is a hang. */
  readonly timeoutMs?: number;
  /** Only this input (after setup), to replay a failure. */
  readonly only?: number;
  /** An already running server instead of starting one. */
  readonly url?: string;
  readonly kubeconfig?: string;
  /** Keep the run directory even when nothing failed. */
  readonly keep?: boolean;
  /** Fresh servers started after a crash or hang before the run gives up (default 5). */
  readonly maxRestarts?: number;
  readonly log?: (line: string) => void;
}

export interface Failure {
  readonly signature: string;
  readonly count: number;
  readonly detail: string;
  readonly input: SerializedInput;
  /** For a stored object refused at the end: the input that last wrote it. */
  readonly writer?: SerializedInput;
}

export interface SerializedInput {
  readonly index: number;
  readonly origin: string;
  readonly transport: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyBytes: number;
  /** The body as text when it is valid UTF-8 and short enough, else undefined. */
  readonly bodyText?: string;
  readonly bodyBase64?: string;
}

export interface FuzzReport {
  readonly seed: number;
  readonly sent: number;
  readonly durationMs: number;
  readonly inputsPerSecond: number;
  readonly counts: Readonly<Record<string, number>>;
  readonly checkedObjects: number;
  /** Servers replaced after a crash or a hang. */
  readonly restarts: number;
  readonly failures: readonly Failure[];
  readonly runDir: string;
}

const MAX_INLINE_BODY = 4096;

export function serializeInput(input: FuzzInput): SerializedInput {
  const body = input.body;
  const text = body?.toString('utf8');
  const printable = body !== undefined && text !== undefined && Buffer.from(text, 'utf8').equals(body);
  return {
    index: input.index, origin: input.origin, transport: input.transport, method: input.method, path: input.path, headers: input.headers, bodyBytes: body?.length ?? 0,
    ...(body === undefined ? {} : printable && body.length <= MAX_INLINE_BODY ? { bodyText: text } : { bodyBase64: body.toString('base64') }),
  };
}

export function printReport(r: FuzzReport, log: (line: string) => void): void {
  const byStatus = Object.entries(r.counts).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}: ${n}`).join(', ');
  log(`fuzz: ${r.sent} inputs in ${(r.durationMs / 1000).toFixed(1)} s (${r.inputsPerSecond}/s), seed ${r.seed}; ${r.checkedObjects} stored objects re-validated; ${r.restarts} server restarts`);
  log(`fuzz: answers by status: ${byStatus}`);
  if (r.failures.length === 0) {
    log('fuzz: no failures');
    return;
  }
  log(`fuzz: ${r.failures.length} failure signatures (inputs in ${join(r.runDir, 'failures.json')}):`);
  for (const f of r.failures) {
    log(`  [${f.count}×] ${f.signature}`);
    log(`      input #${f.input.index} ${f.input.origin}: ${f.input.transport} ${f.input.method} ${f.input.path} ${f.input.headers['content-type'] ?? ''} ${preview(f.input)}`);
    // A crash or hang names no single input: the suspects and the server's last words are the lead.
    if (f.signature.startsWith('crash') || f.signature.startsWith('hang: the server')) {
      for (const line of f.detail.split('\n').filter((l) => l.trim() !== '').slice(0, 12)) log(`      | ${line.slice(0, 200)}`);
    }
    if (f.writer !== undefined) log(`      written by #${f.writer.index} ${f.writer.origin}: ${f.writer.method} ${f.writer.path} ${preview(f.writer)}`);
  }
}

function preview(i: SerializedInput): string {
  if (i.bodyText !== undefined) return JSON.stringify(i.bodyText.length > 200 ? i.bodyText.slice(0, 200) + '…' : i.bodyText);
  return i.bodyBytes === 0 ? '' : `<${i.bodyBytes} bytes>`;
}

