// The object-level storage contract the registry uses. One implementation
// (object-store.ts) serves it over any KV; cacher/ decorates it with the same
// contract, serving reads and watches from memory. Objects go in without metadata.resourceVersion and come out with
// it set to the revision that last wrote them; list results carry the revision they
// were read at. Errors are StorageError (errors/storage-error.ts) only.
import { StorageError } from '../errors/storage-error.js';
import type { KubeObject } from '../schema/object.js';

/** Kubernetes' resourceVersionMatch for list and get. */
export type ResourceVersionMatch = 'NotOlderThan' | 'Exact';

export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/**
 * The one check of delete and update preconditions, against the state a write
 * would replace, by every Storage (object-store/ and the registry's dry-run
 * view). Throws PreconditionFailed with kube's storage.Preconditions.Check text
 * word for word: clients and tests grep it, and the registry answers 409 Conflict
 * with it. An absent object (create on update) is checked as kube checks its zero
 * value: empty uid and resourceVersion.
 */
export function checkPreconditions(key: string, pre: Preconditions | undefined, obj: KubeObject | undefined): void {
  if (pre === undefined) return;
  const uid = obj?.metadata.uid ?? '';
  if (pre.uid !== undefined && pre.uid !== uid) {
    throw new StorageError('PreconditionFailed', `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid}`, { key });
  }
  const rv = obj?.metadata.resourceVersion ?? '';
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== rv) {
    const why = `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${rv}`;
    throw new StorageError('PreconditionFailed', why, { key });
  }
}

/** Decides which objects a list or watch returns (label and field selectors). */
export type ObjectPredicate = (obj: KubeObject) => boolean;

export interface StorageGetOptions {
  /** "" or absent: latest. "0": any (latest here). "N": as of N with match Exact, at least N otherwise. */
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: ResourceVersionMatch;
}

export interface StorageListOptions {
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: ResourceVersionMatch;
  readonly limit?: number;
  /** The opaque continue token of a previous page. Expired token -> Compacted. */
  readonly continue?: string;
  readonly predicate?: ObjectPredicate;
}

export interface StorageListResult {
  readonly items: KubeObject[];
  readonly resourceVersion: string;
  /** Set when more items may follow; pass back as `continue`. */
  readonly continue?: string;
  /** Objects after this page (only when known cheaply and no predicate was given). */
  readonly remainingItemCount?: number;
  /**
   * Optional (additive, #11): the storage key of each item, in the same order.
   * The watch cache (cacher/) needs keys to index what it lists; a store that
   * knows them reports them.
   */
  readonly keys?: readonly string[];
}

export interface UpdateContext {
  /** The object as stored now, with resourceVersion set; frozen, clone before changing. */
  readonly current: KubeObject | undefined;
}

export interface GuaranteedUpdateOptions {
  /** Checked against every current object before tryUpdate sees it; PreconditionFailed when one does not hold. */
  readonly preconditions?: Preconditions;
  /** When the key is absent: call tryUpdate with current undefined (create-on-update). */
  readonly allowCreate?: boolean;
  /**
   * Computes the next object from the current one. Called again with a fresh
   * current on a lost race; it must be free of side effects. Throwing aborts.
   * Returning the same resourceVersion'd object unchanged skips the write.
   */
  readonly tryUpdate: (ctx: UpdateContext) => KubeObject | Promise<KubeObject>;
  /**
   * Optional (additive, #11): the object as the watch cache holds it (frozen,
   * resourceVersion set), kube's cachedExistingObject. The first attempt starts
   * from it without reading the backend; it may be behind, so a failed
   * precondition, a tryUpdate error or a no-op found against it is only
   * answered once a read of the backend confirms it (kube's origStateIsCurrent).
   */
  readonly cachedExisting?: KubeObject;
}

export interface GuaranteedUpdateResult {
  readonly object: KubeObject;
  readonly created: boolean;
}

export interface StorageDeleteOptions {
  /** Checked against the object about to be deleted, before validateDeletion; PreconditionFailed when one does not hold. */
  readonly preconditions?: Preconditions;
  /** Last check before the delete commits, with the object about to be deleted (preconditions already hold). */
  readonly validateDeletion?: (current: KubeObject) => void | Promise<void>;
  /**
   * Optional (additive, #11): the watch cache's copy of the object, as for
   * guaranteedUpdate: checked first without a read; a refusal of it is confirmed
   * by a read before it is answered.
   */
  readonly cachedExisting?: KubeObject;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface StorageWatchEvent {
  readonly type: WatchEventType;
  /**
   * The object (DELETED: its last state with the deleting revision as resourceVersion).
   * Deep-frozen and shared by every watcher of the event (their framers memoize its
   * encoding on it): clone before changing it.
   */
  readonly object: KubeObject;
  /** Optional (additive, #11): the storage key of the object that changed, when the store knows it. */
  readonly key?: string;
}

export interface StorageWatchOptions {
  /**
   * kube's watch table: "" / absent first sends the current state as ADDED events
   * (only objects the key filter and predicate accept), then every later change
   * ("Get State and Start at Most Recent"); "0" the same from any recent state
   * ("Start at Any": a cache may serve the state it has). "N": every change after
   * N, no state ("Start at Exact"); N past the current revision waits for it, as
   * kube's watch does. Too old -> onError(Compacted). Malformed -> throws BadRequest.
   */
  readonly resourceVersion?: string;
  /**
   * false: ""/"0" send no state and start at the most recent revision (""), or at
   * any (kube's sendInitialEvents=false). Ignored with "N".
   */
  readonly sendInitialEvents?: boolean;
  /** A change that makes an object stop matching is delivered as DELETED, start matching as ADDED. */
  readonly predicate?: ObjectPredicate;
  /**
   * Only changes of keys it accepts are decoded and delivered. Cheaper than a
   * predicate for what the key alone decides (one name across namespaces): the
   * other events are dropped before their bytes are decoded.
   */
  readonly keyFilter?: (key: string) => boolean;
  readonly onEvent: (event: StorageWatchEvent) => void;
  readonly onError: (err: Error) => void;
  /** Called when every change up to resourceVersion has been delivered (for bookmarks). */
  readonly onProgress?: (resourceVersion: string) => void;
}

export interface StorageWatch {
  close(): void;
}

export interface Storage {
  /** Throws Exists. Returns the stored object with resourceVersion set. */
  create(key: string, obj: KubeObject): Promise<KubeObject>;
  /**
   * Throws NotFound (also when absent at the requested revision). The answer is
   * deep-frozen and may be the very object other readers of the same stored
   * version get (STYLE §10: shared objects are frozen; clone before changing).
   */
  get(key: string, opts?: StorageGetOptions): Promise<KubeObject>;
  /** Lists keys under a prefix ending in "/". */
  list(prefix: string, opts?: StorageListOptions): Promise<StorageListResult>;
  /** Throws NotFound (absent and no allowCreate), PreconditionFailed, or whatever tryUpdate throws. */
  guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions): Promise<GuaranteedUpdateResult>;
  /** Returns the deleted object. Throws NotFound, PreconditionFailed, or whatever validateDeletion throws. */
  delete(key: string, opts?: StorageDeleteOptions): Promise<KubeObject>;
  watch(prefix: string, opts: StorageWatchOptions): StorageWatch;
  count(prefix: string): Promise<number>;
  currentResourceVersion(): Promise<string>;
  /** For readiness: resolves when the backend answers, rejects with Unavailable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
