// JSON values as patches see them, parsing a patch body with the error texts Go's
// encoding/json gives (clients and tests compare them), and Go's %v rendering of
// decoded maps, which kube's strategic merge errors quote.
import { exceededMaxDepth, mayBeTooDeep, tooDeepAt } from '../codecs/depth.js';
import { mayHoldLoneSurrogate, toWellFormed } from '../codecs/well-formed.js';

export type Json = null | boolean | number | string | Json[] | JsonMap;
export interface JsonMap {
  [key: string]: Json;
}

export function isJsonMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Keys in patches and objects are client data (STYLE §11): `map[key]` on a plain
// object finds Object.prototype members (`toString`, `__proto__`) and assigning
// `__proto__` replaces the object's prototype. Every keyed read and write of
// client maps in the patch engines goes through these two.

/** The member `key` of `map` when it is the map's own, else undefined. */
export function getOwn(map: JsonMap, key: string): Json | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

/** Sets `key` as an own data member, even when it is `__proto__`. */
export function setOwn(map: JsonMap, key: string, value: Json): void {
  if (key === '__proto__') Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
  else map[key] = value;
}

/** Go's reflect kind names for a decoded JSON value ("map", "slice", ...). */
export function goKind(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return 'slice';
  if (typeof value === 'object') return 'map';
  if (typeof value === 'number') return 'float64';
  return typeof value === 'boolean' ? 'bool' : 'string';
}


export type ParseResult = { readonly ok: true; readonly value: Json } | { readonly ok: false; readonly message: string };

/**
 * Parses a body; failures carry encoding/json's wording. Nesting deeper than
 * MAX_DEPTH fails as Go's scanner fails past its own bound, so every patch body
 * (and whatever the engines build from it) is bounded before anything recurses.
 */
export function parseJson(body: Buffer | string): ParseResult {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  try {
    const value = JSON.parse(text) as Json;
    const deep = mayBeTooDeep(text) ? tooDeepAt(value) : undefined;
    if (deep !== undefined) return { ok: false, message: exceededMaxDepth(deep) };
    return { ok: true, value: mayHoldLoneSurrogate(text) ? (toWellFormed(value) as Json) : value };
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
export { cloneJson, goJsonType } from '../schema/object.js';
