// The watch cache's knobs, with kube-apiserver's defaults where it has one, and
// the resolver that decides which resource a key belongs to (one cache each).
import type { Storage } from '../storage.js';

export interface CacherOptions {
  /** The Storage every write, and every read the cache cannot answer, goes to. */
  readonly backend: Storage;
  /**
   * The resource prefix (ending in "/") a key or prefix belongs to, or undefined
   * when it names no single resource (it then goes to the backend uncached).
   */
  readonly resourcePrefix?: (key: string) => string | undefined;
  /** How long a change stays in history for watches and Exact reads (kube: 5 min of etcd history). */
  readonly historyWindowMs?: number;
  /** At most this many changes of one resource in history; older ones leave first. */
  readonly maxHistoryEvents?: number;
  /** How long a list snapshot serves Exact lists and continue tokens (kube: 75 s). */
  readonly snapshotTtlMs?: number;
  /** How long a read "not older than N" waits for the cache to reach N before 504 (kube: 3 s). */
  readonly freshnessTimeoutMs?: number;
  /**
   * How long a consistent read (resourceVersion unset) waits for the cache to reach
   * the backend's current revision before reading the backend instead. Short: a
   * backend that reports progress only now and then (etcd, 1 s) must not make a
   * quiet resource's list slower than a direct read.
   */
  readonly consistentReadTimeoutMs?: number;
  /**
   * Whether consistent reads (resourceVersion unset) may be served from the cache
   * once it has the backend's current revision (default true). False for a
   * backend whose progress reports can run ahead of its events (etcd before
   * 3.4.31 and 3.5.13, etcd issue 15220): those reads go to the backend, as
   * kube-apiserver does with such an etcd.
   */
  readonly consistentReadsFromCache?: boolean;
  /** Events one watcher may have queued and undelivered before it is cut off. */
  readonly watcherBufferEvents?: number;
  /**
   * Each cache tells its watchers its revision this often (when it moved), so the
   * bookmark a watch is due (watch handler: about once a minute, and 2 s before
   * its deadline) carries a recent revision even on a quiet resource.
   */
  readonly progressIntervalMs?: number;
  /** Backoff bounds for re-listing and re-watching the backend after an error. */
  readonly retryMinMs?: number;
  readonly retryMaxMs?: number;
  /** Milliseconds since the epoch; injected so tests own time. */
  readonly clock?: () => number;
  /** Told about every backend failure the cache recovers from (for logs). */
  readonly onBackendError?: (err: unknown, resourcePrefix: string) => void;
}

export interface CacherConfig {
  readonly backend: Storage;
  readonly resourcePrefix: (key: string) => string | undefined;
  readonly historyWindowMs: number;
  readonly maxHistoryEvents: number;
  readonly snapshotTtlMs: number;
  readonly freshnessTimeoutMs: number;
  readonly consistentReadTimeoutMs: number;
  readonly consistentReadsFromCache: boolean;
  readonly watcherBufferEvents: number;
  readonly progressIntervalMs: number;
  readonly retryMinMs: number;
  readonly retryMaxMs: number;
  readonly clock: () => number;
  readonly onBackendError: (err: unknown, resourcePrefix: string) => void;
}

export const DEFAULT_HISTORY_WINDOW_MS = 5 * 60_000;
export const DEFAULT_MAX_HISTORY_EVENTS = 100_000;

export function configOf(opts: CacherOptions): CacherConfig {
  return {
    backend: opts.backend,
    resourcePrefix: opts.resourcePrefix ?? defaultResourcePrefix,
    historyWindowMs: opts.historyWindowMs ?? DEFAULT_HISTORY_WINDOW_MS,
    maxHistoryEvents: opts.maxHistoryEvents ?? DEFAULT_MAX_HISTORY_EVENTS,
    snapshotTtlMs: opts.snapshotTtlMs ?? 75_000,
    freshnessTimeoutMs: opts.freshnessTimeoutMs ?? 3_000,
    consistentReadTimeoutMs: opts.consistentReadTimeoutMs ?? 250,
    consistentReadsFromCache: opts.consistentReadsFromCache ?? true,
    watcherBufferEvents: opts.watcherBufferEvents ?? 10_000,
    progressIntervalMs: opts.progressIntervalMs ?? 1_000,
    retryMinMs: opts.retryMinMs ?? 100,
    retryMaxMs: opts.retryMaxMs ?? 5_000,
    clock: opts.clock ?? Date.now,
    onBackendError: opts.onBackendError ?? (() => undefined),
  };
}

/**
 * The built-in API groups whose names have no dot. Every other group has one
 * (CRD groups must), and no core resource is named like a group, so a key's first
 * segment tells whether the resource root is one segment (`/pods/`) or two
 * (`/apps/deployments/`), as registry/keys.ts lays keys out.
 */
const DOTLESS_GROUPS: ReadonlySet<string> = new Set(['apps', 'autoscaling', 'batch', 'policy', 'extensions']);

export function defaultResourcePrefix(key: string): string | undefined {
  const parts = key.split('/');
  // "/a/..." splits into ["", "a", ...]; the root must be followed by "/".
  if (parts[0] !== '' || parts.length < 3 || parts[1] === '') return undefined;
  const first = parts[1]!;
  if (!first.includes('.') && !DOTLESS_GROUPS.has(first)) return `/${first}/`;
  if (parts.length < 4 || parts[2] === '') return undefined;
  return `/${first}/${parts[2]}/`;
}
