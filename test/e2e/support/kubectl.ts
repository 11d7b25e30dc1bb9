// Runs real kubectl binaries: the one on PATH and the versioned ones
// (kubectl.1.27 … kubectl.1.33) beside its resolved target.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Kubectl {
  readonly name: string;
  run(args: readonly string[], opts?: { input?: string }): KubectlResult;
}

function whichKubectl(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const candidate = join(dir, 'kubectl');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The kubectl on PATH plus the versioned binaries found beside its target. */
export function kubectlBinaries(versions: readonly string[]): { name: string; path: string }[] {
  const onPath = whichKubectl();
  if (onPath === undefined) return [];
  const dir = dirname(realpathSync(onPath));
  const found = [{ name: 'kubectl', path: onPath }];
  for (const v of versions) {
    const path = join(dir, `kubectl.${v}`);
    if (existsSync(path)) found.push({ name: `kubectl.${v}`, path });
  }
  return found;
}

export function kubectl(binary: { name: string; path: string }, kubeconfig: string): Kubectl {
  // A private cache dir per binary: discovery caches of one version must not feed another.
  const cacheDir = mkdtempSync(join(tmpdir(), `kapi-kubectl-cache-${binary.name}-`));
  return {
    name: binary.name,
    run(args, opts = {}) {
      const res = spawnSync(binary.path, ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, '--request-timeout=20s', ...args], {
        input: opts.input,
        encoding: 'utf8',
        timeout: 60_000,
        // spawnSync's default (1 MiB) cuts a big `get -o json` short (5,000 ConfigMaps are ~2.5 MB).
        maxBuffer: 256 * 1024 * 1024,
        env: { ...process.env, HOME: cacheDir, KUBECONFIG: kubeconfig },
      });
      return { code: res.status ?? -1, stdout: res.stdout ?? '', stderr: res.stderr ?? '' };
    },
  };
}

/** Runs kubectl and answers its stdout; a non-zero exit fails the test with what kubectl said. */
export function ok(k: Kubectl, args: string[], input?: string): string {
  const res = k.run(args, input === undefined ? {} : { input });
  if (res.code !== 0) throw new Error(`${k.name} ${args.join(' ')} failed (${res.code}):\n${res.stderr}\n${res.stdout}`);
  return res.stdout;
}

/**
 * Runs kubectl without blocking the event loop (the server under test may be in
 * this process, or a test issuer must answer kubectl meanwhile), with a private
 * cache dir that is removed afterwards.
 */
export function kubectlAsync(binary: { name: string; path: string }, kubeconfig: string, args: readonly string[]): Promise<KubectlResult> {
  const cache = mkdtempSync(join(tmpdir(), `kapi-kubectl-async-${binary.name}-`));
  return new Promise((done) => {
    execFile(binary.path, ['--kubeconfig', kubeconfig, '--cache-dir', cache, '--request-timeout=20s', ...args], { timeout: 60_000, env: { ...process.env, HOME: cache } }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1;
      rmSync(cache, { recursive: true, force: true });
      done({ code, stdout, stderr });
    });
  });
}
