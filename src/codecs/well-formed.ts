// Go's JSON decoder never yields a lone UTF-16 surrogate: `"\ud800"` decodes to
// U+FFFD, as does any invalid UTF-8. JSON.parse keeps the lone surrogate, which a
// name, a URL or a header built from it then carries (encodeURIComponent throws on
// one). Decoders call this after parsing so the value holds what kube's would.
// Only bodies whose text escapes a surrogate can hold one (raw invalid UTF-8 is
// already U+FFFD after Buffer.toString), so the walk runs only after a cheap test.

/** `\uD800`–`\uDFFF` written as an escape: the only way a lone surrogate gets in. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

export function mayHoldLoneSurrogate(text: string): boolean {
  return SURROGATE_ESCAPE.test(text);
}

/** U+FFFD for every lone surrogate in strings and keys; depth is bounded by the decoder. */
export function toWellFormed(value: unknown): unknown {
  if (typeof value === 'string') return wellFormedString(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = toWellFormed(value[i]);
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // defineProperty: a key named __proto__ stays data.
    Object.defineProperty(out, wellFormedString(key), { value: toWellFormed((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export function wellFormedString(s: string): string {
  // String.prototype.isWellFormed/toWellFormed: ES2024, in Node 20's V8.
  const str = s as unknown as { isWellFormed(): boolean; toWellFormed(): string };
  return str.isWellFormed() ? s : str.toWellFormed();
}
