// Go's %q (strconv.Quote), because kube's 403 messages quote user, resource and
// namespace with it and clients compare those texts: printable characters stay,
// quotes and backslashes are escaped, control characters become \n, \x01, \u0085.
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/** Printable ASCII without a quote or backslash: what Go quotes unchanged, and nearly every name is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

export function goQuote(text: string): string {
  if (PLAIN.test(text)) return `"${text}"`;
  let out = '"';
  for (const ch of text) {
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) out += short;
    else if (PRINTABLE.test(ch)) out += ch;
    else {
      const code = ch.codePointAt(0)!;
      if (code < 0x80) out += `\\x${hex(code, 2)}`;
      else if (code <= 0xffff) out += `\\u${hex(code, 4)}`;
      else out += `\\U${hex(code, 8)}`;
    }
  }
  return `${out}"`;
}
