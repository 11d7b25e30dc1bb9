// Translates etcd3/grpc failures into StorageError codes, and says which failures
// are safe to retry. Above this file nothing sees a grpc error: a compacted or
// future revision, an unreachable cluster and a lost leader all arrive as the
// codes of src/errors/storage-error.ts.
import {
  ClientClosedError,
  GRPCAbortedError,
  GRPCCancelledError,
  GRPCDeadlineExceededError,
  GRPCOutOfRangeError,
  GRPCUnavailableError,
} from 'etcd3';
import { StorageError } from '../../errors/storage-error.js';

/** Thrown by our own host policy while a host's breaker is open (see policy.ts). */
export class HostUnavailableError extends Error {
  override readonly name = 'HostUnavailableError';
}

// Messages etcd puts on errors that mean "try again later", whatever grpc code
// carries them (v3rpc/rpctypes in etcd: leader changes, timeouts, no leader).
const transientEtcdMessages = [
  'etcdserver: leader changed',
  'etcdserver: no leader',
  'etcdserver: request timed out',
  'etcdserver: too many requests',
  'etcdserver: server stopped',
  'etcdserver: not capable',
];

/** The etcd failures that StorageError 'Unavailable' stands for. */
export function isUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (
    err instanceof GRPCUnavailableError ||
    err instanceof GRPCDeadlineExceededError ||
    err instanceof GRPCAbortedError ||
    err instanceof GRPCCancelledError ||
    err instanceof HostUnavailableError ||
    err instanceof ClientClosedError ||
    err.name === 'BrokenCircuitError'
  ) {
    return true;
  }
  return transientEtcdMessages.some((m) => err.message.includes(m));
}

/**
 * True when the request certainly never reached etcd, so even a write may be
 * sent again: our breaker refused it, or grpc had no connection to send it on.
 * A write that failed after being sent is ambiguous (it may have committed) and
 * is never retried here, as etcd's own clientv3 does for non-repeatable calls.
 */
export function isNeverSent(err: unknown): boolean {
  if (err instanceof HostUnavailableError) return true;
  if (err instanceof Error && err.name === 'BrokenCircuitError') return true;
  return err instanceof GRPCUnavailableError && err.message.includes('No connection established');
}

export function isCompactedError(err: unknown): boolean {
  return err instanceof GRPCOutOfRangeError && err.message.includes('required revision has been compacted');
}

export function isFutureRevisionError(err: unknown): boolean {
  return err instanceof GRPCOutOfRangeError && err.message.includes('required revision is a future revision');
}

/**
 * Maps a failure to StorageError where a code exists; anything else (a request
 * too large, a permission problem) is rethrown unchanged so it surfaces as an
 * internal error with etcd's own message.
 */
export function toStorageError(err: unknown, key?: string): unknown {
  if (err instanceof StorageError) return err;
  if (isUnavailable(err)) {
    return new StorageError('Unavailable', `etcd unavailable: ${(err as Error).message}`, { key, cause: err });
  }
  return err;
}
