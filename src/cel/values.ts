// CEL runtime values as @marcbachmann/cel-js represents them (int = bigint,
// uint = UnsignedInt, double = number, list = Array, map = Map or plain object)
// and the helpers the Kubernetes libraries share: ordering, errors, code points.
import { EvaluationError, Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';

/** Raised by library functions; the evaluator reports it with the call's position. */
export function celError(message: string): EvaluationError {
  return new EvaluationError(message);
}

/** Strings in CEL are indexed by code point, not UTF-16 unit (cel-spec langdef, "Strings"). */
export function codePoints(s: string): string[] {
  return Array.from(s);
}

export function isUint(v: unknown): v is UnsignedInt {
  return v instanceof UnsignedInt;
}

function numeric(v: unknown): number | bigint | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (isUint(v)) return v.value;
  return undefined;
}

/**
 * Total order used by min/max/sort/isSorted: numbers compare across int, uint
 * and double (Kubernetes enables cross-type numeric comparisons), strings by
 * code point, booleans false < true, bytes lexically, durations and timestamps
 * by time. Values of unrelated types are an error, as in cel-go.
 */
export function compareValues(a: unknown, b: unknown): number {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) {
    if (typeof na === 'number' || typeof nb === 'number') {
      const x = Number(na);
      const y = Number(nb);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    return na < nb ? -1 : na > nb ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  const da = durationNanos(a);
  const db = durationNanos(b);
  if (da !== undefined && db !== undefined) return da < db ? -1 : da > db ? 1 : 0;
  throw celError(`no such overload: compare ${typeName(a)} and ${typeName(b)}`);
}

/** Deep CEL equality (heterogeneous numbers equal by value, maps by entries). */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return typeof na === typeof nb ? na === nb : Number(na) === Number(nb);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => celEquals(x, b[i]));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  const ea = entriesOf(a);
  const eb = entriesOf(b);
  if (ea !== undefined && eb !== undefined) {
    if (ea.size !== eb.size) return false;
    for (const [k, v] of ea) if (!eb.has(k) || !celEquals(v, eb.get(k))) return false;
    return true;
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && 'equals' in a) {
    return (a as { equals(o: unknown): boolean }).equals(b);
  }
  return false;
}

function entriesOf(v: unknown): Map<unknown, unknown> | undefined {
  if (v instanceof Map) return new Map(v);
  if (typeof v === 'object' && v !== null && (v.constructor === Object || v.constructor === undefined)) {
    return new Map(Object.entries(v));
  }
  return undefined;
}

export function durationNanos(v: unknown): bigint | undefined {
  if (v instanceof Duration) return v.seconds * 1_000_000_000n + BigInt(v.nanos);
  return undefined;
}

export function typeName(v: unknown): string {
  if (v === null) return 'null_type';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Optional) return 'optional_type';
  if (typeof v === 'object') return v.constructor?.name ?? 'map';
  return typeof v;
}

export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;

export function checkInt64(v: bigint, what: string): bigint {
  if (v > INT64_MAX || v < INT64_MIN) throw celError(`${what}: integer overflow`);
  return v;
}
