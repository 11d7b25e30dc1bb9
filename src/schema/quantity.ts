// resource.Quantity (k8s.io/apimachinery/pkg/api/resource) with exact decimal
// arithmetic: parsing with kube's scanner, suffixes and error texts, rounding up
// to the nano unit, the BinarySI cap at 2^63-1, canonical form, comparison,
// addition and subtraction. Never a float except asApproximateFloat.
//
// apimachinery holds an amount in one of two forms, an int64 with a power-of-ten
// scale (the fast path) or an arbitrary-precision inf.Dec, and which form a value
// is in is observable: AsInt64 (CEL's isInteger/asInteger) answers only for the
// int64 form at a scale >= 0, so `1000m` and `1.0` are not integers there. The
// form is therefore kept (`form`), following the same rules that pick it in Go.
//
// Used by the CEL quantity library; src/apis/core/v1/quantity.ts (float
// comparisons for QoS) could delegate here.

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/** apimachinery's internal representation: int64Amount or inf.Dec. */
export type QuantityForm = 'int64' | 'decimal';

/** value = unscaled × 10^scale; `scale` is apimachinery's Scale (the negation of inf.Dec's). */
export interface Quantity {
  readonly unscaled: bigint;
  readonly scale: number;
  readonly format: QuantityFormat;
  readonly form: QuantityForm;
}

/** The text of apimachinery's splitREString, quoted in ErrFormatWrong. */
export const QUANTITY_REGEXP = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

export const QUANTITY_ERRORS = {
  format: `quantities must match the regular expression '${QUANTITY_REGEXP}'`,
  numeric: 'unable to parse numeric part of quantity',
  suffix: "unable to parse quantity's suffix",
} as const;

export class QuantityParseError extends Error {}

/**
 * Raised instead of materialising a number with more digits than any real
 * quantity has: kube aligns inf.Dec scales without a bound (1e999999999 +
 * 1 would allocate a billion digits), kapi refuses.
 */
export class QuantityRangeError extends Error {}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const NANO = -9;
// int64 has 18 full decimal digits (maxInt64Factors).
const MAX_INT64_FACTORS = 18;
/** Widest alignment (in digits) arithmetic will build; far beyond any value kube can store. */
const MAX_ALIGN_DIGITS = 10_000;

const fitsInt64 = (v: bigint): boolean => v >= INT64_MIN && v <= INT64_MAX;
const abs = (v: bigint): bigint => (v < 0n ? -v : v);

function pow10(k: number): bigint {
  if (k > MAX_ALIGN_DIGITS) throw new QuantityRangeError(`quantity out of range: needs more than ${MAX_ALIGN_DIGITS} digits`);
  return 10n ** BigInt(k);
}

interface Suffix {
  readonly base: 10 | 2;
  readonly exponent: number;
  readonly format: QuantityFormat;
}

const DECIMAL_SI: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SI: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** suffixHandler.interpret: the SI tables, then e/E followed by a Go int64 (truncated to int32, as Go does). */
function interpretSuffix(s: string): Suffix | undefined {
  if (Object.hasOwn(DECIMAL_SI, s)) return { base: 10, exponent: DECIMAL_SI[s]!, format: 'DecimalSI' };
  if (Object.hasOwn(BINARY_SI, s)) return { base: 2, exponent: BINARY_SI[s]!, format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E') && /^[+-]?[0-9]+$/.test(s.slice(1))) {
    const parsed = BigInt(s.slice(1));
    if (!fitsInt64(parsed)) return undefined;
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' };
  }
  return undefined;
}

interface Scanned {
  readonly positive: boolean;
  readonly num: string;
  readonly denom: string;
  readonly suffix: string;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const SUFFIX_CHARS = 'eEinumkKMGTP';

/** parseQuantityString: sign, leading zeros, integer digits, '.', fraction digits, suffix letters, signed digits. */
function scan(str: string): Scanned {
  let pos = 0;
  const end = str.length;
  let positive = true;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') {
    pos++;
  }
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  const num = str.slice(pos, i) || '0';
  pos = i;
  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    pos = i;
  }
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(str[pos]!)) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) throw new QuantityParseError(QUANTITY_ERRORS.format);
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

