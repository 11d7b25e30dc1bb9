// Extended strings with cel-go's ext.Strings semantics as Kubernetes enables
// them (k8s.io/apiserver/pkg/cel/environment/base.go): every index is a code
// point, every out-of-range index is an error, and lowerAscii/upperAscii touch
// ASCII letters only. `format` lives in format.ts.
import { celError, codePoints } from '../values.js';
import { formatString } from './format.js';
import type { CelLibrary } from './library.js';

function toIndex(i: bigint, what: string, size: number): number {
  if (i < 0n || i > BigInt(size)) throw celError(`${what}: index out of range: ${i}`);
  return Number(i);
}

function charAt(s: string, i: bigint): string {
  const cps = codePoints(s);
  return cps[toIndex(i, 'charAt', cps.length)] ?? '';
}

function indexOf(s: string, sub: string, from: bigint): bigint {
  const cps = codePoints(s);
  const start = toIndex(from, 'indexOf', cps.length);
  const needle = codePoints(sub);
  for (let i = start; i + needle.length <= cps.length; i++) {
    if (needle.every((c, j) => cps[i + j] === c)) return BigInt(i);
  }
  return -1n;
}

function lastIndexOf(s: string, sub: string, from?: bigint): bigint {
  const cps = codePoints(s);
  const start = from === undefined ? cps.length : toIndex(from, 'lastIndexOf', cps.length);
  const needle = codePoints(sub);
  for (let i = Math.min(start, cps.length - needle.length); i >= 0; i--) {
    if (needle.every((c, j) => cps[i + j] === c)) return BigInt(i);
  }
  return -1n;
}

function substring(s: string, start: bigint, end?: bigint): string {
  const cps = codePoints(s);
  const b = toIndex(start, 'substring', cps.length);
  const e = end === undefined ? cps.length : toIndex(end, 'substring', cps.length);
  if (b > e) throw celError(`substring: invalid range: start ${start} > end ${end}`);
  return cps.slice(b, e).join('');
}

/** Go's strings.SplitN: n == 0 gives [], n < 0 no limit, an empty separator splits code points. */
function split(s: string, sep: string, n: bigint): string[] {
  if (n === 0n) return [];
  const parts = sep === '' ? codePoints(s) : s.split(sep);
  if (n < 0n || BigInt(parts.length) <= n) return parts;
  const k = Number(n);
  const head = parts.slice(0, k - 1);
  return [...head, parts.slice(k - 1).join(sep)];
}

/** Go's strings.Replace: n < 0 replaces all; an empty `old` matches around every code point. */
function replace(s: string, old: string, rep: string, n: bigint): string {
  if (n === 0n || old === rep) return s;
  const limit = n < 0n ? Infinity : Number(n);
  const pieces = old === '' ? ['', ...codePoints(s), ''] : s.split(old);
  if (old === '') {
    let out = '';
    let count = 0;
    const cps = codePoints(s);
    for (let i = 0; i <= cps.length; i++) {
      if (count < limit) {
        out += rep;
        count++;
      }
      out += cps[i] ?? '';
    }
    return out;
  }
  let out = pieces[0]!;
  for (let i = 1; i < pieces.length; i++) out += (i <= limit ? rep : old) + pieces[i]!;
  return out;
}

const ASCII_UPPER = /[A-Z]/g;
const ASCII_LOWER = /[a-z]/g;

// Go's unicode.IsSpace: Latin-1 spaces plus the Unicode White_Space property
// (so U+0085 trims and U+FEFF, which JavaScript's \s includes, does not).
const SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]';
const TRIM = new RegExp(`^${SPACE}+|${SPACE}+$`, 'g');

function quote(s: string): string {
  let out = '"';
  for (const c of s) {
    switch (c) {
      case '\x07': out += '\\a'; break;
      case '\b': out += '\\b'; break;
      case '\f': out += '\\f'; break;
      case '\n': out += '\\n'; break;
      case '\r': out += '\\r'; break;
      case '\t': out += '\\t'; break;
      case '\v': out += '\\v'; break;
      case '\\': out += '\\\\'; break;
      case '"': out += '\\"'; break;
      default: {
        const cp = c.codePointAt(0)!;
        // A lone surrogate is JavaScript's trace of invalid UTF-8: Go writes U+FFFD.
        out += cp >= 0xd800 && cp <= 0xdfff ? '\ufffd' : c;
      }
    }
  }
  return `${out}"`;
}

class StringsNamespace {}

export const stringsLibrary: CelLibrary = {
  name: 'strings',
  overrides: ['lowerAscii', 'upperAscii', 'trim', 'indexOf', 'lastIndexOf', 'substring', 'split', 'join'],
  register(env) {
    const fn = (sig: string, h: (...args: never[]) => unknown): void => void env.registerFunction(sig, h);
    fn('string.charAt(int): string', charAt);
    fn('string.kapi_indexOf(string): int', (s: string, sub: string) => indexOf(s, sub, 0n));
    fn('string.kapi_indexOf(string, int): int', indexOf);
    fn('string.kapi_lastIndexOf(string): int', (s: string, sub: string) => lastIndexOf(s, sub));
    fn('string.kapi_lastIndexOf(string, int): int', lastIndexOf);
    fn('string.kapi_lowerAscii(): string', (s: string) => s.replace(ASCII_UPPER, (c) => c.toLowerCase()));
    fn('string.kapi_upperAscii(): string', (s: string) => s.replace(ASCII_LOWER, (c) => c.toUpperCase()));
    fn('string.replace(string, string): string', (s: string, a: string, b: string) => replace(s, a, b, -1n));
    fn('string.replace(string, string, int): string', replace);
    fn('string.kapi_split(string): list<string>', (s: string, sep: string) => split(s, sep, -1n));
    fn('string.kapi_split(string, int): list<string>', split);
    fn('string.kapi_substring(int): string', (s: string, b: bigint) => substring(s, b));
    fn('string.kapi_substring(int, int): string', substring);
    fn('string.kapi_trim(): string', (s: string) => s.replace(TRIM, ''));
    fn('string.reverse(): string', (s: string) => codePoints(s).reverse().join(''));
    fn('list<string>.kapi_join(): string', (l: string[]) => l.join(''));
    fn('list<string>.kapi_join(string): string', (l: string[], sep: string) => l.join(sep));
    fn('string.format(list<dyn>): string', formatString);
    // `strings.quote` is a namespaced global: the namespace is a constant whose
    // receiver methods are the namespace's functions (how the base library does `cel.bind`).
    env.registerType('kapi.StringsNamespace', StringsNamespace);
    env.registerConstant('strings', 'kapi.StringsNamespace', new StringsNamespace());
    fn('kapi.StringsNamespace.quote(string): string', (_ns: StringsNamespace, s: string) => quote(s));
  },
};
