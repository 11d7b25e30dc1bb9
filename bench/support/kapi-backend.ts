// Starts a compiled kapi on a named storage backend for the watch-cache benches:
// SQLite in its data dir, or a private etcd (bench/support/etcd-process.ts) that
// stops with it. Both run with the watch cache as shipped (no flags beyond the
// backend's), so the figures are the server's as a user starts it.
import { etcdAvailable, startEtcd } from './etcd-process.js';
import { startKapiProcess, type KapiProcess } from './kapi-process.js';

export type Backend = 'sqlite' | 'etcd';

export interface KapiOnBackend {
  readonly kapi: KapiProcess;
  readonly backend: Backend;
  /** Stops kapi, then its etcd. */
  stop(): Promise<void>;
}

/**
 * The backends to run: etcd only when its binary is on PATH; KAPI_BENCH_BACKENDS
 * (comma-separated, e.g. `etcd`) narrows them for a rerun of one.
 */
export function availableBackends(): Backend[] {
  const wanted = process.env.KAPI_BENCH_BACKENDS?.split(',').map((b) => b.trim());
  const all: Backend[] = ['sqlite', 'etcd'];
  return all.filter((b) => {
    if (wanted !== undefined && !wanted.includes(b)) return false;
    if (b === 'etcd' && !etcdAvailable()) {
      process.stderr.write('bench: no etcd binary, etcd rows skipped\n');
      return false;
    }
    return true;
  });
}

export async function startKapiOn(backend: Backend, args: readonly string[] = []): Promise<KapiOnBackend> {
  if (backend === 'sqlite') {
    const kapi = await startKapiProcess(args);
    return { kapi, backend, stop: () => kapi.stop() };
  }
  const etcd = await startEtcd();
  try {
    const kapi = await startKapiProcess(['--storage-backend=etcd3', `--etcd-servers=${etcd.endpoint}`, ...args]);
    return {
      kapi,
      backend,
      async stop() {
        try {
          await kapi.stop();
        } finally {
          await etcd.stop();
        }
      },
    };
  } catch (err) {
    await etcd.stop();
    throw err;
  }
}