/**
 * ParseQuantity. Throws QuantityParseError with apimachinery's message. No
 * whitespace is trimmed (UnmarshalJSON trims before calling it; CEL does not).
 */
export function parseQuantity(str: string): Quantity {
  if (str.length === 0) throw new QuantityParseError(QUANTITY_ERRORS.format);
  if (str === '0') return { unscaled: 0n, scale: 0, format: 'DecimalSI', form: 'int64' };
  const { positive, num, denom, suffix } = scan(str);
  const sfx = interpretSuffix(suffix);
  if (sfx === undefined) throw new QuantityParseError(QUANTITY_ERRORS.suffix);

  // The int64 fast path: few enough digits, no sub-nano fraction, no overflow.
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (sfx.base === 10) {
    scale = sfx.exponent;
    precision = MAX_INT64_FACTORS - (num.length + denom.length);
  } else if (sfx.exponent >= 0 && denom.length === 0) {
    mantissa = 1n << BigInt(sfx.exponent);
    // 1Mi has about 6 decimal digits: exponent×3/10 − 1 approximates the precision it uses up.
    precision = 15 - num.length - Math.trunc((sfx.exponent * 3) / 10) - 1;
  } else {
    precision = -1;
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= NANO) {
      const result = BigInt(num + denom) * mantissa;
      if (fitsInt64(result)) {
        return { unscaled: positive ? result : -result, scale, format: sfx.format, form: 'int64' };
      }
    }
  }
  return parseDecimal({ positive, num, denom, sfx });
}

/** The inf.Dec path: exact value, rounded up (away from zero) to 1n, BinarySI capped at 2^63-1. */
function parseDecimal(input: { positive: boolean; num: string; denom: string; sfx: Suffix }): Quantity {
  const { num, denom, sfx } = input;
  let amount = BigInt(num + denom);
  let scale = -denom.length;
  let format = sfx.format;
  if (sfx.base === 10) scale += sfx.exponent;
  else amount <<= BigInt(sfx.exponent);

  if (amount !== 0n) {
    if (scale < NANO) {
      const shift = NANO - scale;
      // More shifted digits than the amount can have: it is below 1n.
      if (shift > Math.floor(bitLength(amount) / 3) + 1) {
        amount = 1n; // below 1n: rounds up to the smallest unit
      } else {
        const d = 10n ** BigInt(shift);
        amount = amount / d + (amount % d === 0n ? 0n : 1n);
      }
      scale = NANO;
    } else if (scale - NANO <= MAX_INT64_FACTORS * 4) {
      // inf.Dec.Round to nano rescales larger values exactly; kept only while
      // small, since the value is the same either way.
      amount *= 10n ** BigInt(scale - NANO);
      scale = NANO;
    }
  }
  if (format === 'BinarySI' && compareMagnitude(amount, scale, INT64_MAX, 0) > 0) {
    amount = INT64_MAX;
    scale = 0;
  }
  if (format === 'BinarySI' && amount > 0n && compareMagnitude(amount, scale, 1n, 0) < 0) {
    // Below 1 a binary suffix would round; kube switches to DecimalSI.
    format = 'DecimalSI';
  }
  return { unscaled: input.positive ? amount : -amount, scale, format, form: 'decimal' };
}

/** True when `str` parses as a quantity. */
export function isQuantity(str: string): boolean {
  try {
    parseQuantity(str);
    return true;
  } catch (err) {
    if (err instanceof QuantityParseError || err instanceof QuantityRangeError) return false;
    throw err;
  }
}

/** NewQuantity(v, DecimalExponent): an integer in the int64 form. */
export function quantityFromInt(v: bigint): Quantity {
  return { unscaled: v, scale: 0, format: 'DecimalExponent', form: 'int64' };
}

