// Long-running kubectl processes (get -w, wait): started in the background,
// their stdout and stderr read as they come, so a test waits for the lines it
// expects with a bound instead of sleeping, then kills the process.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExitStatus } from './server.js';

export interface KubectlProcess {
  readonly args: readonly string[];
  stdout(): string;
  stderr(): string;
  /** Resolves with stdout once `match` holds on it; rejects after `ms` or if kubectl exits first. */
  waitForStdout(what: string, match: (stdout: string) => boolean, ms?: number): Promise<string>;
  /** As waitForStdout, on stderr (the `-v=6` request log). */
  waitForStderr(what: string, match: (stderr: string) => boolean, ms?: number): Promise<string>;
  /** Resolves when kubectl has exited and its pipes are drained. */
  readonly exited: Promise<ExitStatus>;
  /** Whether kubectl is still running. */
  running(): boolean;
  /** SIGKILL unless it already exited; resolves once it has. For `finally`. */
  kill(): Promise<ExitStatus>;
}

export interface StreamingKubectl {
  readonly name: string;
  /** `env` adds to the environment, e.g. client-go's `KUBE_FEATURE_<gate>=true`. */
  start(args: readonly string[], env?: Readonly<Record<string, string>>): KubectlProcess;
}

/** One kubectl binary with a private cache dir, as `kubectl()` in kubectl.ts, for background runs. */
export function streamingKubectl(binary: { name: string; path: string }, kubeconfig: string): StreamingKubectl {
  const cacheDir = mkdtempSync(join(tmpdir(), `kapi-kubectl-stream-${binary.name}-`));
  return {
    name: binary.name,
    start: (args, env = {}) => startProcess(binary.path, ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args], { ...env, HOME: cacheDir, KUBECONFIG: kubeconfig }),
  };
}

function startProcess(path: string, args: readonly string[], env: Readonly<Record<string, string>>): KubectlProcess {
  const child = spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (const l of listeners) l();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
    for (const l of listeners) l();
  });
  let status: ExitStatus | undefined;
  const exited = new Promise<ExitStatus>((resolveExit) => {
    child.once('close', (code, signal) => {
      status = { code, signal };
      resolveExit(status);
      for (const l of listeners) l();
    });
  });

  const waitFor = (stream: () => string) => (what: string, match: (text: string) => boolean, ms = 15_000) =>
    new Promise<string>((resolveWait, reject) => {
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      const check = () => {
        if (match(stream())) {
          done();
          resolveWait(stream());
        } else if (status !== undefined) {
          done();
          reject(new Error(`kubectl ${args.join(' ')} exited (${status.code ?? status.signal}) before ${what}\nstdout:\n${out}\nstderr:\n${err}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`kubectl ${args.join(' ')}: ${what} not within ${ms} ms\nstdout:\n${out}\nstderr:\n${err}`));
      }, ms);
      listeners.add(check);
      check();
    });

  return {
    args,
    stdout: () => out,
    stderr: () => err,
    waitForStdout: waitFor(() => out),
    waitForStderr: waitFor(() => err),
    exited,
    running: () => status === undefined,
    kill: () => {
      if (status === undefined) child.kill('SIGKILL');
      return exited;
    },
  };
}

/**
 * True once kubectl's `-v=6` log shows the answer to a watch request; both
 * log formats (1.27's `GET url 200 OK` and 1.33's `"Response" verb="GET"
 * url="…"`) name the URL, and a watch is logged when its headers arrive.
 */
export function watchStarted(stderr: string): boolean {
  return requestUrls(stderr).some((u) => u.searchParams.get('watch') === 'true');
}

/** The URLs of the requests kubectl logged at `-v=6`, in order. */
export function requestUrls(stderr: string): URL[] {
  const urls: URL[] = [];
  for (const line of stderr.split('\n')) {
    const m = /(?:\] GET |verb="GET" url=")(https:\/\/[^\s"]+)/.exec(line);
    if (m !== null) urls.push(new URL(m[1]!));
  }
  return urls;
}

/** The non-empty lines of a table, each split on runs of 2+ spaces. */
export function rows(out: string): string[][] {
  return out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s{2,}/));
}
