// The one question the node authorizer asks of a list or watch's field selector:
// does it require `<field>=<value>` (`=` or `==`, kube's selection.Equals)? Read
// as kube's fields.ParseSelector reads it: terms split at unescaped commas, each at
// its first operator, values unescaped (`\\`, `\,`, `\=`). A selector that does not
// parse requires nothing, as kube's authorizer sees no requirements on an error.
// registry/selection.ts parses selectors for filtering; auth/ may not import it.

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

/** The unescaped value, or undefined when kube's UnescapeValue would refuse it. */
function unescape(value: string): string | undefined {
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

interface Requirement {
  readonly field: string;
  readonly equals: boolean;
  readonly value: string;
}

function parse(selector: string): Requirement[] | undefined {
  const reqs: Requirement[] = [];
  for (const term of splitTerms(selector)) {
    if (term === '') continue;
    const m = /^(.*?)(!=|==|=)(.*)$/s.exec(term);
    if (m === null) return undefined;
    const value = unescape(m[3]!);
    if (value === undefined) return undefined;
    reqs.push({ field: m[1]!, equals: m[2] !== '!=', value });
  }
  return reqs;
}

export function requiresField(selector: string | undefined, field: string, value: string): boolean {
  if (selector === undefined) return false;
  return (parse(selector) ?? []).some((r) => r.equals && r.field === field && r.value === value);
}
