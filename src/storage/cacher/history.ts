// The window of recent changes one resource's cache keeps: what a watch from a
// past resourceVersion replays, and what Exact lists roll the current state back
// through. Bounded by age and by count (kube's watch cache capacity); whatever
// leaves it raises the floor, and a read older than the floor is 410 Expired.
import { StorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';

export type CacheEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface CacheEvent {
  readonly type: CacheEventType;
  readonly key: string;
  /** The state after the change (DELETED: the last state, at the deleting revision). Frozen. */
  readonly object: KubeObject;
  /** The state before the change (undefined for ADDED). Frozen. */
  readonly prevObject: KubeObject | undefined;
  readonly revision: number;
  /** When the cache learned of it (clock ms), for the age bound. */
  readonly time: number;
}

export class EventHistory {
  /** Ascending by revision; events[head..] are live (shifting an array per event is O(n)). */
  private events: CacheEvent[] = [];
  private head = 0;
  /** Every change after this revision is still here. */
  private floorRevision: number;

  constructor(
    floor: number,
    private readonly limits: { readonly windowMs: number; readonly maxEvents: number },
  ) {
    this.floorRevision = floor;
  }

  get floor(): number {
    return this.floorRevision;
  }

  get size(): number {
    return this.events.length - this.head;
  }

  append(event: CacheEvent): void {
    this.events.push(event);
    if (this.size > this.limits.maxEvents) this.dropTo(this.head + 1);
  }

  /** Drops what is older than the window. */
  trim(now: number): void {
    let i = this.head;
    while (i < this.events.length && now - this.events[i]!.time > this.limits.windowMs) i++;
    this.dropTo(i);
  }

  /** Forgets every change at or before `revision` (the backend compacted it, or a test asks). */
  forgetThrough(revision: number): void {
    let i = this.head;
    while (i < this.events.length && this.events[i]!.revision <= revision) i++;
    this.dropTo(i);
    this.floorRevision = Math.max(this.floorRevision, revision);
  }

  /** Every change after `revision`, oldest first. Throws Compacted when some already left. */
  since(revision: number): readonly CacheEvent[] {
    if (revision < this.floorRevision) throw tooOld(revision, this.floorRevision);
    // Binary search: history can hold many thousands of events.
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid]!.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return this.events.slice(lo);
  }

  private dropTo(index: number): void {
    if (index <= this.head) return;
    this.floorRevision = Math.max(this.floorRevision, this.events[index - 1]!.revision);
    this.head = index;
    // Compact the array once the dead prefix dominates, so memory follows the window.
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }
}

/** kube's cacher: `too old resource version: N (floor)`; the registry words the 410. */
export function tooOld(revision: number, floor: number): StorageError {
  return new StorageError('Compacted', `too old resource version: ${revision} (${floor})`, { revision: floor, requested: revision });
}
