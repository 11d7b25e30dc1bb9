// Starts the real server (`node bin/kapi.js`, the compiled build `npm test`
// makes first) on a free loopback port with a temp data dir, waits for its
// `kapi ready` log line, and stops it. e2e tests drive it with real clients.
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
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
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

export async function startKapi(opts: { args?: string[]; dataDir?: string; readyTimeoutMs?: number } = {}): Promise<RunningKapi> {
  const port = await freePort();
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'kapi-e2e-'));
  const ownsDir = opts.dataDir === undefined;
  const started = Date.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, 'bin/kapi.js'), `--secure-port=${port}`, '--bind-address=127.0.0.1', `--data-dir=${dataDir}`, ...(opts.args ?? [])],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));

  const startMs = await new Promise<number>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`kapi not ready in time:\n${output}`)), opts.readyTimeoutMs ?? 20_000);
    const onData = () => {
      if (output.includes('kapi ready')) {
        clearTimeout(timer);
        resolveReady(Date.now() - started);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kapi exited with ${code} before ready:\n${output}`));
    });
  });

  return {
    url: `https://127.0.0.1:${port}`,
    port,
    dataDir,
    kubeconfig: join(dataDir, 'admin.kubeconfig'),
    logs: () => output,
    startMs,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const killTimer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(killTimer);
      }
      if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
      return { code: child.exitCode, signal: child.signalCode };
    },
  };
}
