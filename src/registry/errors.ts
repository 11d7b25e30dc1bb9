// Storage failures become Kubernetes Status errors here, once per verb, so no
// backend wording reaches a client (STYLE §5). Messages follow apimachinery's
// registry/generic/registry/storage_factory & storage/errors interpretation:
// Compacted -> 410 Expired "too old resource version", FutureRevision -> 504 Timeout
// with cause ResourceVersionTooLarge (clients retry it), PreconditionFailed -> 409
// Conflict quoting storage's error as kube's InterpretDeleteError/InterpretUpdateError do.
import { isStorageError, type StorageError } from '../errors/storage-error.js';
import {
  alreadyExists,
  badRequest,
  conflict,
  expired,
  internal,
  notFound,
  serviceUnavailable,
  timeout,
  type StatusError,
} from '../errors/status-error.js';
import type { GroupResource } from '../schema/object.js';

export type StoreOperation = 'get' | 'list' | 'create' | 'update' | 'delete' | 'watch';

export interface TranslateOptions {
  readonly operation: StoreOperation;
  readonly resource: GroupResource;
  /** The object name ('' for lists). */
  readonly name: string;
  /** The resourceVersion the client asked for, quoted back in 410/504 messages. */
  readonly resourceVersion?: string;
}

/** kube: `Timeout: Too large resource version: 900, current: 12`, retry after 1 s. */
export function tooLargeResourceVersion(requested: string, current: number | string | undefined): StatusError {
  return timeout(`Too large resource version: ${requested}, current: ${current ?? ''}`, [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], 1);
}

/**
 * kube's storage.StorageError text for an ErrCodeInvalidObj (code 4), which is
 * what a failed precondition is there. The key is the etcd key, under the default
 * --etcd-prefix; the KV adds the prefix below the object store, which never sees it.
 */
function preconditionText(err: StorageError): string {
  return `StorageError: invalid object, Code: 4, Key: /registry${err.key ?? ''}, ResourceVersion: 0, AdditionalErrorMsg: ${err.message}`;
}

/** The version kube's 410 and 504 quote: the one storage tried (a continue token's), else the request's. */
function requestedVersion(err: StorageError, opts: TranslateOptions): string {
  return err.requested === undefined ? (opts.resourceVersion ?? '') : String(err.requested);
}

function fromStorageError(err: StorageError, opts: TranslateOptions): StatusError {
  switch (err.code) {
    case 'NotFound':
      return notFound(opts.resource, opts.name);
    case 'Exists':
      return alreadyExists(opts.resource, opts.name);
    case 'Conflict':
      return conflict(opts.resource, opts.name);
    case 'PreconditionFailed':
      return conflict(opts.resource, opts.name, preconditionText(err));
    case 'Compacted':
      return expired(`too old resource version: ${requestedVersion(err, opts)} (${err.revision ?? ''})`);
    case 'FutureRevision':
      return tooLargeResourceVersion(requestedVersion(err, opts), err.revision);
    case 'Unavailable':
      return serviceUnavailable(err.message);
    case 'InvalidObject':
      return internal(err);
    default:
      // BadRequest: a malformed resourceVersion or continue token; storage words it as kube does.
      return badRequest(err.message);
  }
}

/** Translates a StorageError; StatusErrors pass through; anything else is rethrown as is. */
export function translateStorageError(err: unknown, opts: TranslateOptions): unknown {
  return isStorageError(err) ? fromStorageError(err, opts) : err;
}
