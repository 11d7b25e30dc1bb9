// One watch served from a resource's cache (kube's cacheWatcher): the changes it
// has not delivered yet, turned into watch events for its prefix, key filter and
// predicate (a change that makes an object start matching is ADDED, stop matching
// DELETED with the last matching state at the change's revision). Delivery runs
// on a later microtask (one for every watcher with something due), never inside
// the cache's dispatch, and a replay from history goes out in chunks so a long one
// cannot stall the event loop. A watcher whose queue passes its bound is cut off
// with an error instead of holding memory.
import { StorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';
import type { StorageWatch, StorageWatchEvent, StorageWatchOptions } from '../storage.js';
import { deepFreeze } from '../object-store/codec.js';
import type { CacheEvent } from './history.js';

/** Events delivered per turn of the event loop while replaying. */
const CHUNK = 1000;

/**
 * Watchers with live changes to deliver on the next microtask. One microtask
 * serves them all: a change fanned out to thousands of watchers would otherwise
 * queue a microtask (and a closure) per watcher.
 */
let due: CacheWatcher[] = [];

function deliverDue(): void {
  const batch = due;
  due = [];
  for (const w of batch) {
    try {
      w.flushScheduled();
    } catch (cause) {
      // Only a bug gets here (consumers' throws are caught per watcher); the others still get theirs.
      w.fail(new StorageError('Unavailable', `watch delivery failed: ${String(cause)}`, { cause }));
    }
  }
}

/**
 * The watch event of a change, for a watcher with no predicate: every such watcher
 * gets the same frozen object. When changes come one at a time, watchers take each
 * in turn and the last one made serves them; a batch is found in the map.
 */
const sharedEvents = new WeakMap<CacheEvent, StorageWatchEvent>();
let lastChange: CacheEvent | undefined;
let lastEvent: StorageWatchEvent | undefined;

function sharedEvent(e: CacheEvent): StorageWatchEvent {
  if (lastChange === e) return lastEvent!;
  let event = sharedEvents.get(e);
  if (event === undefined) {
    event = Object.freeze({ type: e.type, object: e.object, key: e.key });
    sharedEvents.set(e, event);
  }
  lastChange = e;
  lastEvent = event;
  return event;
}

/** The DELETED form of a change that made an object stop matching, shared by every watcher. */
const leftObjects = new WeakMap<CacheEvent, KubeObject>();

function leftObject(e: CacheEvent): KubeObject {
  let obj = leftObjects.get(e);
  if (obj === undefined) {
    const prev = e.prevObject!;
    obj = deepFreeze({ ...prev, metadata: { ...prev.metadata, resourceVersion: String(e.revision) } });
    leftObjects.set(e, obj);
  }
  return obj;
}

export interface CacheWatcherOptions {
  readonly prefix: string;
  readonly watch: StorageWatchOptions;
  /** Changes after this revision are delivered. */
  readonly after: number;
  /** Queued, undelivered live changes allowed before the watcher is cut off. */
  readonly bufferLimit: number;
  /** Called once when the watcher ends (closed, failed or cut off). */
  readonly onEnd: (w: CacheWatcher) => void;
}

export class CacheWatcher implements StorageWatch {
  private queue: CacheEvent[] = [];
  private next = 0;
  private scheduled = false;
  private ended = false;
  /** A replay may exceed the live bound; only changes queued after it count against it. */
  private allowance = 0;
  private lastRevision: number;
  private progressRevision = 0;
  private progressSent = 0;

  constructor(private readonly opts: CacheWatcherOptions) {
    this.lastRevision = opts.after;
  }

  /** The revision the watch started after. */
  get startedAfter(): number {
    return this.opts.after;
  }

  /** Queues the history a watch from the past must replay first. */
  replay(events: readonly CacheEvent[]): void {
    if (events.length === 0) return;
    this.lastRevision = Math.max(this.lastRevision, events[events.length - 1]!.revision);
    this.allowance = events.length;
    this.queue = events.filter((e) => e.key.startsWith(this.opts.prefix) && (this.opts.watch.keyFilter?.(e.key) ?? true));
    this.schedule();
  }

  /** Queues a live change; changes at or before the start are skipped (no duplicates). */
  push(e: CacheEvent): void {
    if (this.ended || e.revision <= this.lastRevision) return;
    this.lastRevision = e.revision;
    if (!e.key.startsWith(this.opts.prefix)) return;
    if (this.opts.watch.keyFilter !== undefined && !this.opts.watch.keyFilter(e.key)) return;
    this.queue.push(e);
    if (this.queue.length - this.next > this.opts.bufferLimit + this.allowance) {
      this.fail(new StorageError('Unavailable', `watch of ${this.opts.prefix} fell behind: more than ${this.opts.bufferLimit} changes undelivered`));
      return;
    }
    this.schedule();
  }

  /** Every change up to `revision` is queued: tell the consumer once the queue drains. */
  progress(revision: number): void {
    if (this.ended || revision <= this.progressRevision) return;
    if (revision > this.lastRevision) this.lastRevision = revision;
    this.progressRevision = revision;
    // A consumer that takes no progress reports needs no delivery for one.
    if (this.opts.watch.onProgress === undefined) return;
    this.schedule();
  }

  /** Ends the watch for a reason of its own: one onError, nothing after it. */
  fail(err: Error): void {
    if (this.ended) return;
    this.end();
    // On a later turn, not a microtask: a watch that fails at once (410 from
    // history) must not report before its caller has finished setting up the stream.
    setImmediate(() => this.opts.watch.onError(err));
  }

  close(): void {
    this.end();
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue = [];
    this.opts.onEnd(this);
  }

  private schedule(): void {
    if (this.scheduled || this.ended) return;
    this.scheduled = true;
    // A long backlog yields to I/O between chunks; a short one goes out at once.
    if (this.queue.length - this.next > CHUNK) {
      setImmediate(() => this.flushScheduled());
      return;
    }
    if (due.length === 0) queueMicrotask(deliverDue);
    due.push(this);
  }

  /** Runs the delivery schedule() asked for (only schedule's callers call it). */
  flushScheduled(): void {
    this.scheduled = false;
    const end = Math.min(this.queue.length, this.next + CHUNK);
    for (; this.next < end && !this.ended; this.next++) {
      const event = this.toWatchEvent(this.queue[this.next]!);
      if (event === undefined) continue;
      try {
        this.opts.watch.onEvent(event);
      } catch (cause) {
        // A throwing consumer must not break the cache's dispatch; it learns it missed events.
        this.fail(new StorageError('Unavailable', `watch consumer failed: ${String(cause)}`, { cause }));
        return;
      }
    }
    if (this.ended) return;
    if (this.next < this.queue.length) {
      this.schedule();
      return;
    }
    // Emptied in place: a live watcher queues and drains one change at a time, and a
    // fresh array per change would be garbage per watcher per change.
    this.queue.length = 0;
    this.next = 0;
    this.allowance = 0;
    if (this.progressRevision > this.progressSent) {
      this.progressSent = this.progressRevision;
      try {
        this.opts.watch.onProgress?.(String(this.progressRevision));
      } catch (cause) {
        // Delivery runs for many watchers in one microtask: one consumer's throw must not stop the others.
        this.fail(new StorageError('Unavailable', `watch progress consumer failed: ${String(cause)}`, { cause }));
      }
    }
  }

  private toWatchEvent(e: CacheEvent): StorageWatchEvent | undefined {
    const predicate = this.opts.watch.predicate;
    if (predicate === undefined) return sharedEvent(e);
    if (e.type === 'ADDED') return predicate(e.object) ? { type: 'ADDED', object: e.object } : undefined;
    if (e.type === 'DELETED') return predicate(e.object) ? { type: 'DELETED', object: e.object } : undefined;
    const was = e.prevObject !== undefined && predicate(e.prevObject);
    const is = predicate(e.object);
    if (is) return { type: was ? 'MODIFIED' : 'ADDED', object: e.object };
    return was ? { type: 'DELETED', object: leftObject(e) } : undefined;
  }
}
