// The current objects of one resource, by key, with the key order lists need.
// Objects are deep-frozen and shared with every reader; a sorted view is built
// once per change set and then reused by every list until the next change, and
// the same immutable view is what a snapshot keeps.
import type { KubeObject } from '../../schema/object.js';

/** One resource's objects at one revision, in key order. Immutable. */
export interface Snapshot {
  readonly revision: number;
  readonly keys: readonly string[];
  readonly objects: readonly KubeObject[];
}

export class ObjectIndex {
  private readonly byKey = new Map<string, KubeObject>();
  private view: Snapshot | undefined;
  /** Key order, kept across changes that add or remove no key (most changes are updates). */
  private sortedKeys: readonly string[] | undefined;
  /** Every change up to this revision is applied. */
  revision: number;

  constructor(revision: number) {
    this.revision = revision;
  }

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): KubeObject | undefined {
    return this.byKey.get(key);
  }

  set(key: string, obj: KubeObject): void {
    if (!this.byKey.has(key)) this.sortedKeys = undefined;
    this.byKey.set(key, obj);
    this.view = undefined;
  }

  delete(key: string): void {
    if (!this.byKey.delete(key)) return;
    this.sortedKeys = undefined;
    this.view = undefined;
  }

  /** The objects now, in key order; shared until the next change. */
  snapshot(): Snapshot {
    // Progress moves the revision without changing objects: reuse the arrays then.
    if (this.view !== undefined && this.view.revision === this.revision) return this.view;
    const keys = (this.sortedKeys ??= [...this.byKey.keys()].sort(compareKeys));
    const objects = this.view?.keys === keys ? this.view.objects : keys.map((k) => this.byKey.get(k)!);
    this.view = { revision: this.revision, keys, objects };
    return this.view;
  }
}

/** Keys compare as the backends order them (byte order for the ASCII keys Kubernetes names give). */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Index of the first key >= `key` in sorted `keys`. */
export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
