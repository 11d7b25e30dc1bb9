// resource.Quantity as a number, for comparisons only (QoS class, request <=
// limit, positive storage). Values keep their original string on the wire; the
// parsing is schema/quantity.ts's (kube's ParseQuantity), shared with typed
// decoding and CEL. An unparsable quantity yields undefined and the caller decides
// (typed decoding already refuses malformed quantities, as kube's decoder does).
import { parseQuantity as parseExact, quantityAsApproximateFloat } from '../../../schema/quantity.js';

export function parseQuantity(q: unknown): number | undefined {
  if (typeof q === 'number') return q;
  if (typeof q !== 'string') return undefined;
  try {
    return quantityAsApproximateFloat(parseExact(q.trim()));
  } catch {
    // Malformed or out of range: not a number to compare with.
    return undefined;
  }
}
