// One resource's cache: its current objects, its history window, its snapshots
// and its watchers, kept in step by the reflector (reflector.ts). Every change is
// applied here once, in revision order, and fanned out to the watchers; readers
// that need a revision the cache has not reached yet wait here, with a bound.
import { StorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';
import { deepFreeze } from '../object-store/codec.js';
import type { StorageWatchEvent, StorageWatchOptions } from '../storage.js';
import { CacheWatcher } from './cache-watcher.js';
import { EventHistory, tooOld, type CacheEvent } from './history.js';
import { lowerBound, ObjectIndex } from './object-index.js';
import type { CacherConfig } from './options.js';
import { SnapshotStore } from './snapshots.js';

interface FreshWaiter {
  readonly revision: number;
  readonly resolve: (reached: boolean) => void;
}

export class ResourceCache {
  index: ObjectIndex = new ObjectIndex(0);
  history: EventHistory;
  readonly snapshots: SnapshotStore;
  private readonly watchers = new Set<CacheWatcher>();
  private waiters: FreshWaiter[] = [];
  private readyWaiters: (() => void)[] = [];
  /** When a consistent read last timed out waiting for this cache (clock ms); see reads.ts. */
  consistentMissAt = Number.NEGATIVE_INFINITY;
  /** False until the first list is in, and again while re-listing after a Compacted watch. */
  ready = false;
  private closed = false;

  constructor(
    readonly prefix: string,
    private readonly config: CacherConfig,
  ) {
    this.history = new EventHistory(0, { windowMs: config.historyWindowMs, maxEvents: config.maxHistoryEvents });
    this.snapshots = new SnapshotStore(config.snapshotTtlMs, config.clock);
  }

  /** Closed caches answer nothing; their readers go to the backend. */
  get isClosed(): boolean {
    return this.closed;
  }

  get revision(): number {
    return this.index.revision;
  }

  /**
   * The backend can no longer say what changed since the cache's revision: every
   * watcher ends with 410 (kube's cacher terminates its watchers when its
   * reflector re-lists; clients re-list and watch again), and reads wait for the
   * re-list or go to the backend.
   */
  invalidate(): void {
    this.ready = false;
    const floor = this.index.revision;
    for (const w of [...this.watchers]) w.fail(tooOld(w.startedAfter, floor));
  }

  /** A fresh list replaces everything: history starts again at its revision. */
  replace(items: readonly KubeObject[], keys: readonly string[], revision: number): void {
    const index = new ObjectIndex(revision);
    for (let i = 0; i < items.length; i++) index.set(keys[i]!, deepFreeze(items[i]!));
    this.index = index;
    this.history = new EventHistory(revision, { windowMs: this.config.historyWindowMs, maxEvents: this.config.maxHistoryEvents });
    this.snapshots.clear();
    this.ready = true;
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    this.wake();
  }

  /** Applies one backend change (in revision order); older or repeated ones are ignored. */
  apply(e: StorageWatchEvent, key: string): void {
    const revision = Number(e.object.metadata.resourceVersion);
    if (!this.ready || !(revision > this.index.revision)) return;
    if (e.type !== 'ADDED' && e.type !== 'MODIFIED' && e.type !== 'DELETED') return;
    const prevObject = this.index.get(key);
    const event: CacheEvent = {
      type: e.type,
      key,
      object: deepFreeze(e.object),
      prevObject,
      revision,
      time: this.config.clock(),
    };
    if (e.type === 'DELETED') this.index.delete(key);
    else this.index.set(key, event.object);
    this.index.revision = revision;
    this.history.append(event);
    this.history.trim(event.time);
    for (const w of this.watchers) w.push(event);
    this.wake();
  }

  /** The backend delivered every change up to `revision`. */
  progress(revision: number): void {
    if (!this.ready) return;
    if (revision > this.index.revision) {
      this.index.revision = revision;
      this.history.trim(this.config.clock());
      this.wake();
    }
    // Also after events: watchers send a bookmark once what they queued is delivered.
    this.tellProgress();
  }

  /** Every watcher learns the cache's revision (bookmarks for quiet watches). */
  tellProgress(): void {
    for (const w of this.watchers) w.progress(this.index.revision);
  }

  /** Forgets history at and before `revision`, as if the window had passed it. */
  forgetThrough(revision: number): void {
    this.history.forgetThrough(revision);
    this.snapshots.forgetThrough(revision);
  }

  /** Resolves true once the cache is ready and has reached `revision`, false after `timeoutMs`. */
  waitFresh(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.ready && this.index.revision >= revision) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      const waiter: FreshWaiter = {
        revision,
        resolve: (reached) => {
          clearTimeout(timer);
          resolve(reached);
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Resolves when the first list is in (or the cache closes). */
  whenReady(): Promise<void> {
    if (this.ready || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /**
   * A watch of `prefix` (within this resource), then its live changes. `start`: a
   * revision replays the history after it (Compacted when it already left the
   * window; one the cache has not reached yet delivers nothing until it passes
   * it, as kube's watch cache does); 'state' sends the objects now as ADDED
   * (kube's "Get State and Start at ..."); undefined starts at the cache's revision.
   */
  watch(prefix: string, start: number | 'state' | undefined, opts: StorageWatchOptions): CacheWatcher {
    const w = new CacheWatcher({
      prefix,
      watch: opts,
      after: typeof start === 'number' ? start : this.index.revision,
      bufferLimit: this.config.watcherBufferEvents,
      onEnd: (ended) => this.watchers.delete(ended),
    });
    this.watchers.add(w);
    if (start === 'state') {
      w.replay(this.stateEvents(prefix));
    } else if (start !== undefined) {
      try {
        w.replay(this.history.since(start));
      } catch (err) {
        w.fail(err instanceof StorageError ? err : new StorageError('Unavailable', String(err), { cause: err }));
      }
    }
    return w;
  }

  /** The objects under `prefix` now, as the ADDED events a watch with state starts with. */
  private stateEvents(prefix: string): CacheEvent[] {
    const { keys, objects } = this.index.snapshot();
    const time = this.config.clock();
    const events: CacheEvent[] = [];
    // Keys are sorted, so the prefix's keys are one run starting at its lower bound.
    for (let i = lowerBound(keys, prefix); i < keys.length && keys[i]!.startsWith(prefix); i++) {
      const object = objects[i]!;
      events.push({ type: 'ADDED', key: keys[i]!, object, prevObject: undefined, revision: Number(object.metadata.resourceVersion), time });
    }
    return events;
  }

  get watcherCount(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    for (const w of [...this.watchers]) w.close();
    for (const waiter of this.waiters.splice(0)) waiter.resolve(false);
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    const still: FreshWaiter[] = [];
    for (const w of this.waiters) {
      if (this.index.revision >= w.revision) w.resolve(true);
      else still.push(w);
    }
    this.waiters = still;
  }
}
