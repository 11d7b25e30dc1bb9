// Test helper for the KV conformance suite: records what a watch delivers and
// lets a test wait for a condition with a bound instead of sleeping. It also
// checks the ordering promise on every delivery (strictly increasing revisions),
// so a duplicate or reordering is caught even when the final count looks right.
import type { KV, KvEvent, KvWatch } from '../kv.js';

export interface WatchCollector {
  readonly events: KvEvent[];
  readonly errors: Error[];
  readonly progress: number[];
  /** Deliveries that broke revision order or repeated a revision. */
  readonly violations: string[];
  /** Resolves once `count` events arrived; rejects after `timeoutMs`. */
  waitForEvents(count: number, timeoutMs?: number): Promise<KvEvent[]>;
  /** Resolves once an event at `revision` or later arrived. */
  waitForRevision(revision: number, timeoutMs?: number): Promise<KvEvent[]>;
  waitForError(timeoutMs?: number): Promise<Error>;
  close(): void;
}

export interface CollectWatchOptions {
  readonly afterRevision?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export function collectWatch(kv: KV, prefix: string, opts: CollectWatchOptions = {}): WatchCollector {
  const events: KvEvent[] = [];
  const errors: Error[] = [];
  const progress: number[] = [];
  const violations: string[] = [];
  const waiters = new Set<() => void>();
  const notify = (): void => {
    for (const w of [...waiters]) w();
  };

  const waitUntil = <T>(done: () => T | undefined, what: string, timeoutMs: number): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const value = done();
        if (value === undefined) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`watch ${prefix}: timed out after ${timeoutMs} ms waiting for ${what}; got ${events.length} events, errors: ${errors.map(String).join('; ')}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  const watch: KvWatch = kv.watch(prefix, {
    ...(opts.afterRevision === undefined ? {} : { afterRevision: opts.afterRevision }),
    onEvents: (batch) => {
      for (const e of batch) {
        const last = events[events.length - 1];
        if (last !== undefined && e.revision <= last.revision) {
          violations.push(`revision ${e.revision} delivered after ${last.revision}`);
        }
        events.push(e);
      }
      notify();
    },
    onError: (err) => {
      errors.push(err);
      notify();
    },
    onProgress: (revision) => {
      progress.push(revision);
    },
  });

  return {
    events,
    errors,
    progress,
    violations,
    waitForEvents: (count, timeoutMs = DEFAULT_TIMEOUT_MS) =>
      waitUntil(() => (events.length >= count ? events : undefined), `${count} events`, timeoutMs),
    waitForRevision: (revision, timeoutMs = DEFAULT_TIMEOUT_MS) =>
      waitUntil(
        () => (events.some((e) => e.revision >= revision) ? events : undefined),
        `revision ${revision}`,
        timeoutMs,
      ),
    waitForError: (timeoutMs = DEFAULT_TIMEOUT_MS) =>
      waitUntil(() => errors[0], 'an error', timeoutMs),
    close: () => watch.close(),
  };
}
