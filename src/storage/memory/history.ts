// The multi-version key space behind the memory KV: every key keeps the versions
// written since the last compaction, so reads at a past revision see exactly what
// etcd would show. Tombstones mark deletes so "absent at revision R" is answerable.
import type { KvEntry } from '../kv.js';

export interface Version {
  readonly revision: number;
  readonly createRevision: number;
  /** undefined marks a delete (tombstone). */
  readonly value: Uint8Array | undefined;
}

/** Index of the first element of the sorted `keys` that is > key (or >= when inclusive). */
export function lowerBound(keys: readonly string[], key: string, opts: { inclusive: boolean }): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const k = keys[mid]!;
    if (k < key || (!opts.inclusive && k === key)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class KeySpace {
  /** All keys that have at least one retained version, ascending. */
  private readonly sorted: string[] = [];
  private readonly versions = new Map<string, Version[]>();

  /** The version visible at `revision` (the last one written at or before it). */
  versionAt(key: string, revision: number): Version | undefined {
    const list = this.versions.get(key);
    if (list === undefined) return undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i]!.revision <= revision) return list[i];
    }
    return undefined;
  }

  latest(key: string): Version | undefined {
    const list = this.versions.get(key);
    return list?.[list.length - 1];
  }

  append(key: string, version: Version): void {
    const list = this.versions.get(key);
    if (list !== undefined) {
      list.push(version);
      return;
    }
    this.versions.set(key, [version]);
    this.sorted.splice(lowerBound(this.sorted, key, { inclusive: true }), 0, key);
  }

  /** Keys under prefix strictly after `after` (when given), ascending. */
  *keysFrom(prefix: string, after: string | undefined): Generator<string> {
    const start =
      after !== undefined && after >= prefix
        ? lowerBound(this.sorted, after, { inclusive: false })
        : lowerBound(this.sorted, prefix, { inclusive: true });
    for (let i = start; i < this.sorted.length; i++) {
      const key = this.sorted[i]!;
      if (!key.startsWith(prefix)) return;
      yield key;
    }
  }

  /**
   * Drops every version no read after `revision` can see. The version visible at
   * `revision` stays (reads at revision+1 need it) unless it is a tombstone.
   */
  compact(revision: number): void {
    for (const [key, list] of this.versions) {
      let keep = 0;
      for (let i = list.length - 1; i >= 0; i--) {
        if (list[i]!.revision <= revision) {
          keep = list[i]!.value === undefined ? i + 1 : i;
          break;
        }
      }
      if (keep > 0) list.splice(0, keep);
      if (list.length === 0) {
        this.versions.delete(key);
        this.sorted.splice(lowerBound(this.sorted, key, { inclusive: true }), 1);
      }
    }
  }
}

export function toEntry(key: string, version: Version): KvEntry {
  // A copy, so a caller mutating the bytes cannot rewrite history.
  return {
    key,
    value: copy(version.value!),
    createRevision: version.createRevision,
    modRevision: version.revision,
  };
}

/**
 * A copy that shares no memory. Uint8Array#slice would do, but callers pass
 * Buffers, whose slice() is a view onto the same bytes.
 */
export function copy(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}
