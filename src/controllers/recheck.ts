// Timed re-checks for controllers whose objects change state with the clock and
// not with a write (a bootstrap token passing its expiration): kube's
// workqueue.AddAfter, one timer per key. A later request for a key replaces the
// earlier one, and a delay is capped below setTimeout's limit (2^31-1 ms, beyond
// which Node fires at once), so a token that expires next year is looked at again
// daily and its timer set anew. The runner (server/controller-runner.ts) has no
// delayed enqueue, so what a timer runs is serialized with the watch-driven syncs
// by the controller itself (serialized() below).

/** A day: far below setTimeout's limit, so no delay overflows. */
export const MAX_RECHECK_DELAY_MS = 24 * 60 * 60 * 1000;

export interface Rechecks {
  /** run(key) at `at` (now when already past), replacing an earlier request for the key. */
  at(key: string, at: Date): void;
  cancel(key: string): void;
  /** Clears every timer; later requests are ignored. */
  stop(): void;
}

export interface RechecksOptions {
  readonly now: () => Date;
  /** Must not throw; errors are the caller's to log and retry. */
  readonly run: (key: string) => void;
}

export function createRechecks(opts: RechecksOptions): Rechecks {
  const timers = new Map<string, NodeJS.Timeout>();
  let stopped = false;
  const cancel = (key: string): void => {
    clearTimeout(timers.get(key));
    timers.delete(key);
  };
  return {
    at(key, at) {
      if (stopped) return;
      cancel(key);
      const delay = Math.min(MAX_RECHECK_DELAY_MS, Math.max(0, at.getTime() - opts.now().getTime()));
      const timer = setTimeout(() => {
        timers.delete(key);
        opts.run(key);
      }, delay);
      // A pending re-check never keeps the process alive on its own.
      timer.unref();
      timers.set(key, timer);
    },
    cancel,
    stop() {
      stopped = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    },
  };
}

/** One call at a time: a timer's sync and the runner's never interleave their read-modify-writes. */
export function serialized<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  let tail: Promise<unknown> = Promise.resolve();
  return (...args) => {
    const run = tail.then(() => fn(...args));
    tail = run.catch(() => undefined);
    return run;
  };
}
