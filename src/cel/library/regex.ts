// Regular expressions with RE2 semantics: `matches` (cel-go standard library),
// `find` and `findAll` (Kubernetes regex library, k8s.io/apiserver/pkg/cel/library/regex.go).
// re2js is a linear-time RE2 port: backreferences and lookaround are syntax
// errors there exactly as in Go's regexp, so nothing here can backtrack.
import { RE2JS } from 're2js';
import { celError } from '../values.js';
import type { CelLibrary } from './library.js';

const CACHE_LIMIT = 512;
const compiled = new Map<string, RE2JS>();

/**
 * The compiled pattern, from a small bounded cache: rules run the same few
 * patterns millions of times, and compiling dominates a short match.
 * Throws the RE2 syntax error as a CEL error.
 */
export function compileRegex(pattern: string): RE2JS {
  const hit = compiled.get(pattern);
  if (hit !== undefined) return hit;
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (err) {
    throw celError(`invalid regular expression ${JSON.stringify(pattern)}: ${(err as Error).message}`);
  }
  if (compiled.size >= CACHE_LIMIT) compiled.delete(compiled.keys().next().value as string);
  compiled.set(pattern, re);
  return re;
}

/** Undefined when the pattern compiles, else RE2's reason (used by the compile-time check). */
export function regexSyntaxError(pattern: string): string | undefined {
  try {
    compileRegex(pattern);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

function find(s: string, pattern: string): string {
  const m = compileRegex(pattern).matcher(s);
  return m.find() ? (m.group() ?? '') : '';
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  const out: string[] = [];
  if (limit === 0n) return out;
  const m = compileRegex(pattern).matcher(s);
  while (m.find()) {
    out.push(m.group() ?? '');
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}

export const regexLibrary: CelLibrary = {
  name: 'regex',
  // `matches` replaces the base library's JavaScript RegExp version (see rewrite.ts).
  overrides: ['matches'],
  register(env) {
    env.registerFunction('string.kapi_matches(string): bool', (s: string, p: string) => compileRegex(p).matcher(s).find());
    env.registerFunction('kapi_matches(string, string): bool', (s: string, p: string) => compileRegex(p).matcher(s).find());
    env.registerFunction('string.find(string): string', find);
    env.registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1n));
    env.registerFunction('string.findAll(string, int): list<string>', findAll);
  },
};
