// A rule's fieldPath (`.spec.replicas`, `.labels['app.kubernetes.io/name']`): the
// JSON path kube accepts there (apiextensions pkg/apiserver/schema/cel
// ValidFieldPath), resolved against the schema node the rule is attached to.
// Member names step into properties, names on a map into its values; quoted
// names may use the escapes `\a \b \f \n \r \t \v \' \\`.
import { FieldPath } from '../../schema/field-errors.js';
import type { Structural } from '../../schema/structural/index.js';

export type FieldPathResult =
  | { readonly path: FieldPath; readonly node: Structural | undefined; readonly error?: undefined }
  | { readonly error: string; readonly path?: undefined; readonly node?: undefined };

const QUOTE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['a', '\x07'], ['b', '\b'], ['f', '\f'], ['n', '\n'], ['r', '\r'], ['t', '\t'], ['v', '\v'], ["'", "'"], ['\\', '\\'],
]);

/**
 * The path `jsonPath` names below `node` (relative: `.a['b']` is `a[b]` when a is
 * a map, `a.b` when it is an object), or why it names nothing. A step into a map
 * whose values have no schema leaves `node` undefined; a further step fails.
 */
export function validFieldPath(jsonPath: string, node: Structural, options: { allowArrayNotation?: boolean } = {}): FieldPathResult {
  const tokens = tokenize(jsonPath);
  let path = FieldPath.ROOT;
  let at: Structural | undefined = node;
  const step = (name: string): string | undefined => {
    if (at?.properties !== undefined) {
      const next = at.properties.get(name);
      if (next === undefined) return 'does not refer to a valid field';
      path = path.child(name);
      at = next;
      return undefined;
    }
    if (at?.additionalProperties !== undefined) {
      path = path.key(name);
      at = typeof at.additionalProperties === 'object' ? at.additionalProperties : undefined;
      return undefined;
    }
    return 'does not refer to a valid field';
  };
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (tok === '[') {
      if (options.allowArrayNotation === false) return { error: 'array notation is not allowed' };
      const quoted = tokens[++i];
      if (quoted === undefined) return { error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return { error: `expected single quoted string but got ${quoted}` };
      const name = unescapeQuoted(quoted.slice(1, -1));
      if (name.error !== undefined) return { error: `invalid string literal: ${name.error}` };
      const failed = step(name.value);
      if (failed !== undefined) return { error: failed };
      const close = tokens[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = tokens[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const failed = step(name);
      if (failed !== undefined) return { error: failed };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { path, node: at };
}

/**
 * The tokens kube's scanner splits a path into: each of `.`, `[`, `]` alone, a
 * single-quoted string through its closing quote (one not after a backslash; an
 * unclosed one runs to the end), and any other run of characters.
 */
function tokenize(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    let end: number;
    if (c === "'") {
      end = text.length;
      for (let j = i + 1; j < text.length; j++) {
        if (text[j] === "'" && text[j - 1] !== '\\') {
          end = j + 1;
          break;
        }
      }
    } else if (c === '.' || c === '[' || c === ']') {
      end = i + 1;
    } else {
      end = i;
      while (end < text.length && !'.[]'.includes(text[end]!)) end++;
    }
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

function unescapeQuoted(s: string): { value: string; error?: undefined } | { error: string; value?: undefined } {
  let error: string | undefined;
  const value = s.replace(/\\[\s\S]/g, (m) => {
    const known = QUOTE_ESCAPES.get(m[1]!);
    // Like kube, the last bad escape is the one reported.
    if (known === undefined) error = `invalid escape char ${m}`;
    return known ?? '';
  });
  return error === undefined ? { value } : { error };
}