/** Bit length of a positive bigint (hex conversion is linear, unlike decimal). */
const bitLength = (v: bigint): number => v.toString(16).length * 4;

/** Compares two non-negative magnitudes a×10^as and b×10^bs without building more digits than both have. */
function compareMagnitude(a: bigint, as: number, b: bigint, bs: number): number {
  if (a === 0n || b === 0n) return a === b ? 0 : a === 0n ? -1 : 1;
  // Decimal exponent bounds from the bit length settle most comparisons before
  // any alignment (apimachinery's cmpDec does the same): an n-bit number has
  // between (n-4)/4 and n/3+1 decimal digits here (n rounded up to whole hex digits).
  const na = bitLength(a);
  const nb = bitLength(b);
  if (Math.floor((na - 4) / 4) + as > Math.floor(nb / 3) + 1 + bs) return 1;
  if (Math.floor((nb - 4) / 4) + bs > Math.floor(na / 3) + 1 + as) return -1;
  const s = Math.min(as, bs);
  const x = a * 10n ** BigInt(as - s);
  const y = b * 10n ** BigInt(bs - s);
  return x === y ? 0 : x > y ? 1 : -1;
}

export function quantitySign(q: Quantity): -1 | 0 | 1 {
  return q.unscaled === 0n ? 0 : q.unscaled > 0n ? 1 : -1;
}

/** Quantity.Cmp: -1, 0 or 1 by value. */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const sa = quantitySign(a);
  const sb = quantitySign(b);
  if (sa !== sb) return sa > sb ? 1 : -1;
  if (sa === 0) return 0;
  const c = compareMagnitude(abs(a.unscaled), a.scale, abs(b.unscaled), b.scale);
  return (sa > 0 ? c : -c) as -1 | 0 | 1;
}

/** int64Amount.Add: aligns to the smaller scale; undefined when the result leaves int64. */
function addInt64(a: Quantity, b: Quantity): { unscaled: bigint; scale: number } | undefined {
  if (b.unscaled === 0n) return a;
  if (a.unscaled === 0n) return b;
  if (a.scale === b.scale) {
    const c = a.unscaled + b.unscaled;
    return fitsInt64(c) ? { unscaled: c, scale: a.scale } : undefined;
  }
  const [hi, lo] = a.scale > b.scale ? [a, b] : [b, a];
  if (hi.scale - lo.scale > MAX_INT64_FACTORS) return undefined;
  const aligned = hi.unscaled * 10n ** BigInt(hi.scale - lo.scale);
  if (!fitsInt64(aligned)) return undefined;
  const c = aligned + lo.unscaled;
  return fitsInt64(c) ? { unscaled: c, scale: lo.scale } : undefined;
}

/** inf.Dec addition: exact, at the smaller scale. */
function addDecimal(a: Quantity, b: Quantity): { unscaled: bigint; scale: number } {
  if (a.unscaled === 0n && b.unscaled !== 0n && a.scale >= b.scale) return b;
  if (b.unscaled === 0n && a.scale <= b.scale) return a;
  const s = Math.min(a.scale, b.scale);
  return { unscaled: a.unscaled * pow10(a.scale - s) + b.unscaled * pow10(b.scale - s), scale: s };
}

/** Quantity.Add: y's format is taken when x is zero; falls back to the decimal form on int64 overflow. */
export function addQuantities(x: Quantity, y: Quantity): Quantity {
  const format = x.unscaled === 0n ? y.format : x.format;
  if (x.form === 'int64' && y.form === 'int64') {
    const r = addInt64(x, y);
    if (r !== undefined) return { ...r, format, form: 'int64' };
  }
  return { ...addDecimal(x, y), format, form: 'decimal' };
}

