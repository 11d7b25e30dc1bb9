// Duplicate fields in a JSON text, for fieldValidation=Strict|Warn. JSON.parse keeps
// the last of repeated keys without a word, so this is a second, single pass over
// text that JSON.parse has already accepted (which keeps the scanner small: no
// syntax errors to handle). Only run when the caller asks for strict errors.
//
// The wording is sigs.k8s.io/json's strict decoder (internal/golang/encoding/json,
// kubernetes_patch.go strictError): `duplicate field "spec.containers[0].name"`,
// the path in strconv.Quote form, each path reported once, at most 100 errors per
// decode (saveStrictError), in document order. kube checks duplicates while
// decoding into the Go type, so a repeated key inside an unknown field or inside
// an opaque RawExtension is not reported there; the caller drops those (see
// body.ts) since only it knows the schema.
import { renderFieldPath, type PathElement } from '../schema/field-path.js';
import { goQuote } from '../schema/go-quote.js';

/** saveStrictError keeps at most this many strict errors per decode. */
export const MAX_STRICT_ERRORS = 100;

interface Frame {
  readonly isObject: boolean;
  /** Keys seen so far (objects only); created lazily. */
  keys: Set<string> | undefined;
  /** The key (object) or index (array) of the value being read. */
  at: string | number;
  /** Object: the next string is a key. */
  expectKey: boolean;
}

function pathOf(stack: readonly Frame[], upTo: number): string {
  const elements: PathElement[] = [];
  // stack[0] is the document's top-level container; its members have no prefix.
  for (let i = 0; i < upTo; i++) {
    const f = stack[i]!;
    elements.push(f.isObject ? String(f.at) : (f.at as number));
  }
  return renderFieldPath(elements);
}

/** The end (index of the closing quote) of the string literal opening at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) return text.length; // unreachable for text JSON.parse accepted
    let backslashes = 0;
    for (let j = q - 1; j > start && text.charCodeAt(j) === 0x5c; j--) backslashes++;
    if (backslashes % 2 === 0) return q;
    i = q + 1;
  }
}

/**
 * The strict-decoding texts for repeated keys in `text`, which must be valid JSON.
 * Empty when there are none.
 */
export function findDuplicateFields(text: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const stack: Frame[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      if (top !== undefined && top.isObject && top.expectKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        top.keys ??= new Set();
        if (top.keys.has(key)) {
          const parent = pathOf(stack, stack.length - 1);
          const message = `duplicate field ${goQuote(parent === '' ? key : `${parent}.${key}`)}`;
          if (!seen.has(message) && found.length < MAX_STRICT_ERRORS) {
            seen.add(message);
            found.push(message);
          }
        } else top.keys.add(key);
        top.at = key;
        top.expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      stack.push({ isObject: true, keys: undefined, at: '', expectKey: true });
    } else if (c === 0x5b /* [ */) {
      stack.push({ isObject: false, keys: undefined, at: 0, expectKey: false });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top === undefined) continue;
      if (top.isObject) top.expectKey = true;
      else top.at = (top.at as number) + 1;
    }
  }
  return found;
}

/**
 * The number of member names in a valid JSON text, as UTF-8 bytes: string literals
 * followed by a colon. Bytes, not the decoded string: every structural character
 * is ASCII and no byte of a multi-byte UTF-8 sequence is, and indexing a Buffer is
 * several times cheaper than charCodeAt over the same text.
 */
function countTextKeys(bytes: Uint8Array): number {
  let keys = 0;
  let inString = false;
  let afterString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) {
        inString = false;
        afterString = true;
      }
    } else if (c === 0x22) {
      inString = true;
    } else if (afterString) {
      if (c === 0x3a /* : */) {
        keys++;
        afterString = false;
      } else if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) {
        // Only JSON's whitespace may stand between a name and its colon.
        afterString = false;
      }
    }
  }
  return keys;
}

/** The own members of every object in a parsed value (depth is bounded by the decoder). */
function countValueKeys(value: unknown): number {
  let keys = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item !== null && typeof item === 'object') keys += countValueKeys(item);
    }
    return keys;
  }
  // for-in over own members rather than Object.keys: no array per object.
  const obj = value as Record<string, unknown>;
  for (const name in obj) {
    if (!Object.hasOwn(obj, name)) continue;
    keys++;
    const member = obj[name];
    if (member !== null && typeof member === 'object') keys += countValueKeys(member);
  }
  return keys;
}

/**
 * Whether the JSON text in `bytes` repeats a member name anywhere. JSON.parse makes
 * one own property per distinct name of an object (`__proto__` included), so a text
 * without repeats has exactly as many names as `parsed` has members; counting both
 * costs a fraction of findDuplicateFields, which then runs only for texts that do
 * repeat a name.
 */
export function hasDuplicateFields(bytes: Uint8Array, parsed: unknown): boolean {
  const members = parsed !== null && typeof parsed === 'object' ? countValueKeys(parsed) : 0;
  return countTextKeys(bytes) !== members;
}
