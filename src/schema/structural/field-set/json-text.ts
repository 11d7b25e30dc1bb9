// Text forms of values inside field-set path elements. The strings kube stores in
// `fieldsV1` (`k:{"name":"c"}`, `v:"x"`) are compared byte for byte by every client
// that reads managedFields, so they must be spelled exactly as structured-merge-diff
// spells them: its serializer writes key-field NAMES with a plain JSON string writer
// (no HTML escaping) and VALUES with an encoding/json-compatible one (HTML escaping,
// U+2028/U+2029 escaped, map keys sorted). Conflict messages print paths with Go's
// fmt verbs (%q strings, %v numbers), reproduced here too.

import { compareGoStrings } from '../../go-strings.js';

/** A JSON value as a path element carries it (list-map key values, set items). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

const HEX = '0123456789abcdef';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The string Go would hold: a JSON escape of a lone surrogate decodes to U+FFFD in
 * encoding/json, so by the time kube builds a field set the string is well formed.
 * Applied wherever a string enters a path element, so equal-looking elements are equal.
 */
export function wellFormed(s: string): string {
  return /[\uD800-\uDFFF]/.test(s) ? s.replace(LONE_SURROGATE, '\uFFFD') : s;
}

function escapeControl(code: number): string {
  return `\\u00${HEX[code >> 4]}${HEX[code & 0xf]}`;
}

/** A key-field name inside `k:{...}`: quotes, backslashes and control characters only. */
export function encodeName(s: string): string {
  return quoted(s, false);
}

/** A string value, as encoding/json writes it with HTML escaping on. */
function encodeValueString(s: string): string {
  return quoted(s, true);
}

/** A JSON string; `html` adds encoding/json's escapes of <, >, & and U+2028/U+2029. */
function quoted(s: string, html: boolean): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) out += `\\${s[i]}`;
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || (html && (c === 0x3c || c === 0x3e || c === 0x26))) out += escapeControl(c);
    else if (html && (c === 0x2028 || c === 0x2029)) out += `\\u${c.toString(16)}`;
    else out += s[i];
  }
  return `${out}"`;
}

/**
 * A value as structured-merge-diff writes it. Numbers: JavaScript's shortest
 * round-trip form switches to exponents at the same bounds as Go's encoder (below
 * 1e-6, from 1e21) and writes the exponent the same way (`1e-7`, `1e+21`).
 */
export function encodeValue(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return encodeValueString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${(v as readonly JsonValue[]).map(encodeValue).join(',')}]`;
  const obj = v as { readonly [key: string]: JsonValue };
  const keys = Object.keys(obj).sort(compareGoStrings);
  return `{${keys.map((k) => `${encodeValueString(k)}:${encodeValue(obj[k]!)}`).join(',')}}`;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const GO_ESCAPES: Readonly<Record<number, string>> = { 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v' };

/** Go's %q (strconv.Quote): what SMD prints for a string key or set value in a path. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (Object.hasOwn(GO_ESCAPES, cp)) out += GO_ESCAPES[cp];
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${HEX[cp >> 4]}${HEX[cp & 0xf]}`;
    else if (PRINTABLE.test(ch)) out += ch;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/**
 * Go's %v of a decoded JSON number: integral values are int64 there (printed in
 * decimal), others float64 printed as %g with the shortest digits, which switches
 * to an exponent of at least two digits below 1e-4 and from 1e6.
 */
export function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return n.toFixed(0);
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e >= -4 && e < 6) return String(n);
  const sign = e < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(e)).padStart(2, '0')}`;
}
