// JSON, the codec every client can speak and the one error bodies fall back to.
// Output matches Go's encoding/json as kube-apiserver writes it: HTML-sensitive
// characters escaped (\u003c, \u003e, \u0026), a trailing newline, and with
// ?pretty two-space indentation (json.Indent). Decoding bounds nesting depth
// (depth.ts) and, when asked, reports duplicate fields (json-duplicates.ts).
import { badRequest } from '../errors/status-error.js';
import type { Codec, DecodeOptions } from './codec.js';
import { mayHoldLoneSurrogate, toWellFormed } from './well-formed.js';
import { checkDepth, mayBeTooDeep } from './depth.js';
import { findDuplicateFields, hasDuplicateFields } from './json-duplicates.js';

export const JSON_MEDIA_TYPE = 'application/json';

const GO_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
const NEEDS_ESCAPE = /[<>&\u2028\u2029]/;
const ESCAPE_ALL = /[<>&\u2028\u2029]/g;

/** Whether goEscape would change `text`. */
export function needsGoEscape(text: string): boolean {
  return NEEDS_ESCAPE.test(text);
}

/** Go's encoding/json escaping of already-written JSON text (local to each character, so pieces escape alike). */
export function goEscape(text: string): string {
  // The test is cheap and almost always false; replace only when needed.
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPE_ALL, (c) => GO_ESCAPES[c]!) : text;
}

const PARSE_ERROR = "couldn't get version/kind; json parse error: ";

/**
 * Parses strictly (JSON.parse, which never recurses and makes `__proto__` an own
 * data property) and reports errors the way kube's decoder words them. Nesting
 * deeper than MAX_DEPTH is refused here, so nothing downstream recurses on
 * unbounded input; `opts.strictErrors` collects duplicate fields.
 */
export function decodeJson(body: Buffer, opts?: DecodeOptions): unknown {
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw badRequest(`${PARSE_ERROR}${why}`);
  }
  if (mayBeTooDeep(text)) checkDepth(value, { prefix: PARSE_ERROR });
  if (opts?.strictErrors !== undefined && hasDuplicateFields(body, value)) opts.strictErrors.push(...findDuplicateFields(text));
  return mayHoldLoneSurrogate(text) ? toWellFormed(value) : value;
}

export function encodeJson(obj: unknown, opts: { pretty?: boolean } = {}): Buffer {
  const text = opts.pretty === true ? JSON.stringify(obj, null, 2) : JSON.stringify(obj);
  return Buffer.from(`${goEscape(text)}\n`, 'utf8');
}

/**
 * encodeJson's bytes for a JSON text already made, given as fragments to join
 * (a stored object's, storage/object-store/codec.ts), in memory of their own:
 * they are kept beside a shared object (shared-encoding.ts), so one exact
 * allocation rather than a pooled encode and a copy out of the pool. Go's
 * escapes are local to each character, so fragments escape alone as they would joined.
 */
export function jsonAnswerBytes(fragments: readonly string[]): Buffer {
  const escaped = fragments.map(goEscape);
  let length = 1;
  for (const fragment of escaped) length += Buffer.byteLength(fragment, 'utf8');
  const bytes = Buffer.allocUnsafeSlow(length);
  let at = 0;
  for (const fragment of escaped) at += bytes.write(fragment, at, 'utf8');
  bytes[at] = 0x0a;
  return bytes;
}

export const jsonCodec: Codec = {
  mediaType: JSON_MEDIA_TYPE,
  decode: (body, opts) => decodeJson(body, opts),
  encode: (obj) => encodeJson(obj),
};

/** ?pretty=true: the same media type, indented. */
export const prettyJsonCodec: Codec = {
  mediaType: JSON_MEDIA_TYPE,
  decode: (body, opts) => decodeJson(body, opts),
  encode: (obj) => encodeJson(obj, { pretty: true }),
};
