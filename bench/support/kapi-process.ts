// Starts the compiled server as a child process for benchmarks (as a user would
// run it) and reads the admin credentials it writes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import yaml from 'js-yaml';

export interface KapiProcess {
  readonly port: number;
  readonly pid: number;
  readonly dataDir: string;
  /** Spawn to `kapi ready`, in milliseconds. */
  readonly readyMs: number;
  readonly credentials: { ca: Buffer; cert: Buffer; key: Buffer };
  stop(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../../..');

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => ok(typeof addr === 'object' && addr !== null ? addr.port : 0));
    });
  });
}

export async function startKapiProcess(args: readonly string[] = []): Promise<KapiProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kapi-bench-'));
  const started = process.hrtime.bigint();
  // KAPI_BENCH_ARGS (space-separated) adds flags to every kapi the bench starts, for
  // A/B runs such as KAPI_BENCH_ARGS=--watch-cache=false.
  const extra = process.env.KAPI_BENCH_ARGS?.split(' ').filter((a) => a !== '') ?? [];
  // KAPI_BENCH_NODE_ARGS goes to node itself, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'
  // (kapi exits cleanly on SIGTERM, so the profile is written).
  const nodeArgs = (): string[] => process.env.KAPI_BENCH_NODE_ARGS?.split(' ').filter((a) => a !== '') ?? [];
  const child = spawn(process.execPath, [...nodeArgs(), join(ROOT, 'bin/kapi.js'), `--secure-port=${port}`, `--data-dir=${dataDir}`, ...args, ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const readyMs = await new Promise<number>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`kapi not ready:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('kapi ready')) {
        clearTimeout(timer);
        ok(Number(process.hrtime.bigint() - started) / 1e6);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => fail(new Error(`kapi exited ${code}:\n${out}`)));
  });
  // Keep draining logs so a full pipe never stalls the server.
  child.stdout.removeAllListeners('data');
  child.stdout.resume();
  const kubeconfig = yaml.load(readFileSync(join(dataDir, 'admin.kubeconfig'), 'utf8')) as {
    clusters: { cluster: Record<string, string> }[];
    users: { user: Record<string, string> }[];
  };
  const b64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64');
  return {
    port,
    pid: child.pid!,
    dataDir,
    readyMs,
    credentials: {
      ca: b64(kubeconfig.clusters[0]!.cluster['certificate-authority-data']),
      cert: b64(kubeconfig.users[0]!.user['client-certificate-data']),
      key: b64(kubeconfig.users[0]!.user['client-key-data']),
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident memory of a process in MB, from /proc (Linux). */
export function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}
