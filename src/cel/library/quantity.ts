// Kubernetes' quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go):
// quantity(), isQuantity(), and on a Quantity isInteger, asInteger,
// asApproximateFloat, sign, add/sub (Quantity or int), isLessThan,
// isGreaterThan, compareTo; `==` by value. Parsing and arithmetic are the
// shared exact implementation in src/schema/quantity.ts.
import {
  addQuantities, compareQuantities, isQuantity, parseQuantity, quantityAsApproximateFloat, quantityAsInt64,
  quantityFromInt, quantitySign, subtractQuantities, QuantityParseError, QuantityRangeError, type Quantity,
} from '../../schema/quantity.js';
import { celError } from '../values.js';
import type { CelLibrary } from './library.js';

export const QUANTITY_TYPE = 'kubernetes.Quantity';

/** A quantity as a CEL value. */
export class CelQuantity {
  constructor(readonly q: Quantity) {}
}

function toQuantity(s: string): CelQuantity {
  try {
    return new CelQuantity(parseQuantity(s));
  } catch (err) {
    if (err instanceof QuantityParseError || err instanceof QuantityRangeError) throw celError(err.message);
    throw err;
  }
}

/** Arithmetic that would build an absurd number of digits is a CEL error, not a hang. */
function arithmetic(op: () => Quantity): CelQuantity {
  try {
    return new CelQuantity(op());
  } catch (err) {
    if (err instanceof QuantityRangeError) throw celError(err.message);
    throw err;
  }
}

function asInteger(x: CelQuantity): bigint {
  const v = quantityAsInt64(x.q);
  if (v === undefined) throw celError('cannot convert value to integer');
  return v;
}

export const quantityLibrary: CelLibrary = {
  name: 'kubernetes.quantity',
  register(env) {
    const fn = (sig: string, h: (...args: never[]) => unknown): void => void env.registerFunction(sig, h);
    const Q = QUANTITY_TYPE;
    env.registerType(Q, CelQuantity);
    fn(`quantity(string): ${Q}`, toQuantity);
    fn('isQuantity(string): bool', isQuantity);
    fn(`${Q}.sign(): int`, (x: CelQuantity) => BigInt(quantitySign(x.q)));
    fn(`${Q}.isInteger(): bool`, (x: CelQuantity) => quantityAsInt64(x.q) !== undefined);
    fn(`${Q}.asInteger(): int`, asInteger);
    fn(`${Q}.asApproximateFloat(): double`, (x: CelQuantity) => quantityAsApproximateFloat(x.q));
    fn(`${Q}.add(${Q}): ${Q}`, (x: CelQuantity, y: CelQuantity) => arithmetic(() => addQuantities(x.q, y.q)));
    fn(`${Q}.add(int): ${Q}`, (x: CelQuantity, y: bigint) => arithmetic(() => addQuantities(x.q, quantityFromInt(y))));
    fn(`${Q}.sub(${Q}): ${Q}`, (x: CelQuantity, y: CelQuantity) => arithmetic(() => subtractQuantities(x.q, y.q)));
    fn(`${Q}.sub(int): ${Q}`, (x: CelQuantity, y: bigint) => arithmetic(() => subtractQuantities(x.q, quantityFromInt(y))));
    fn(`${Q}.isLessThan(${Q}): bool`, (x: CelQuantity, y: CelQuantity) => compareQuantities(x.q, y.q) < 0);
    fn(`${Q}.isGreaterThan(${Q}): bool`, (x: CelQuantity, y: CelQuantity) => compareQuantities(x.q, y.q) > 0);
    fn(`${Q}.compareTo(${Q}): int`, (x: CelQuantity, y: CelQuantity) => BigInt(compareQuantities(x.q, y.q)));
    env.registerOperator(`${Q} == ${Q}`, (x: CelQuantity, y: CelQuantity) => compareQuantities(x.q, y.q) === 0);
  },
};
