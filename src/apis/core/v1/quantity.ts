// resource.Quantity as a number, for comparisons only (QoS class, request <=
// limit, positive storage). Values keep their original string on the wire; an
// unparsable quantity yields undefined and the caller decides (decoding already
// rejects malformed quantities in kube, so this stays lenient).
const SUFFIXES: Readonly<Record<string, number>> = {
  '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

export function parseQuantity(q: unknown): number | undefined {
  if (typeof q === 'number') return q;
  if (typeof q !== 'string') return undefined;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/.exec(q.trim());
  if (m === null) return undefined;
  const base = Number(m[1]);
  if (m[2] !== undefined) return base * 10 ** Number(m[2].slice(1));
  return base * SUFFIXES[m[3] ?? '']!;
}
