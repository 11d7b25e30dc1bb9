// Typed storage failures. Backends throw only these; the registry translates each
// code once per verb into a Kubernetes Status (NotFound -> 404, Exists -> 409,
// Conflict -> 409, PreconditionFailed -> 409 with the precondition's text,
// Compacted -> 410 Expired, FutureRevision -> 504 Timeout, Unavailable -> 503/500,
// BadRequest -> 400), so no backend detail reaches the wire.
//
// errors/ sits below storage/ (.dependency-cruiser.cjs), so the entry a Conflict
// carries is named here by its shape; storage/kv.ts's KvEntry has the same fields and
// the compiler keeps the two in step (a backend passes a KvEntry, object-store's
// retry reads one back).

/** The stored entry a lost race found: storage/kv.ts's KvEntry. */
export interface StorageErrorEntry {
  readonly key: string;
  readonly value: Uint8Array;
  readonly createRevision: number;
  readonly modRevision: number;
}

export type StorageErrorCode =
  | 'NotFound'
  | 'Exists'
  | 'Conflict'
  // A caller's uid or resourceVersion precondition did not hold for the stored
  // object (storage.ts checkPreconditions; kube's ErrCodeInvalidObj from
  // Preconditions.Check). Unlike Conflict, retrying cannot help: it is final.
  | 'PreconditionFailed'
  | 'Compacted'
  | 'FutureRevision'
  | 'Unavailable'
  | 'InvalidObject'
  // The request itself is malformed: a bad continue token, a resourceVersion that
  // is not a number, a resourceVersion given together with continue. kube's
  // storage answers these with 400 BadRequest and the same messages.
  | 'BadRequest';

export interface StorageErrorOptions {
  readonly key?: string;
  /** Conflict: the entry as it is now, so a retry loop needs no extra read. */
  readonly current?: StorageErrorEntry;
  /** Compacted: the oldest revision still available. FutureRevision: the current one. */
  readonly revision?: number;
  /**
   * Compacted, FutureRevision: the revision that was asked for, where the storage
   * knows it (a continue token's, say, which the request's resourceVersion is not).
   */
  readonly requested?: number;
  readonly cause?: unknown;
}

export class StorageError extends Error {
  readonly code: StorageErrorCode;
  readonly key: string | undefined;
  readonly current: StorageErrorEntry | undefined;
  readonly revision: number | undefined;
  readonly requested: number | undefined;

  constructor(code: StorageErrorCode, message: string, opts: StorageErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'StorageError';
    this.code = code;
    this.key = opts.key;
    this.current = opts.current;
    this.revision = opts.revision;
    this.requested = opts.requested;
  }
}

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}
