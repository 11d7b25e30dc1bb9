// Past states of one resource for Exact lists and continue tokens (kube 1.33's
// ListFromCacheSnapshot): a list that hands out a continue token keeps its
// snapshot for snapshotTtlMs, and any revision still inside the history window
// can be rebuilt by rolling the current state back through it. Older than both:
// the backend answers (and says Compacted when it no longer has it either).
import type { KubeObject } from '../../schema/object.js';
import type { EventHistory } from './history.js';
import { compareKeys, type ObjectIndex, type Snapshot } from './object-index.js';

export class SnapshotStore {
  private readonly kept = new Map<number, { readonly snapshot: Snapshot; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly clock: () => number,
  ) {}

  /** Keeps `snapshot` (again) for the TTL from now. */
  keep(snapshot: Snapshot): void {
    this.kept.set(snapshot.revision, { snapshot, expires: this.clock() + this.ttlMs });
  }

  /**
   * The state at `revision`: a kept snapshot, else one rolled back from the
   * current state when history still covers the revision, else undefined.
   */
  at(revision: number, index: ObjectIndex, history: EventHistory): Snapshot | undefined {
    this.prune();
    const kept = this.kept.get(revision);
    if (kept !== undefined) return kept.snapshot;
    if (revision > index.revision || revision < history.floor) return undefined;
    const now = index.snapshot();
    if (revision === index.revision) return now;
    return rollBack(now, history, revision);
  }

  /** Drops every snapshot at or before `revision` (history was forgotten there). */
  forgetThrough(revision: number): void {
    for (const rev of this.kept.keys()) if (rev <= revision) this.kept.delete(rev);
  }

  clear(): void {
    this.kept.clear();
  }

  private prune(): void {
    const now = this.clock();
    for (const [rev, entry] of this.kept) if (entry.expires <= now) this.kept.delete(rev);
  }
}

/** Undoes, newest first, every change after `revision`. */
function rollBack(current: Snapshot, history: EventHistory, revision: number): Snapshot {
  const state = new Map<string, KubeObject>();
  for (let i = 0; i < current.keys.length; i++) state.set(current.keys[i]!, current.objects[i]!);
  const later = history.since(revision);
  for (let i = later.length - 1; i >= 0; i--) {
    const e = later[i]!;
    if (e.type === 'ADDED') state.delete(e.key);
    else state.set(e.key, e.prevObject!);
  }
  const keys = [...state.keys()].sort(compareKeys);
  return { revision, keys, objects: keys.map((k) => state.get(k)!) };
}
