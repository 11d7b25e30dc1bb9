// Starts the real server (`node bin/kapi.js`, the compiled build `npm test`
// makes first) on a free loopback port with a temp data dir, waits for its
// `kapi ready` log line, and stops it. e2e tests drive it with real clients.
// spawnKapi is the lower level for tests that stop a server at chosen moments
// (during start, mid-traffic) and start it again on the same data.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface RunningKapi {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly kubeconfig: string;
  /** Everything the server logged so far. */
  logs(): string;
  /** Milliseconds from spawn to the `kapi ready` line. */
  readonly startMs: number;
  readonly pid: number;
  /** SIGTERM, then SIGKILL after 5 s; answers how the process ended. */
  stop(): Promise<ExitStatus>;
  /** Sends a signal now (SIGKILL: no cleanup, as a crash). */
  kill(signal: NodeJS.Signals): void;
  /** Resolves when the process has exited. */
  readonly exited: Promise<ExitStatus>;
}

export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface SpawnKapiOptions {
  readonly args?: readonly string[];
  /** Kept after stop when given; a fresh temp dir (removed on stop) otherwise. */
  readonly dataDir?: string;
  /** Default: a free one. */
  readonly port?: number;
  /** Flags for node itself, before bin/kapi.js (e.g. --import of a test module). */
  readonly nodeArgs?: readonly string[];
}

/** A spawned server that may not be ready yet. */
export interface SpawnedKapi {
  readonly port: number;
  readonly dataDir: string;
  readonly pid: number;
  logs(): string;
  /** Resolves with the ms from spawn to `kapi ready`; rejects if the process exits first or the bound passes. */
  ready(timeoutMs?: number): Promise<number>;
  kill(signal: NodeJS.Signals): void;
  readonly exited: Promise<ExitStatus>;
  /** As RunningKapi.stop, also before ready. */
  stop(): Promise<ExitStatus>;
}

const ROOT = resolve(import.meta.dirname, '../../..');

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

export async function spawnKapi(opts: SpawnKapiOptions = {}): Promise<SpawnedKapi> {
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'kapi-e2e-'));
  const ownsDir = opts.dataDir === undefined;
  const started = Date.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), join(ROOT, 'bin/kapi.js'), `--secure-port=${port}`, '--bind-address=127.0.0.1', `--data-dir=${dataDir}`, ...(opts.args ?? [])],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const listeners = new Set<() => void>();
  const onOutput = (d: Buffer) => {
    output += d.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onOutput);
  child.stderr!.on('data', onOutput);
  const exited = new Promise<ExitStatus>((resolveExit) => {
    // 'close' (not 'exit'): the output pipes are drained by then, so logs() is complete.
    child.once('close', (code, signal) => resolveExit({ code, signal }));
  });
  let exitStatus: ExitStatus | undefined;
  void exited.then((s) => (exitStatus = s));

  return {
    port,
    dataDir,
    pid: child.pid!,
    logs: () => output,
    exited,
    ready: (timeoutMs = 20_000) =>
      new Promise<number>((resolveReady, reject) => {
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        const check = () => {
          if (output.includes('"msg":"kapi ready"')) {
            done();
            resolveReady(Date.now() - started);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`kapi not ready in time:\n${output}`));
        }, timeoutMs);
        listeners.add(check);
        check();
        void exited.then((s) => {
          if (!listeners.has(check)) return;
          done();
          reject(new Error(`kapi exited with ${s.code ?? s.signal} before ready:\n${output}`));
        });
      }),
    kill: (signal) => {
      if (exitStatus === undefined) child.kill(signal);
    },
    async stop() {
      if (exitStatus === undefined) {
        child.kill('SIGTERM');
        const killTimer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(killTimer);
      }
      if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
      return exited;
    },
  };
}

export async function startKapi(opts: SpawnKapiOptions & { readyTimeoutMs?: number } = {}): Promise<RunningKapi> {
  const spawned = await spawnKapi(opts);
  let startMs: number;
  try {
    startMs = await spawned.ready(opts.readyTimeoutMs ?? 20_000);
  } catch (err) {
    await spawned.stop();
    throw err;
  }
  return {
    url: `https://127.0.0.1:${spawned.port}`,
    port: spawned.port,
    dataDir: spawned.dataDir,
    kubeconfig: join(spawned.dataDir, 'admin.kubeconfig'),
    logs: spawned.logs,
    startMs,
    pid: spawned.pid,
    stop: spawned.stop,
    kill: spawned.kill,
    exited: spawned.exited,
  };
}

/** Polls `check` until it answers true, failing after `ms` with `what`. */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
