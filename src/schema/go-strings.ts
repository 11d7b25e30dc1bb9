// Go's order of strings (sort.Strings, strings.Compare): by UTF-8 bytes, which kube's
// sorted outputs (pruned paths, JSON map keys, field-set members) follow.

/**
 * Go's string order (sort.Strings): by UTF-8 bytes, which is code point order.
 * UTF-16 order differs only where a surrogate (a code point past U+FFFF) meets
 * U+E000–U+FFFF, which it must follow.
 */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
