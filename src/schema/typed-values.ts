// The Go types of the typed walk (schema/typed.ts) that decode themselves, with
// their own UnmarshalJSON wording: resource.Quantity, metav1.Time and MicroTime,
// intstr.IntOrString, []byte as base64, and the opaque RawExtension and FieldsV1.
// Each check throws SchemaTypeError with the text kube's decoder gives.
import { parseQuantity, QuantityParseError, QuantityRangeError, quantityToString } from './quantity.js';
import { goJsonType } from './object.js';
import { daysIn, formatGoTime, parseGoTime, RFC3339_LAYOUT, RFC3339_MICRO_LAYOUT, type GoTimeLayout } from './go-time.js';

/** A value Go's decoder would refuse; `detail` is the decoder's error text. */
export class SchemaTypeError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'SchemaTypeError';
  }
}

export function isSchemaTypeError(err: unknown): err is SchemaTypeError {
  return err instanceof SchemaTypeError;
}

export const INT32 = 2 ** 31;
export const INT64 = 2 ** 63;

/**
 * Short quantity texts already read, with the canonical form kube writes them in
 * (requests and limits repeat the same few).
 */
const canonicalQuantities = new Map<string, string>();
/** Past this many texts the memo starts over (it only saves work). */
const QUANTITY_MEMO_LIMIT = 1024;

/**
 * resource.Quantity's UnmarshalJSON (a JSON number is read as its text, quoted
 * text trimmed), and what its MarshalJSON writes back: the canonical text
 * (`1000m` → `1`, `0.5Mi` → `512Ki`, the number 0.5 → `500m`) when it differs.
 */
function checkQuantity(value: unknown): string | undefined {
  // Short texts only: the memo must not hold on to a client's megabyte of digits.
  const memo = typeof value === 'string' && value.length <= 32;
  if (memo) {
    const known = canonicalQuantities.get(value);
    if (known !== undefined) return known === value ? undefined : known;
  }
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
  let canonical: string;
  try {
    // Objects, lists and booleans reach ParseQuantity as their raw JSON: never a quantity.
    canonical = quantityToString(parseQuantity(text ?? ''));
  } catch (err) {
    if (err instanceof QuantityParseError || err instanceof QuantityRangeError) throw new SchemaTypeError(err.message);
    throw err;
  }
  if (memo) {
    if (canonicalQuantities.size >= QUANTITY_MEMO_LIMIT) canonicalQuantities.clear();
    canonicalQuantities.set(value, canonical);
  }
  return canonical === value ? undefined : canonical;
}

/**
 * Times most often written, matched whole: a string of this shape whose fields are
 * in range is one Go accepts, and this test allocates nothing. Anything else —
 * including the forms only Go's general parser takes (a one-digit hour, a comma
 * before the fraction) — is read by go-time.ts, which words Go's error.
 */
const RFC3339_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
/** RFC3339Micro (metav1.MicroTime) takes exactly six fractional digits. */
const RFC3339_MICRO_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}(?:Z|[+-]\d{2}:\d{2})$/;

/** metav1.Time: a JSON string read by time.Parse(time.RFC3339, …), written back in UTC to the second. */
function checkTime(value: unknown): string | undefined {
  return checkLayout(value, RFC3339_SHAPE, RFC3339_LAYOUT, RFC3339_CANONICAL_LENGTH);
}

/** metav1.MicroTime: a JSON string read by time.Parse(RFC3339Micro, …), written back in UTC with six digits. */
function checkMicroTime(value: unknown): string | undefined {
  return checkLayout(value, RFC3339_MICRO_SHAPE, RFC3339_MICRO_LAYOUT, RFC3339_MICRO_CANONICAL_LENGTH);
}

/** `2006-01-02T15:04:05Z` and `2006-01-02T15:04:05.000000Z`: what Go writes, in UTC. */
const RFC3339_CANONICAL_LENGTH = 20;
const RFC3339_MICRO_CANONICAL_LENGTH = 27;

/**
 * Refuses what Go's time.Parse refuses; answers the text kube writes back
 * (t.UTC().Format(layout)) when it differs from `value` — another offset, a
 * fraction metav1.Time drops, a one-digit hour — and undefined when it is the same.
 */