/** Quantity.Sub, including int64Amount.Sub's refusal to negate the most negative int64. */
export function subtractQuantities(x: Quantity, y: Quantity): Quantity {
  const format = x.unscaled === 0n ? y.format : x.format;
  const negY: Quantity = { ...y, unscaled: -y.unscaled };
  if (x.form === 'int64' && y.form === 'int64' && y.unscaled !== INT64_MIN) {
    const r = addInt64(x, negY);
    if (r !== undefined) return { ...r, format, form: 'int64' };
  }
  return { ...addDecimal(x, negY), format, form: 'decimal' };
}

/**
 * Quantity.AsInt64: only the int64 form at a non-negative scale converts, and
 * only when value × 10^scale fits. Undefined otherwise.
 */
export function quantityAsInt64(q: Quantity): bigint | undefined {
  if (q.form !== 'int64' || q.scale < 0) return undefined;
  if (q.scale === 0 || q.unscaled === 0n) return q.unscaled;
  if (q.scale > MAX_INT64_FACTORS) return undefined;
  const v = q.unscaled * 10n ** BigInt(q.scale);
  return fitsInt64(v) ? v : undefined;
}

// Go's math.Pow10 builds 10^n from two tables; the same tables give the same doubles.
const POW10 = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
const POW10_POS32 = Array.from({ length: 10 }, (_, i) => Number(`1e${i * 32}`));
const POW10_NEG32 = Array.from({ length: 11 }, (_, i) => Number(`1e-${i * 32}`));

function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return POW10_POS32[Math.floor(n / 32)]! * POW10[n % 32]!;
  if (n < 0 && n >= -323) return POW10_NEG32[Math.floor(-n / 32)]! / POW10[-n % 32]!;
  return n > 0 ? Infinity : 0;
}

/** AsApproximateFloat64: float(unscaled) × 10^scale, ±Inf beyond float64. */
export function quantityAsApproximateFloat(q: Quantity): number {
  const base = Number(q.unscaled);
  return q.scale === 0 ? base : base * goPow10(q.scale);
}

const DECIMAL_SUFFIX_BY_EXPONENT = new Map(Object.entries(DECIMAL_SI).map(([s, e]) => [e, s]));
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/**
 * The canonical string (Quantity.String): no fractional digits, the largest
 * suffix that loses nothing, the parsed format kept (BinarySI between -1024 and
 * 1024, or with a fraction, shown as DecimalSI).
 *
 * One departure: past the largest suffix (1000E, 1024Ei) apimachinery's
 * CanonicalizeBytes ignores the failed suffix lookup and prints the mantissa
 * alone ("1000E" → "1"), which changes the value; kapi writes an exponent
 * ("1e21") or keeps the largest binary suffix instead.
 */
export function quantityToString(q: Quantity): string {
  if (q.unscaled === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    const small = compareQuantities(q, quantityFromInt(-1024n)) > 0 && compareQuantities(q, quantityFromInt(1024n)) < 0;
    if (small || q.scale < 0 && !isIntegral(q)) format = 'DecimalSI';
  }
  if (format === 'BinarySI') return binaryString(q);
  let m = q.unscaled;
  let e = q.scale;
  while (m % 10n === 0n) {
    m /= 10n;
    e++;
  }
  while (e % 3 !== 0) {
    m *= 10n;
    e--;
  }
  if (format === 'DecimalExponent') return e === 0 ? m.toString() : `${m}e${e}`;
  const suffix = DECIMAL_SUFFIX_BY_EXPONENT.get(e);
  return suffix !== undefined ? `${m}${suffix}` : `${m}e${e}`;
}

function isIntegral(q: Quantity): boolean {
  return q.scale >= 0 || q.unscaled % pow10(-q.scale) === 0n;
}

function binaryString(q: Quantity): string {
  let v = q.scale >= 0 ? q.unscaled * pow10(q.scale) : q.unscaled / pow10(-q.scale);
  let i = 0;
  while (i < BINARY_SUFFIXES.length - 1 && v !== 0n && v % 1024n === 0n) {
    v /= 1024n;
    i++;
  }
  return `${v}${BINARY_SUFFIXES[i]}`;
}
