// How Go writes decoded JSON values into the texts kube answers with: encoding/json
// (HTML-safe string escapes, map keys sorted) and fmt's %v of a number. Field
// errors, field-set paths in managedFields and CRD rule messages all print values
// this way, so the texts are made here once.
import { goLiteral } from './field-errors.js';
import { goQuote } from './go-quote.js';
import { compareGoStrings } from './go-strings.js';

const HEX = '0123456789abcdef';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The string Go would hold: a JSON escape of a lone surrogate decodes to U+FFFD in
 * encoding/json, so by the time kube prints a decoded string it is well formed.
 */
export function wellFormed(s: string): string {
  return /[\uD800-\uDFFF]/.test(s) ? s.replace(LONE_SURROGATE, '\uFFFD') : s;
}

function escapeControl(code: number): string {
  return `\\u00${HEX[code >> 4]}${HEX[code & 0xf]}`;
}

/**
 * A JSON string as Go's encoders write it: `\n`, `\r`, `\t` short, every other
 * control character as `\u00XX`; with `html` (encoding/json's default) also `<`,
 * `>`, `&`, U+2028 and U+2029 escaped. structured-merge-diff writes key-field
 * names without `html`.
 */
export function goJsonString(s: string, html = true): string {
  const text = wellFormed(s);
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) out += `\\${text[i]}`;
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || (html && (c === 0x3c || c === 0x3e || c === 0x26))) out += escapeControl(c);
    else if (html && (c === 0x2028 || c === 0x2029)) out += `\\u${c.toString(16)}`;
    else out += text[i];
  }
  return `${out}"`;
}

/**
 * encoding/json's Marshal of a decoded value: map keys sorted (Go's order), strings
 * HTML-safe. Numbers: JavaScript's shortest round-trip form switches to exponents
 * at the same bounds as Go's encoder (below 1e-6, from 1e21) and writes them alike.
 */
export function goJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj).sort(compareGoStrings);
  return `{${keys.map((k) => `${goJsonString(k)}:${goJson(obj[k])}`).join(',')}}`;
}

/** Go's %v of a float64: shortest digits, exponent form (two digits at least) below 1e-4 and from 1e+06. */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const e = f.toExponential();
  const at = e.indexOf('e');
  const exp = Number(e.slice(at + 1));
  if (exp >= -4 && exp < 6) return String(f);
  const digits = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : String(Math.abs(exp));
  return `${e.slice(0, at)}e${exp < 0 ? '-' : '+'}${digits}`;
}

/** A float64 that is an integer within int64 (JSON numbers decode to float64 in Go). */
export function isInt64(v: number): boolean {
  return Number.isInteger(v) && v >= -(2 ** 63) && v < 2 ** 63;
}

/** Go's %v of a decoded JSON number: an int64 when it is integral, else a float64. */
export function goNumber(n: number): string {
  return isInt64(n) ? n.toFixed(0) : goFloat(n);
}

/** A bad value as field.Error prints it: %q strings, %v numbers, Go's JSON otherwise. */
export function goValue(v: unknown): unknown {
  if (typeof v === 'string') return goLiteral(goQuote(v));
  if (typeof v === 'number') return goLiteral(goNumber(v));
  if (v !== null && typeof v === 'object') return goLiteral(goJson(v));
  return v;
}

/** goValue's text. */
export function goValueText(v: unknown): string {
  const b = goValue(v);
  return typeof b === 'object' && b !== null ? (b as { text: string }).text : String(b);
}
