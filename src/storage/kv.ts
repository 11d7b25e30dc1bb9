// The byte-level storage contract: keys, opaque values and one global revision.
// Everything above storage/ talks to a KV only through object-store.ts; backends
// (sqlite/, etcd/, memory/) implement this file and nothing else. Revisions are
// strictly increasing integers shared by every key of one backend; a write's
// revision becomes the object's resourceVersion.

export interface KvEntry {
  readonly key: string;
  /** Read-only: a backend may hand the same bytes to several readers (sqlite/latest-cache.ts). */
  readonly value: Uint8Array;
  /** Revision of the write that created this incarnation of the key. */
  readonly createRevision: number;
  /** Revision of the last write of this key. */
  readonly modRevision: number;
}

export interface KvGetOptions {
  /** Read as of this revision (0 or absent: latest). Throws Compacted/FutureRevision carrying it as `requested`. */
  readonly revision?: number;
}

export interface KvListOptions {
  /** Read as of this revision (0 or absent: latest). Throws Compacted/FutureRevision carrying it as `requested`. */
  readonly revision?: number;
  /** At most this many entries (0 or absent: all). */
  readonly limit?: number;
  /** Start strictly after this key (the last key of the previous page). */
  readonly after?: string;
}

export interface KvListResult {
  /** Entries in ascending key order. */
  readonly entries: readonly KvEntry[];
  /** The revision the list was read at: the latest one when none was asked for. */
  readonly revision: number;
  /** True when keys after the last returned one exist at that revision. */
  readonly more: boolean;
  /**
   * Optional: how many keys follow the last returned one at that revision, when
   * the backend knows it cheaply (etcd's range count, one SQL count). Storage
   * reports it as a list's remainingItemCount; absent means "not known".
   */
  readonly remaining?: number;
}

export interface KvPutOptions {
  /** The modRevision the caller last saw; the put fails with Conflict if it moved. */
  readonly expectedRevision: number;
}

export interface KvDeleteOptions {
  /** When set, the delete fails with Conflict unless the key is at this modRevision. */
  readonly expectedRevision?: number;
}

export interface KvWriteResult {
  /** The revision this write created. */
  readonly revision: number;
}

export interface KvDeleteResult extends KvWriteResult {
  /** The value that was deleted. */
  readonly previous: KvEntry;
}

export type KvEventType = 'create' | 'update' | 'delete';

export interface KvEvent {
  readonly type: KvEventType;
  readonly key: string;
  /** The new value; for a delete, the last value the key had. */
  readonly value: Uint8Array;
  /** The value before this write (update and delete only). */
  readonly previous?: Uint8Array;
  /** The revision of this change. */
  readonly revision: number;
  /** createRevision of the key's incarnation (for delete: of the deleted one). */
  readonly createRevision: number;
}

export interface KvWatchOptions {
  /**
   * Deliver every change with revision > afterRevision, in revision order, with no
   * gap and no duplicate. Absent: start from "now" (changes after the current
   * revision). If the history needed was compacted, onError receives Compacted.
   */
  readonly afterRevision?: number;
  /** Called with events in revision order; never concurrently for one watch. */
  readonly onEvents: (events: readonly KvEvent[]) => void;
  /**
   * Called at most once when the watch ends for a reason of its own (Compacted,
   * Unavailable); no events follow it. Not called after close().
   */
  readonly onError: (err: Error) => void;
  /**
   * Progress: every change up to `revision` has been delivered. Backends that
   * can tell (etcd progress notifications, SQLite after each commit) call it.
   */
  readonly onProgress?: (revision: number) => void;
}

export interface KvWatch {
  /** Stops delivery; idempotent. */
  close(): void;
}

export interface KV {
  get(key: string, opts?: KvGetOptions): Promise<KvEntry | undefined>;
  list(prefix: string, opts?: KvListOptions): Promise<KvListResult>;
  /** Number of keys under prefix at the latest revision. */
  count(prefix: string): Promise<number>;
  /** Creates key if absent; throws Exists otherwise. */
  create(key: string, value: Uint8Array): Promise<KvWriteResult>;
  /** Compare-and-swap; throws NotFound if absent, Conflict (with `current`) if moved. */
  put(key: string, value: Uint8Array, opts: KvPutOptions): Promise<KvWriteResult>;
  /** Throws NotFound if absent, Conflict (with `current`) if expectedRevision moved. */
  delete(key: string, opts?: KvDeleteOptions): Promise<KvDeleteResult>;
  watch(prefix: string, opts: KvWatchOptions): KvWatch;
  currentRevision(): Promise<number>;
  /** Forgets history at and before `revision`; reads there then throw Compacted. */
  compact(revision: number): Promise<void>;
  /** The oldest revision still readable (compacted revision + 1, or 1). */
  oldestRevision(): Promise<number>;
  close(): Promise<void>;
}