function checkLayout(value: unknown, shape: RegExp, layout: GoTimeLayout, canonicalLength: number): string | undefined {
  if (typeof value !== 'string') {
    throw new SchemaTypeError(`json: cannot unmarshal ${goJsonType(value)} into Go value of type string`);
  }
  if (shape.test(value) && inRange(value)) {
    // The shape and an in-range date make this length exactly Go's own text.
    if (value.length === canonicalLength && value.endsWith('Z')) return undefined;
  }
  const parsed = parseGoTime(layout, value);
  if (parsed.error !== undefined) throw new SchemaTypeError(parsed.error);
  const canonical = formatGoTime(layout, parsed.seconds, parsed.nanos);
  return canonical === value ? undefined : canonical;
}

/** Whether the fields of a time of the shapes above are all in range (the shapes put two digits at each offset read). */
function inRange(value: string): boolean {
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  // Every month has 28 days; only a later day needs the month's length.
  if (month < 1 || month > 12 || day < 1 || (day > 28 && day > daysIn(Number(value.slice(0, 4)), month))) return false;
  if (twoDigits(value, 11) > 23 || twoDigits(value, 14) > 59 || twoDigits(value, 17) > 59) return false;
  // A numeric offset ends the text: ±hh:mm.
  return value.endsWith('Z') || (twoDigits(value, value.length - 5) <= 24 && twoDigits(value, value.length - 2) <= 60);
}

function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + (text.charCodeAt(at + 1) - 48);
}

/** intstr.IntOrString: a quoted string, or a JSON value decoded as int32. */
export function checkIntOrString(value: unknown): void {
  if (typeof value === 'string') return;
  if (typeof value !== 'number') throw new SchemaTypeError(`json: cannot unmarshal ${goJsonType(value)} into Go value of type int32`);
  if (!Number.isInteger(value) || value < -INT32 || value >= INT32) {
    throw new SchemaTypeError(`json: cannot unmarshal number ${String(value)} into Go value of type int32`);
  }
}

/**
 * []byte fields: standard padded base64, as Go's base64.StdEncoding reads it (CR and
 * LF ignored; `=` only to pad the last quantum), refused with its CorruptInputError text.
 * Read in place, counting the characters that are not line breaks: a Secret's
 * megabyte of data must not become a list of a million indices first.
 */
export function checkBase64(value: string): void {
  let n = 0;
  for (let i = 0; i < value.length; i++) if (!isLineBreak(value.charCodeAt(i))) n++;
  // k counts the characters before i that are not line breaks.
  for (let i = 0, k = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (isLineBreak(c)) continue;
    if (c === EQUALS) {
      const q = k % 4;
      if (q === 3 && k + 1 === n) return;
      if (q === 2 && k + 2 === n && value.charCodeAt(nextNonBreak(value, i + 1)) === EQUALS) return;
      throw corruptBase64(i);
    }
    if (!isBase64Char(c)) throw corruptBase64(i);
    k++;
  }
  if (n % 4 !== 0) throw corruptBase64(value.length);
}

const EQUALS = 0x3d;

function isLineBreak(c: number): boolean {
  return c === 0x0d || c === 0x0a;
}

/** A-Z, a-z, 0-9, `+` and `/`. */
function isBase64Char(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f;
}

/** The index of the first character at or after `from` that is not a line break (the length when none is). */
function nextNonBreak(value: string, from: number): number {
  let i = from;
  while (i < value.length && isLineBreak(value.charCodeAt(i))) i++;
  return i;
}

function corruptBase64(at: number): SchemaTypeError {
  return new SchemaTypeError(`illegal base64 data at input byte ${at}`);
}

/**
 * A self-decoding type's check: throws SchemaTypeError for a value Go refuses, and
 * answers the value kube writes back when it differs from the one sent (undefined
 * when the value stays as it is).
 */
export type SelfDecoding = (value: unknown) => unknown;

/** Definitions whose Go type decodes itself; `opaque` ones take any JSON value (raw bytes). */
export const SELF_DECODING: ReadonlyMap<string, SelfDecoding> = new Map<string, SelfDecoding>([
  ['io.k8s.apimachinery.pkg.api.resource.Quantity', checkQuantity],
  ['io.k8s.apimachinery.pkg.apis.meta.v1.Time', checkTime],
  ['io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime', checkMicroTime],
  ['io.k8s.apimachinery.pkg.util.intstr.IntOrString', checkIntOrString],
  ['io.k8s.apimachinery.pkg.runtime.RawExtension', () => undefined],
  ['io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1', () => undefined],
]);
