// The loop every in-process controller runs (kube's informer + workqueue, in
// small). Per watched kind, a reflector: one list served by the watch cache
// (resourceVersion "0", kube's "Any") queues the key of every object, then a watch
// from that list's resourceVersion queues the key of every change. Because the
// watch names a version, it replays nothing itself, whether or not a watch opened
// at ""/"0" would start with the current state. A watch that ends is started
// again by a fresh list (at once after 410 Expired, kube's relist; else after a
// backoff); the keys of objects that went while no watch was open are queued too
// (kube's Replace delivering their deletion).
//
// The queue de-duplicates keys; one worker syncs a key at a time; a key queued
// while it syncs runs again afterwards. A sync answers 'done', 'retry' (or
// throws: a capped exponential backoff, kube's rate-limited requeue) or
// { after: ms } (kube's AddAfter: the key syncs again then, for state that changes
// with the clock rather than with a write). A key has at most one timer, and each
// sync's answer replaces it; a new event for the key syncs it at once, clears its
// timer and resets its backoff (the sync it causes decides anew).
import { isStatusError } from '../errors/status-error.js';
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

/**
 * The longest delay a sync's `after` waits (a day). setTimeout fires at once past
 * 2^31-1 ms, so a token expiring next year is looked at daily and the sync asks
 * again.
 */
export const MAX_REQUEUE_DELAY_MS = 24 * 60 * 60 * 1000;

/** What a sync answers: finished, try again with the backoff, or look again after `after` ms. */
export type SyncResult = 'done' | 'retry' | { readonly after: number };

/** `{ after }` until `at` (at once when already past); 'done' when there is no time to wait for. */
export function requeueAt(at: Date | undefined, now: Date): SyncResult {
  return at === undefined ? 'done' : { after: Math.max(0, at.getTime() - now.getTime()) };
}

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
  /** Brings one key to its wanted state. */
  readonly sync: (key: string) => Promise<SyncResult>;
}

export interface RunningController {
  stop(): void;
}

/** One watched kind's reflector state. */
interface Reflector {
  readonly kind: WatchedKind;
  /** The key of every object seen (by namespace/name) that has one: what a relist compares against. */
  known: Map<string, string>;
  /** Restarts in a row that saw no event: the backoff of the next. */
  failures: number;
  handle?: StorageWatch;
  timer?: NodeJS.Timeout;
}

const objectId = (obj: KubeObject): string => `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;

function delayOf(after: number): number {
  if (Number.isNaN(after)) return 0;
  return Math.min(MAX_REQUEUE_DELAY_MS, Math.max(0, after));
}

export function runKeyedController(opts: KeyedControllerOptions): RunningController {
  const { logger } = opts;
  const retry = opts.retry ?? DEFAULT_RETRY;
  const queued = new Set<string>();
  const attempts = new Map<string, number>();
  const timers = new Map<string, NodeJS.Timeout>();
  const reflectors = opts.watches.map((kind): Reflector => ({ kind, known: new Map(), failures: 0 }));
  let running = false;
  let stopped = false;

  const clearTimer = (key: string): void => {
    clearTimeout(timers.get(key));
    timers.delete(key);
  };

  const enqueue = (key: string, fromEvent: boolean): void => {
    if (stopped) return;
    if (fromEvent) {
      attempts.delete(key);
      clearTimer(key);
    }
    queued.add(key);
    void drain();
  };

  const later = (key: string, delay: number): void => {
    if (stopped) return;
    clearTimer(key);
    const timer = setTimeout(() => (timers.delete(key), enqueue(key, false)), delay);
    // A waiting key never keeps the process alive on its own.
    timer.unref();
    timers.set(key, timer);
  };

  const backoff = (n: number): number => Math.min(retry.maxMs, retry.initialMs * 2 ** (n - 1));

  const retryLater = (key: string): void => {
    const n = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, n);
    later(key, backoff(n));
  };

  async function drain(): Promise<void> {
    if (running) return;
    running = true;
    try {
      while (!stopped && queued.size > 0) {
        const key = queued.values().next().value as string;
        queued.delete(key);
        try {
          const result = await opts.sync(key);
          if (result === 'retry') {
            retryLater(key);
            continue;
          }
          attempts.delete(key);
          if (result === 'done') clearTimer(key);
          else later(key, delayOf(result.after));
        } catch (err) {
          logger.warn({ controller: opts.name, key, err }, 'controller sync failed; retrying');
          retryLater(key);
        }
      }
    } finally {
      running = false;
    }
  }

  const onObject = (r: Reflector, obj: KubeObject, deleted: boolean): void => {
    const id = objectId(obj);
    const key = r.kind.keyOf(obj);
    if (deleted || key === undefined) r.known.delete(id);
    else r.known.set(id, key);
    if (key !== undefined) enqueue(key, true);
  };

  async function reflect(r: Reflector): Promise<void> {
    const { kind } = r;
    const store = opts.registry.store(kind.definition);
    try {
      const named = kind.name;
      // "0": whatever state the watch cache holds (the backend's latest without one).
      const listed = await store.list({ resourceVersion: '0', ...(named === undefined ? {} : { predicate: (o: KubeObject) => o.metadata.name === named }) });
      if (stopped) return;
      const previous = r.known;
      r.known = new Map();
      for (const obj of listed.items) onObject(r, obj, false);
      for (const [id, key] of previous) if (!r.known.has(id)) enqueue(key, true);
      const handle = await store.watch({
        resourceVersion: listed.metadata.resourceVersion ?? '',
        ...(named === undefined ? {} : { name: named }),
        onEvent: (e) => {
          if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
          r.failures = 0;
          onObject(r, e.object, e.type === 'DELETED');
        },
        onError: (err) => {
          r.handle = undefined;
          restart(r, err);
        },
      });
      if (stopped) handle.close();
      else r.handle = handle;
    } catch (err) {
      restart(r, err);
    }
  }

  /** Lists and watches again: at once after the first 410 in a row, else after the backoff. */
  function restart(r: Reflector, err: unknown): void {
    if (stopped) return;
    r.failures += 1;
    const expired = isStatusError(err) && err.reason === 'Expired';
    const log = { controller: opts.name, resource: r.kind.definition.plural, err };
    if (expired) logger.info(log, 'controller watch expired; re-listing');
    else logger.warn(log, 'controller watch ended; re-listing');
    const delay = expired && r.failures === 1 ? 0 : backoff(r.failures);
    r.timer = setTimeout(() => {
      r.timer = undefined;
      void reflect(r);
    }, delay);
  }

  for (const r of reflectors) void reflect(r);
  return {
    stop() {
      stopped = true;
      for (const r of reflectors) {
        r.handle?.close();
        r.handle = undefined;
        clearTimeout(r.timer);
      }
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      queued.clear();
    },
  };
}
