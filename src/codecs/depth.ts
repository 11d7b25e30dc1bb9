// The nesting bound every decoded body is held to, checked once at decode so that
// everything after it (clone, patch engines, schema walks, JSON.stringify when the
// object is stored or answered) may recurse without blowing the stack.
//
// kube-apiserver's decoders stop at 10,000 levels (Go's encoding/json and
// sigs.k8s.io/json: `maxNestingDepth = 10000` in scanner.go, error "invalid
// character '[' exceeded max depth"; goyaml v2: "exceeded max depth of 10000").
// We cannot honour that number: with Node's default stack V8's own JSON.stringify
// gives up at about 4,100 levels, js-yaml's dumper at about 2,300, and our
// recursive walks (merge patch, strategic merge, %v rendering) at 2,200–3,700
// (measured on Node 20, default --stack-size). So kapi refuses at MAX_DEPTH, a
// tenth of kube's bound, with kube's own text for an over-deep document; no real
// object comes near either number (built-in schemas are < 40 levels deep).
import { badRequest, type StatusError } from '../errors/status-error.js';

/** kube-apiserver's decoder bound (sigs.k8s.io/json scanner.go maxNestingDepth). */
export const KUBE_MAX_DEPTH = 10000;

/**
 * The deepest nesting of objects and arrays kapi accepts from a client: a
 * document's top-level object is depth 1, scalars add nothing.
 */
export const MAX_DEPTH = 1000;

/**
 * The first container, in document order, that lies deeper than MAX_DEPTH: the
 * character Go's scanner would name ('{' or '['), or undefined when the value is
 * within bounds. Iterative, so it is safe on any input; cost is one visit per
 * container (scalars are skipped), about a microsecond for a 2 KiB ConfigMap.
 */
export function tooDeepAt(value: unknown, limit: number = MAX_DEPTH): '{' | '[' | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const d = depths.pop()!;
    if (d > limit) return Array.isArray(v) ? '[' : '{';
    // Children are pushed in reverse so the walk meets them in document order.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const c: unknown = v[i];
        if (c !== null && typeof c === 'object') {
          stack.push(c);
          depths.push(d + 1);
        }
      }
    } else {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const c: unknown = (v as Record<string, unknown>)[keys[i]!];
        if (c !== null && typeof c === 'object') {
          stack.push(c);
          depths.push(d + 1);
        }
      }
    }
  }
  return undefined;
}

/**
 * Whether a JSON text has enough opening brackets to nest past `limit` at all
 * (brackets inside strings only make it answer true more often). Counting with
 * native indexOf is about ten times cheaper than walking the parsed value, so the
 * walk runs only for the rare body that could fail it.
 */
export function mayBeTooDeep(text: string, limit: number = MAX_DEPTH): boolean {
  let count = 0;
  for (const open of ['{', '[']) {
    for (let i = text.indexOf(open); i >= 0; i = text.indexOf(open, i + 1)) {
      if (++count > limit) return true;
    }
  }
  return false;
}

/** How many containers deep `value` nests (a scalar is 0, `{}` is 1); iterative. */
export function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let max = 0;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const d = depths.pop()!;
    if (d > max) max = d;
    const children: unknown[] = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) {
      if (c !== null && typeof c === 'object') {
        stack.push(c);
        depths.push(d + 1);
      }
    }
  }
  return max;
}

/** Go's encoding/json text for an over-deep document (scanner.error + quoteChar). */
export function exceededMaxDepth(char: '{' | '['): string {
  return `invalid character '${char}' exceeded max depth`;
}

/**
 * Throws 400 when `value` nests deeper than MAX_DEPTH. The message is the JSON
 * decoder's, behind the prefix the caller's decoder puts on parse errors (kube's
 * body decoder says "couldn't get version/kind; json parse error: ").
 */
export function checkDepth(value: unknown, opts: { prefix?: string } = {}): void {
  const at = tooDeepAt(value);
  if (at !== undefined) throw depthError(at, opts.prefix ?? '');
}

export function depthError(char: '{' | '[', prefix: string): StatusError {
  return badRequest(`${prefix}${exceededMaxDepth(char)}`);
}
