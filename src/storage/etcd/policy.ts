// The etcd3 client's fault handling, configured on purpose. Its default (three
// global retries of any "recoverable" error, and a per-host breaker that opens for
// 5 s after three consecutive ones) counts a RESOURCE_EXHAUSTED reply — one
// oversized response — as a host failure: retried three times, it opened the
// breaker and the next, valid request was refused. Here only connection-level
// failures (UNAVAILABLE) count against a host, any answer from etcd closes the
// breaker again, and it half-opens after a short pause. Retries live in the KV
// (client.ts) where we know whether a request is safe to repeat.
import { GRPCUnavailableError, type IOptions } from 'etcd3';
import { HostUnavailableError } from './errors.js';

type FaultHandling = NonNullable<IOptions['faultHandling']>;
/** cockatiel's IPolicy as etcd3 expects it, named without importing cockatiel. */
export type EtcdPolicy = NonNullable<FaultHandling['global']>;

export interface HostBreakerOptions {
  /** Consecutive connection failures that open the breaker. */
  readonly failureThreshold: number;
  /** How long an open breaker refuses calls before letting one probe through. */
  readonly halfOpenAfterMs: number;
  readonly now?: () => number;
}

type BreakerState = 'closed' | 'open' | 'half-open';

// etcd3 only calls execute(); the events exist to satisfy cockatiel's interface.
const noEvent = () => ({ dispose: () => undefined });

// The signal handed to calls when etcd3 gives none. Nothing aborts it, so one is
// shared: an AbortController per call was measurable on the hot path.
const NEVER_ABORTED = new AbortController().signal;

/**
 * Per-host breaker. While open, calls fail at once with HostUnavailableError,
 * which the etcd3 pool treats as "blocked" and answers by trying the next host,
 * so a dead member of a cluster costs nothing after a few failures.
 */
export function createHostBreaker(opts: HostBreakerOptions): EtcdPolicy {
  const now = opts.now ?? Date.now;
  let state: BreakerState = 'closed';
  let failures = 0;
  let openUntil = 0;
  let probing = false;

  const execute = async <T>(
    fn: (context: { signal: AbortSignal }) => PromiseLike<T> | T,
    signal?: AbortSignal,
  ): Promise<T> => {
    if (state === 'open' && now() >= openUntil) state = 'half-open';
    if (state === 'open' || (state === 'half-open' && probing)) {
      throw new HostUnavailableError('etcd host breaker is open after repeated connection failures');
    }
    const isProbe = state === 'half-open';
    if (isProbe) probing = true;
    try {
      const result = await fn({ signal: signal ?? NEVER_ABORTED });
      state = 'closed';
      failures = 0;
      return result;
    } catch (err) {
      if (err instanceof GRPCUnavailableError) {
        failures++;
        if (isProbe || failures >= opts.failureThreshold) {
          state = 'open';
          openUntil = now() + opts.halfOpenAfterMs;
        }
      } else {
        // etcd answered (with an error of its own): the host is reachable.
        state = 'closed';
        failures = 0;
      }
      throw err;
    } finally {
      if (isProbe) probing = false;
    }
  };
  return { execute, onSuccess: noEvent, onFailure: noEvent } as unknown as EtcdPolicy;
}

/** The global slot: no retries there; client.ts retries per request kind. */
export function createPassThrough(): EtcdPolicy {
  const execute = async <T>(fn: (context: { signal: AbortSignal }) => PromiseLike<T> | T, signal?: AbortSignal) =>
    fn({ signal: signal ?? NEVER_ABORTED });
  return { execute, onSuccess: noEvent, onFailure: noEvent } as unknown as EtcdPolicy;
}
