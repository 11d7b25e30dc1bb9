// Starts a private etcd for tests and benchmarks: free loopback ports, a unique
// temp data dir, health polled with a bound, everything removed on stop. It lives
// under bench/ (not test/) because tsconfig.build.json compiles only src and bench,
// and the bench must not import vitest; test/support/etcd.ts re-exports it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get as httpGet, type RequestOptions } from 'node:http';
import { get as httpsGet } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EtcdTls {
  /** Server certificate and key (PEM files); the client URL becomes https. */
  readonly certFile: string;
  readonly keyFile: string;
  /** When set, etcd requires client certificates signed by this CA. */
  readonly trustedCaFile?: string;
  /** Client pair for the health probe; defaults to the server pair. */
  readonly clientCertFile?: string;
  readonly clientKeyFile?: string;
}

export interface StartEtcdOptions {
  readonly tls?: EtcdTls;
  /** Bound on waiting for etcd to answer /health after each (re)start. */
  readonly startTimeoutMs?: number;
  /** Extra command-line flags, e.g. ['--quota-backend-bytes=...']. */
  readonly extraArgs?: readonly string[];
}

export interface EtcdProcess {
  /** Client URL, http://127.0.0.1:P (https with tls). */
  readonly endpoint: string;
  readonly dataDir: string;
  /** Stops etcd (SIGTERM, then SIGKILL after a bound) and removes the data dir. */
  stop(): Promise<void>;
  /** Stops etcd and starts it again on the same ports and data dir. */
  restart(): Promise<void>;
  /** Stops etcd, keeping its ports and data dir for resume(): an outage. */
  pause(): Promise<void>;
  /** Starts a paused etcd again. */
  resume(): Promise<void>;
}

/** True when an `etcd` binary is on PATH. */
export function etcdAvailable(): boolean {
  const found = spawnSync('etcd', ['--version'], { stdio: 'ignore' });
  return found.error === undefined && found.status === 0;
}

export async function startEtcd(opts: StartEtcdOptions = {}): Promise<EtcdProcess> {
  const clientPort = await freePort();
  let peerPort = await freePort();
  // The OS may hand the just-released port out again; two must differ.
  while (peerPort === clientPort) peerPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kapi-etcd-'));
  const name = `kapi-${process.pid}-${clientPort}`;
  const scheme = opts.tls === undefined ? 'http' : 'https';
  const endpoint = `${scheme}://127.0.0.1:${clientPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  const args = [
    `--name=${name}`,
    `--data-dir=${dataDir}`,
    `--listen-client-urls=${endpoint}`,
    `--advertise-client-urls=${endpoint}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=${name}=${peerUrl}`,
    `--initial-cluster-state=new`,
    // A test etcd has nothing to protect against a crash of the machine; fsync
    // on every write would only slow the suite on a shared disk.
    '--unsafe-no-fsync',
    '--log-level=error',
    ...tlsArgs(opts.tls),
    ...(opts.extraArgs ?? []),
  ];
  const timeoutMs = opts.startTimeoutMs ?? 20_000;
  let child = await launch({ args, endpoint, tls: opts.tls, timeoutMs });
  let stopped = false;

  return {
    endpoint,
    dataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await terminate(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
    async restart() {
      if (stopped) throw new Error('etcd: restart after stop');
      await terminate(child);
      child = await launch({ args, endpoint, tls: opts.tls, timeoutMs });
    },
    async pause() {
      if (stopped) throw new Error('etcd: pause after stop');
      await terminate(child);
    },
    async resume() {
      if (stopped) throw new Error('etcd: resume after stop');
      child = await launch({ args, endpoint, tls: opts.tls, timeoutMs });
    },
  };
}

function tlsArgs(tls: EtcdTls | undefined): string[] {
  if (tls === undefined) return [];
  const args = [`--cert-file=${tls.certFile}`, `--key-file=${tls.keyFile}`];
  if (tls.trustedCaFile !== undefined) {
    args.push(`--trusted-ca-file=${tls.trustedCaFile}`, '--client-cert-auth');
  }
  return args;
}

async function launch(opts: {
  args: readonly string[];
  endpoint: string;
  tls: EtcdTls | undefined;
  timeoutMs: number;
}): Promise<ChildProcess> {
  const child = spawn('etcd', opts.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    // Keep only the tail: enough to explain a failed start.
    stderr = (stderr + chunk).slice(-4000);
  });
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `etcd exited (code ${code}, signal ${signal}): ${stderr}`;
  });
  child.once('error', (err) => {
    exited = `etcd failed to start: ${err.message}`;
  });
  const deadline = Date.now() + opts.timeoutMs;
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new Error(exited);
    if (await healthy(opts.endpoint, opts.tls)) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`etcd at ${opts.endpoint} not healthy within ${opts.timeoutMs} ms: ${stderr}`);
}

// etcd's /health answers {"health":"true"} once the member has a leader and can
// serve. With TLS the probe presents the server's own pair as a client
// certificate (enough for --client-cert-auth with certificates that carry no
// extended key usage, as the tests make them) unless a client pair is given.
async function healthy(endpoint: string, tls: EtcdTls | undefined): Promise<boolean> {
  const url = new URL('/health', endpoint);
  const options: RequestOptions = { timeout: 1000 };
  if (tls !== undefined) {
    Object.assign(options, {
      ca: tls.trustedCaFile === undefined ? undefined : readFileSync(tls.trustedCaFile),
      rejectUnauthorized: tls.trustedCaFile !== undefined,
      cert: readFileSync(tls.clientCertFile ?? tls.certFile),
      key: readFileSync(tls.clientKeyFile ?? tls.keyFile),
    });
  }
  const get = tls === undefined ? httpGet : httpsGet;
  return new Promise((resolve) => {
    const req = get(url, options, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(res.statusCode === 200 && body.includes('"health":"true"')));
    });
    // Not listening yet (ECONNREFUSED) or not ready: the caller polls again.
    req.once('error', () => resolve(false));
    req.once('timeout', () => req.destroy());
  });
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
