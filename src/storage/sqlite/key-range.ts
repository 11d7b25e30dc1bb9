// Prefix scans as index ranges. SQLite compares TEXT with memcmp on UTF-8, which
// orders keys by code point exactly as etcd orders its byte keys, so a prefix is
// the half-open range [prefix, prefixEnd(prefix)).

/** The highest code point: no key under any prefix can reach it. */
const MAX_CHAR = String.fromCodePoint(0x10ffff);

/**
 * The smallest string greater than every string that starts with `prefix`:
 * the prefix with its last code point incremented.
 */
export function prefixEnd(prefix: string): string {
  if (prefix === '') return MAX_CHAR;
  const chars = Array.from(prefix);
  const last = chars.pop()!.codePointAt(0)!;
  if (last === 0x10ffff) return prefixEnd(chars.join(''));
  // Skip the surrogate block: those code points cannot appear in valid UTF-8.
  const next = last === 0xd7ff ? 0xe000 : last + 1;
  return chars.join('') + String.fromCodePoint(next);
}

export interface KeyRange {
  /** Inclusive lower bound, or exclusive when `afterKey` is true. */
  readonly low: string;
  readonly afterKey: boolean;
  /** Exclusive upper bound. */
  readonly high: string;
}

/** The range a list of `prefix` continuing after `after` scans. */
export function listRange(prefix: string, after: string | undefined): KeyRange {
  const high = prefixEnd(prefix);
  // A continue key below the prefix (or none) starts at the prefix itself.
  if (after !== undefined && after !== '' && after >= prefix) return { low: after, afterKey: true, high };
  return { low: prefix, afterKey: false, high };
}
