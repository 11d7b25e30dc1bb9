// JSON, the codec every client can speak and the one error bodies fall back to.
// Output matches Go's encoding/json as kube-apiserver writes it: HTML-sensitive
// characters escaped (\u003c, \u003e, \u0026), a trailing newline, and with
// ?pretty two-space indentation (json.Indent).
import { badRequest } from '../errors/status-error.js';
import type { Codec } from './codec.js';

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

function goEscape(text: string): string {
  // The test is cheap and almost always false; replace only when needed.
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPE_ALL, (c) => GO_ESCAPES[c]!) : text;
}

/** Parses strictly (JSON.parse) and reports errors the way kube's decoder words them. */
export function decodeJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw badRequest(`couldn't get version/kind; json parse error: ${why}`);
  }
}

export function encodeJson(obj: unknown, opts: { pretty?: boolean } = {}): Buffer {
  const text = opts.pretty === true ? JSON.stringify(obj, null, 2) : JSON.stringify(obj);
  return Buffer.from(`${goEscape(text)}\n`, 'utf8');
}

export const jsonCodec: Codec = {
  mediaType: JSON_MEDIA_TYPE,
  decode: (body) => decodeJson(body),
  encode: (obj) => encodeJson(obj),
};

/** ?pretty=true: the same media type, indented. */
export const prettyJsonCodec: Codec = {
  mediaType: JSON_MEDIA_TYPE,
  decode: (body) => decodeJson(body),
  encode: (obj) => encodeJson(obj, { pretty: true }),
};
