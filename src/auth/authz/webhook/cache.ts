// The webhook authorizer's decision cache: apimachinery's LRUExpireCache as
// webhook.go uses it (8192 entries, keyed by the whole SubjectAccessReview spec,
// each entry with its own TTL: authorizedTTL for allowed answers, unauthorizedTTL
// for the rest). Time comes from the injected clock, so tests move it instead of
// waiting. A Map keeps insertion order, which is recency once a hit re-inserts.

export const DECISION_CACHE_SIZE = 8192;

interface Entry<V> {
  readonly value: V;
  readonly expiresAt: number;
}

export interface ExpiringCache<V> {
  /** The value, when present and not expired at `now` (ms); a hit makes it the most recent. */
  get(key: string, now: number): V | undefined;
  /** Stores for `ttlMs`; the least recently used entry goes when the cache is full. */
  add(key: string, value: V, ttlMs: number, now: number): void;
  readonly size: number;
}

export function createExpiringCache<V>(capacity = DECISION_CACHE_SIZE): ExpiringCache<V> {
  const entries = new Map<string, Entry<V>>();
  return {
    get(key, now) {
      const e = entries.get(key);
      if (e === undefined) return undefined;
      entries.delete(key);
      // LRUExpireCache: an entry is good up to and including its expiry instant.
      if (now > e.expiresAt) return undefined;
      entries.set(key, e);
      return e.value;
    },
    add(key, value, ttlMs, now) {
      entries.delete(key);
      entries.set(key, { value, expiresAt: now + ttlMs });
      if (entries.size > capacity) entries.delete(entries.keys().next().value as string);
    },
    get size() {
      return entries.size;
    },
  };
}
