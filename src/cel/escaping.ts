// Property names as CEL identifiers, with Kubernetes' escaping rules
// (k8s.io/apiserver/pkg/cel/escaping.go): `__` → `__underscores__`, `.` → `__dot__`,
// `-` → `__dash__`, `/` → `__slash__`, and a name that is exactly a CEL reserved
// word → `__<word>__`. Names outside `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*` cannot be
// reached from CEL at all (escapePropertyName returns undefined).

// Reserved words of the CEL lexer (cel-spec langdef "Syntax"); 'namespace' is one,
// which is why Kubernetes rules write `self.__namespace__`.
const RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

const ALLOWED = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

export function escapePropertyName(name: string): string | undefined {
  if (!ALLOWED.test(name)) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  return name.replace(/__|[./-]/g, (m) => {
    switch (m) {
      case '__': return '__underscores__';
      case '.': return '__dot__';
      case '-': return '__dash__';
      default: return '__slash__';
    }
  });
}

/** The inverse of escapePropertyName; undefined for an invalid escape sequence. */
export function unescapePropertyName(escaped: string): string | undefined {
  let ok = true;
  const out = escaped.replace(/__[^_]+__/g, (m) => {
    const inner = m.slice(2, -2);
    switch (inner) {
      case 'underscores': return '__';
      case 'dot': return '.';
      case 'dash': return '-';
      case 'slash': return '/';
    }
    if (RESERVED.has(inner) && m.length === escaped.length) return inner;
    ok = false;
    return '';
  });
  return ok ? out : undefined;
}
