// The controllers the control plane runs in-process, started by main.ts after the
// bootstrap objects exist and stopped first on shutdown. They reach objects only
// through the registry's stores (DESIGN: the same client interface as any caller),
// so defaulting, validation, admission and finalizers apply to them too.
// Namespace lifecycle: a watch on namespaces (it opens with one ADDED per existing
// namespace, which is the sync-everything-at-start) feeds a de-duplicating queue;
// ContentRemaining and failures are retried with a capped exponential backoff.
import { createNamespaceController, type NamespaceLifecycleClient } from '../controllers/namespace-lifecycle.js';
import { isStatusError } from '../errors/status-error.js';
import type { ResourceDefinition } from '../registry/define-resource.js';
import type { Registry } from '../registry/registry.js';
import type { StorageWatch } from '../storage/storage.js';

/** The log calls controllers make (pino's (object, message) form). */
export interface ControllerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface RetryPolicy {
  readonly initialMs: number;
  /** The backoff stops growing here; retries go on (kube's rate-limited requeue). */
  readonly maxMs: number;
}

export interface ControllersOptions {
  readonly registry: Registry;
  readonly resources: readonly ResourceDefinition[];
  readonly logger: ControllerLogger;
  readonly retry?: RetryPolicy;
}

export interface RunningControllers {
  stop(): void;
}

const DEFAULT_RETRY: RetryPolicy = { initialMs: 200, maxMs: 30_000 };

function isNotFound(err: unknown): boolean {
  return isStatusError(err) && err.reason === 'NotFound';
}

async function unlessNotFound<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function namespaceClient(registry: Registry, namespaces: ResourceDefinition): NamespaceLifecycleClient {
  const store = registry.store(namespaces);
  const finalize = store.subresource('finalize');
  if (finalize === undefined) throw new Error('namespaces declare no finalize subresource');
  return {
    getNamespace: (name) => unlessNotFound(store.get({ name })),
    list: async (resource, namespace) => (await registry.store(resource).list({ namespace })).items,
    delete: async (resource, namespace, name) => {
      await unlessNotFound(registry.store(resource).delete({ namespace, name }));
    },
    finalize: async (ns) => (await unlessNotFound(finalize.update(ns, { name: ns.metadata.name ?? '' })))?.object,
    deleteNamespace: async (name) => {
      await unlessNotFound(store.delete({ name }));
    },
  };
}

/**
 * One worker over a set of names: a name queued while it is being synced runs
 * again afterwards; a name waiting for a retry is synced at once when an event
 * arrives, which also resets its backoff.
 */
function startNamespaceLifecycle(opts: ControllersOptions & { namespaces: ResourceDefinition }): RunningControllers {
  const { logger } = opts;
  const retry = opts.retry ?? DEFAULT_RETRY;
  const controller = createNamespaceController({ client: namespaceClient(opts.registry, opts.namespaces), resources: opts.resources });
  const queued = new Set<string>();
  const attempts = new Map<string, number>();
  const timers = new Map<string, NodeJS.Timeout>();
  let running = false;
  let stopped = false;
  let watch: StorageWatch | undefined;
  let rewatch: NodeJS.Timeout | undefined;

  const enqueue = (name: string, fromEvent: boolean): void => {
    if (stopped) return;
    if (fromEvent) {
      attempts.delete(name);
      clearTimeout(timers.get(name));
      timers.delete(name);
    }
    queued.add(name);
    void drain();
  };

  const retryLater = (name: string): void => {
    if (stopped) return;
    const n = (attempts.get(name) ?? 0) + 1;
    attempts.set(name, n);
    const delay = Math.min(retry.maxMs, retry.initialMs * 2 ** (n - 1));
    clearTimeout(timers.get(name));
    timers.set(name, setTimeout(() => (timers.delete(name), enqueue(name, false)), delay));
  };

  async function drain(): Promise<void> {
    if (running) return;
    running = true;
    try {
      while (!stopped && queued.size > 0) {
        const name = queued.values().next().value as string;
        queued.delete(name);
        try {
          const result = await controller.sync(name);
          if (result === 'ContentRemaining') retryLater(name);
          else attempts.delete(name);
        } catch (err) {
          logger.warn({ namespace: name, err }, 'namespace lifecycle sync failed; retrying');
          retryLater(name);
        }
      }
    } finally {
      running = false;
    }
  }

  async function startWatch(): Promise<void> {
    try {
      const handle = await opts.registry.store(opts.namespaces).watch({
        onEvent: (e) => {
          const name = e.object.metadata.name;
          if (name !== undefined && e.type !== 'BOOKMARK' && e.type !== 'ERROR') enqueue(name, true);
        },
        // Expired or broken: start over from a fresh list, which resyncs every namespace.
        onError: (err) => {
          logger.warn({ err }, 'namespace watch ended; restarting');
          watch = undefined;
          scheduleRewatch();
        },
      });
      if (stopped) handle.close();
      else watch = handle;
    } catch (err) {
      logger.warn({ err }, 'namespace watch failed to start; retrying');
      scheduleRewatch();
    }
  }

  function scheduleRewatch(): void {
    if (stopped) return;
    clearTimeout(rewatch);
    rewatch = setTimeout(() => void startWatch(), retry.initialMs);
  }

  void startWatch();
  return {
    stop() {
      stopped = true;
      watch?.close();
      clearTimeout(rewatch);
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      queued.clear();
    },
  };
}

export function startControllers(opts: ControllersOptions): RunningControllers {
  const namespaces = opts.resources.find((r) => r.group === '' && r.version === 'v1' && r.plural === 'namespaces');
  const running: RunningControllers[] = [];
  if (namespaces !== undefined) running.push(startNamespaceLifecycle({ ...opts, namespaces }));
  opts.logger.info({ controllers: running.length }, 'controllers started');
  return {
    stop() {
      for (const c of running) c.stop();
    },
  };
}
