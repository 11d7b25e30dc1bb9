// Turns a (mutated) JSON value into request bytes: JSON with the mutators'
// markers (duplicate keys, verbatim number tokens), YAML through js-yaml, and
// Kubernetes protobuf through the server's own encoder (the bytes kubectl sends).
// An encoder that cannot express the value throws; the generator then falls back.
import jsYaml from 'js-yaml';
import { protobufCodec } from '../src/codecs/protobuf.js';
import { setOwn, type BodyFormat } from './input.js';
import type { Json } from './kinds.js';
import { DUP_KEY, RAW_TOKEN } from './mutate-doc.js';

/** JSON text of `value`; iterative, so depth is bounded by memory only. */
export function toJson(value: Json, opts: { pretty?: boolean } = {}): string {
  const parts: string[] = [];
  // A stack of pending tokens: either a value to write or a literal string.
  const stack: ({ v: Json } | string)[] = [{ v: value }];
  const nl = opts.pretty === true ? '\n' : '';
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') { parts.push(item); continue; }
    const v = item.v;
    if (typeof v === 'string') parts.push(v.startsWith(RAW_TOKEN) ? v.slice(RAW_TOKEN.length) : JSON.stringify(v));
    else if (typeof v === 'number') parts.push(Number.isFinite(v) ? String(v) : 'null');
    else if (typeof v === 'boolean' || v === null) parts.push(String(v));
    else if (Array.isArray(v)) {
      stack.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ v: v[i]! });
        if (i > 0) stack.push(',');
      }
      parts.push('[' + nl);
    } else {
      const keys = Object.keys(v);
      stack.push(nl + '}');
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push({ v: v[key]! });
        stack.push(JSON.stringify(key.startsWith(DUP_KEY) ? key.slice(DUP_KEY.length) : key) + ':');
        if (i > 0) stack.push(',' + nl);
      }
      parts.push('{' + nl);
    }
  }
  return parts.join('');
}

/** The value without markers: what a decoder keeping the last duplicate would see. */
function plain(value: Json): Json {
  if (typeof value === 'string') {
    if (!value.startsWith(RAW_TOKEN)) return value;
    try {
      return JSON.parse(value.slice(RAW_TOKEN.length)) as Json;
    } catch {
      return value.slice(RAW_TOKEN.length);
    }
  }
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const key of Object.keys(value)) {
    setOwn(out, key.startsWith(DUP_KEY) ? key.slice(DUP_KEY.length) : key, plain(value[key]!));
  }
  return out;
}

/** JSON.stringify when no marker is in the value (the common case, and several times faster). */
function fastJson(doc: Json): string | undefined {
  try {
    const s = JSON.stringify(doc);
    return s.includes('\\u0000dup:') || s.includes('\\u0000raw:') ? undefined : s;
  } catch {
    return undefined; // deeper than V8's stringify recursion
  }
}

function deeperThan(value: Json, limit: number): boolean {
  const stack: { v: Json; d: number }[] = [{ v: value, d: 0 }];
  while (stack.length > 0) {
    const { v, d } = stack.pop()!;
    if (d > limit) return true;
    if (typeof v === 'object' && v !== null) for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: child, d: d + 1 });
  }
  return false;
}

export function encodeDoc(doc: Json, format: BodyFormat): Buffer {
  switch (format) {
    case 'json':
      return Buffer.from(fastJson(doc) ?? toJson(doc), 'utf8');
    case 'yaml':
      // js-yaml's block style costs depth² (indentation) and recurses: a deep value goes as flow (JSON is YAML).
      if (deeperThan(doc, 32)) return Buffer.from(toJson(plain(doc)), 'utf8');
      return Buffer.from(jsYaml.dump(plain(doc), { noRefs: true, lineWidth: -1 }), 'utf8');
    case 'protobuf':
      return protobufCodec.encode(plain(doc));
    default:
      throw new Error(`no encoding for a ${format} body`);
  }
}
