// The verification cache of the service-account authenticator: what a token's
// signature check established, kept by the exact token string, so a client that
// sends the same token on every request pays for the cryptography once. Only
// successes enter (a failure is never remembered, so a token is never refused for
// what an earlier, different answer said), each entry dies no later than the
// token's own expiry, and the size is bounded (the oldest entry leaves first).
// Revocation is not this cache's business: the authenticator still looks up the
// account, Secret, pod or node on every request.

export interface VerifiedCache<T> {
  /** The value stored for this token while `nowMs` is before its expiry; undefined otherwise. */
  get(token: string, nowMs: number): T | undefined;
  /** Remembers a verified token until `expiresAtMs` (an entry already past it is not stored). */
  set(token: string, value: T, expiresAtMs: number, nowMs: number): void;
  readonly size: number;
}

interface Entry<T> {
  readonly value: T;
  readonly expiresAtMs: number;
}

export function createVerifiedCache<T>(opts: { maxEntries: number }): VerifiedCache<T> {
  // A Map iterates in insertion order: its first key is the oldest entry.
  const entries = new Map<string, Entry<T>>();
  return {
    get(token, nowMs) {
      const entry = entries.get(token);
      if (entry === undefined) return undefined;
      if (nowMs >= entry.expiresAtMs) {
        entries.delete(token);
        return undefined;
      }
      return entry.value;
    },
    set(token, value, expiresAtMs, nowMs) {
      if (opts.maxEntries <= 0 || expiresAtMs <= nowMs) return;
      entries.delete(token);
      while (entries.size >= opts.maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
      entries.set(token, { value, expiresAtMs });
    },
    get size() {
      return entries.size;
    },
  };
}
