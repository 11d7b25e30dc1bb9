// Starts the real server for a run, as test/e2e/support/server.ts does for the
// e2e tests: `node bin/kapi.js` (the compiled build) on a free loopback port with
// the run's data dir, ready at its `kapi ready` line. Its output goes straight to
// a file in the run's directory (it logs a line per request: none of that passes
// through the fuzzer), and its exit is watched: an exit during the run is a crash.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../bench/support/kapi-process.js';

export interface FuzzServer {
  readonly url: string;
  readonly kubeconfig: string;
  readonly pid: number;
  /** Resolves when the process exits, however it exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  isAlive(): boolean;
  /** The last lines the server wrote (a crash's cause is usually there). */
  tail(lines: number): string;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, import.meta.dirname.includes(`${'/'}dist${'/'}`) ? '../..' : '..');

/** The last `bytes` of a file, as text. */
function readTail(path: string, bytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - bytes);
    const buf = Buffer.alloc(size - start);
    readSync(fd, buf, 0, buf.length, start);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

export async function startServer(opts: { dataDir: string; logFile: string; extraArgs?: readonly string[]; readyTimeoutMs?: number }): Promise<FuzzServer> {
  const port = await freePort();
  const out = openSync(opts.logFile, 'a');
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/kapi.js'), `--data-dir=${opts.dataDir}`, `--secure-port=${port}`, '--bind-address=127.0.0.1', '--sqlite-synchronous=NORMAL', ...(process.env.FUZZ_EXTRA ? [process.env.FUZZ_EXTRA] : []), ...(opts.extraArgs ?? [])],
    { cwd: ROOT, stdio: ['ignore', out, out] },
  );
  closeSync(out);
  let alive = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('exit', (code, signal) => {
      alive = false;
      done({ code, signal });
    });
  });
  const tail = (lines: number): string => readTail(opts.logFile, 64 * 1024).split('\n').slice(-lines - 1).join('\n');
  const readyBy = Date.now() + (opts.readyTimeoutMs ?? 30_000);
  while (!readTail(opts.logFile, 64 * 1024).includes('kapi ready')) {
    if (!alive) throw new Error(`kapi exited before ready:\n${tail(30)}`);
    if (Date.now() > readyBy) {
      child.kill('SIGKILL');
      throw new Error(`kapi not ready in time:\n${tail(30)}`);
    }
    await sleep(50);
  }
  return {
    url: `https://127.0.0.1:${port}`,
    kubeconfig: join(opts.dataDir, 'admin.kubeconfig'),
    pid: child.pid!,
    exited,
    isAlive: () => alive,
    tail,
    async stop(graceMs = 5000) {
      if (!alive) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
