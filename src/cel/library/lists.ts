// List functions: Kubernetes' lists library (isSorted, sum, min, max, indexOf,
// lastIndexOf; k8s.io/apiserver/pkg/cel/library/lists.go) and cel-go's ext.Lists
// (slice, flatten, distinct, sort) which Kubernetes enables in its base environment.
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celEquals, celError, checkInt64, compareValues } from '../values.js';
import type { CelLibrary } from './library.js';

function isSorted(l: readonly unknown[]): boolean {
  for (let i = 1; i < l.length; i++) if (compareValues(l[i - 1], l[i]) > 0) return false;
  return true;
}

function extreme(name: 'min' | 'max', l: readonly unknown[]): unknown {
  if (l.length === 0) throw celError(`${name} called on empty list`);
  let best = l[0];
  for (const v of l) {
    const c = compareValues(v, best);
    if (name === 'min' ? c < 0 : c > 0) best = v;
  }
  return best;
}

function indexOf(l: readonly unknown[], v: unknown): bigint {
  for (let i = 0; i < l.length; i++) if (celEquals(l[i], v)) return BigInt(i);
  return -1n;
}

function lastIndexOf(l: readonly unknown[], v: unknown): bigint {
  for (let i = l.length - 1; i >= 0; i--) if (celEquals(l[i], v)) return BigInt(i);
  return -1n;
}

function slice(l: readonly unknown[], start: bigint, end: bigint): unknown[] {
  if (start < 0n || end < 0n) throw celError(`cannot slice(${start}, ${end}), negative indexes not supported`);
  if (start > end) throw celError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
  if (end > BigInt(l.length)) throw celError(`cannot slice(${start}, ${end}), list is length ${l.length}`);
  return l.slice(Number(start), Number(end));
}

function flatten(l: readonly unknown[], depth: bigint): unknown[] {
  if (depth < 0n) throw celError('level must be non-negative');
  const out: unknown[] = [];
  for (const v of l) {
    if (Array.isArray(v) && depth > 0n) out.push(...flatten(v, depth - 1n));
    else out.push(v);
  }
  return out;
}

function distinct(l: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of l) if (!out.some((o) => celEquals(o, v))) out.push(v);
  return out;
}

function sort(l: readonly unknown[]): unknown[] {
  return [...l].sort(compareValues);
}

export const listsLibrary: CelLibrary = {
  name: 'lists',
  // indexOf/lastIndexOf share their names with the string overloads in strings.ts.
  overrides: [],
  register(env) {
    const fn = (sig: string, h: (...args: never[]) => unknown): void => void env.registerFunction(sig, h);
    fn('list<A>.isSorted(): bool', isSorted);
    fn('list<int>.sum(): int', (l: bigint[]) => checkInt64(l.reduce((a, b) => a + b, 0n), 'sum'));
    fn('list<uint>.sum(): uint', (l: UnsignedInt[]) => new UnsignedInt(l.reduce((a, b) => a + b.value, 0n)));
    fn('list<double>.sum(): double', (l: number[]) => l.reduce((a, b) => a + b, 0));
    fn('list<google.protobuf.Duration>.sum(): google.protobuf.Duration', (l: Duration[]) =>
      l.reduce((a, b) => a.addDuration(b), new Duration(0n, 0)),
    );
    fn('list<A>.min(): A', (l: unknown[]) => extreme('min', l));
    fn('list<A>.max(): A', (l: unknown[]) => extreme('max', l));
    fn('list<A>.kapi_indexOf(A): int', indexOf);
    fn('list<A>.kapi_lastIndexOf(A): int', lastIndexOf);
    fn('list<A>.slice(int, int): list<A>', slice);
    fn('list<dyn>.flatten(): list<dyn>', (l: unknown[]) => flatten(l, 1n));
    fn('list<dyn>.flatten(int): list<dyn>', flatten);
    fn('list<A>.distinct(): list<A>', distinct);
    fn('list<A>.sort(): list<A>', sort);
  },
};
