// The loop every in-process controller runs (kube's informer + workqueue, in
// small): watches that open with one ADDED per existing object (the
// sync-everything-at-start) feed a de-duplicating queue of keys; one worker syncs
// a key at a time; a key queued while it syncs runs again afterwards; a sync that
// asks for it, or fails, is retried with a capped exponential backoff, and a new
// event for a key waiting on a retry syncs it at once and resets its backoff. A
// watch that ends is started again, which resyncs everything it covers.
import type { ResourceDefinition } from '../registry/define-resource.js';
import type { Registry } from '../registry/registry.js';
import type { KubeObject } from '../schema/object.js';
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

export const DEFAULT_RETRY: RetryPolicy = { initialMs: 200, maxMs: 30_000 };

export interface WatchedKind {
  readonly definition: ResourceDefinition;
  /** Watch only objects of this name (all namespaces); the others cost nothing. */
  readonly name?: string;
  /** The queue key an event of this kind concerns; undefined: not ours. */
  readonly keyOf: (obj: KubeObject) => string | undefined;
}

export interface KeyedControllerOptions {
  /** For log lines. */
  readonly name: string;
  readonly registry: Registry;
  readonly logger: ControllerLogger;
  readonly retry?: RetryPolicy;
  readonly watches: readonly WatchedKind[];
  /** Brings one key to its wanted state; 'retry' asks for another try later. */
  readonly sync: (key: string) => Promise<'done' | 'retry'>;
}

export interface RunningController {
  stop(): void;
}

export function runKeyedController(opts: KeyedControllerOptions): RunningController {
  const { logger } = opts;
  const retry = opts.retry ?? DEFAULT_RETRY;
  const queued = new Set<string>();
  const attempts = new Map<string, number>();
  const timers = new Map<string, NodeJS.Timeout>();
  const watches = new Set<StorageWatch>();
  const rewatches = new Set<NodeJS.Timeout>();
  let running = false;
  let stopped = false;

  const enqueue = (key: string, fromEvent: boolean): void => {
    if (stopped) return;
    if (fromEvent) {
      attempts.delete(key);
      clearTimeout(timers.get(key));
      timers.delete(key);
    }
    queued.add(key);
    void drain();
  };

  const retryLater = (key: string): void => {
    if (stopped) return;
    const n = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, n);
    const delay = Math.min(retry.maxMs, retry.initialMs * 2 ** (n - 1));
    clearTimeout(timers.get(key));
    timers.set(key, setTimeout(() => (timers.delete(key), enqueue(key, false)), delay));
  };

  async function drain(): Promise<void> {
    if (running) return;
    running = true;
    try {
      while (!stopped && queued.size > 0) {
        const key = queued.values().next().value as string;
        queued.delete(key);
        try {
          if ((await opts.sync(key)) === 'retry') retryLater(key);
          else attempts.delete(key);
        } catch (err) {
          logger.warn({ controller: opts.name, key, err }, 'controller sync failed; retrying');
          retryLater(key);
        }
      }
    } finally {
      running = false;
    }
  }

  async function startWatch(kind: WatchedKind): Promise<void> {
    try {
      let handle: StorageWatch | undefined;
      handle = await opts.registry.store(kind.definition).watch({
        ...(kind.name === undefined ? {} : { name: kind.name }),
        onEvent: (e) => {
          if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
          const key = kind.keyOf(e.object);
          if (key !== undefined) enqueue(key, true);
        },
        // Expired or broken: start over from a fresh list, which resyncs every key.
        onError: (err) => {
          logger.warn({ controller: opts.name, resource: kind.definition.plural, err }, 'controller watch ended; restarting');
          if (handle !== undefined) watches.delete(handle);
          scheduleRewatch(kind);
        },
      });
      if (stopped) handle.close();
      else watches.add(handle);
    } catch (err) {
      logger.warn({ controller: opts.name, resource: kind.definition.plural, err }, 'controller watch failed to start; retrying');
      scheduleRewatch(kind);
    }
  }

  function scheduleRewatch(kind: WatchedKind): void {
    if (stopped) return;
    const timer = setTimeout(() => {
      rewatches.delete(timer);
      void startWatch(kind);
    }, retry.initialMs);
    rewatches.add(timer);
  }

  for (const kind of opts.watches) void startWatch(kind);
  return {
    stop() {
      stopped = true;
      for (const w of watches) w.close();
      watches.clear();
      for (const t of rewatches) clearTimeout(t);
      rewatches.clear();
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      queued.clear();
    },
  };
}
