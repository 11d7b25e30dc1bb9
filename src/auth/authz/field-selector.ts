// Field selectors as the authorizers read them (kube's fields.ParseSelector): terms
// split at unescaped commas, each at its first operator (`!=`, `==`, `=`), values
// unescaped (`\\`, `\,`, `\=`); a selector that does not parse is undefined, which
// the authorizers read as no requirements, as kube's do on a parse error. A parser
// beside registry/selection.ts's because auth/ may not import registry/; when that
// one moves to schema/, this one should go.

export interface FieldRequirement {
  readonly field: string;
  /** `=` or `==` (kube's selection.Equals); false for `!=`. */
  readonly equals: boolean;
  readonly value: string;
}

function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (escaped) escaped = false;
    else if (c === '\\') escaped = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** fields.UnescapeValue; undefined where kube's parser fails. */
function unescapeValue(value: string): string | undefined {
  let out = '';
  let escaped = false;
  for (const c of value) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=') return undefined;
      out += c;
      escaped = false;
    } else if (c === '\\') escaped = true;
    else if (c === ',' || c === '=') return undefined;
    else out += c;
  }
  return escaped ? undefined : out;
}

/** The requirements, in the selector's order or (`sorted`) in fields.ParseSelector's sorted term order. */
export function parseFieldSelector(selector: string, opts: { readonly sorted?: boolean } = {}): FieldRequirement[] | undefined {
  const terms = splitTerms(selector);
  if (opts.sorted === true) terms.sort();
  const out: FieldRequirement[] = [];
  for (const term of terms) {
    if (term === '') continue;
    const m = /^(.*?)(!=|==|=)(.*)$/s.exec(term);
    const value = m === null ? undefined : unescapeValue(m[3]!);
    if (m === null || value === undefined) return undefined;
    out.push({ field: m[1]!, equals: m[2] !== '!=', value });
  }
  return out;
}
