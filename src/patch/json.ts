// JSON values as patches see them, parsing a patch body with the error texts Go's
// encoding/json gives (clients and tests compare them), and Go's %v rendering of
// decoded maps, which kube's strategic merge errors quote.

export type Json = null | boolean | number | string | Json[] | JsonMap;
export interface JsonMap {
  [key: string]: Json;
}

export function isJsonMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Go's reflect kind names for a decoded JSON value ("map", "slice", ...). */
export function goKind(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return 'slice';
  if (typeof value === 'object') return 'map';
  if (typeof value === 'number') return 'float64';
  return typeof value === 'boolean' ? 'bool' : 'string';
}

/** Go's json type names in "cannot unmarshal <x> into ..." messages. */
export function goJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

export type ParseResult = { readonly ok: true; readonly value: Json } | { readonly ok: false; readonly message: string };

/** Parses a body; failures carry encoding/json's wording. */
export function parseJson(body: Buffer | string): ParseResult {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  try {
    return { ok: true, value: JSON.parse(text) as Json };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const at = /position (\d+)/.exec(message)?.[1];
    const pos = at === undefined ? undefined : Number(at);
    // Go validates before decoding, so any truncated document is "unexpected end".
    if (text.trim() === '' || /end of JSON input/i.test(message) || (pos !== undefined && text.slice(pos).trim() === '')) {
      return { ok: false, message: 'unexpected end of JSON input' };
    }
    const token = /Unexpected token '(.)'/.exec(message)?.[1];
    const ch = token ?? (pos === undefined ? text.trim()[0] : text[pos]) ?? '';
    return { ok: false, message: `invalid character '${ch}' looking for beginning of value` };
  }
}

/** fmt's %v of a decoded JSON value: `map[a:1 b:[x y]]`, keys sorted as fmt sorts them. */
export function goFormat(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goFormat).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${k}:${goFormat((value as Record<string, unknown>)[k])}`);
    return `map[${entries.join(' ')}]`;
  }
  return String(value);
}

// A deep copy; patches never mutate what the store handed out (it may be frozen).
export { cloneJson } from '../schema/object.js';
