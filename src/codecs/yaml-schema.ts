// How kube-apiserver reads YAML scalars, as a js-yaml schema. kube converts YAML
// to JSON with sigs.k8s.io/yaml over goyaml v2, decoding into interface{}; goyaml
// v2 resolves plain scalars YAML 1.1-style (resolve.go): yes/no/on/off/y/n in
// three spellings are booleans, integers take Go's strconv.ParseInt base-0 syntax
// after dropping underscores (0x1F, 0o17, 017, 0b101, 1_000), then ParseUint, then
// a decimal float; `.inf`/`.nan` are floats that JSON cannot carry (an error);
// timestamp-looking scalars stay strings (decode.go keeps them as strings when the
// target is interface{}); quoted scalars are always strings. Tags: !!str, !!int,
// !!float, !!bool, !!null, !!timestamp resolve as above or fail as goyaml does;
// !!binary is base64-decoded to a string; any other tag is ignored (the value is
// taken as written), as goyaml v2 ignores tags it cannot resolve.
import yaml from 'js-yaml';

const BOOLS: ReadonlyMap<string, boolean> = new Map([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map((s) => [s, true] as const),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map((s) => [s, false] as const),
]);
const NULLS: ReadonlySet<string> = new Set(['', '~', 'null', 'Null', 'NULL']);
const SPECIAL_FLOATS: ReadonlyMap<string, number> = new Map([
  ...['.nan', '.NaN', '.NAN'].map((s) => [s, Number.NaN] as const),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((s) => [s, Number.POSITIVE_INFINITY] as const),
  ...['-.inf', '-.Inf', '-.INF'].map((s) => [s, Number.NEGATIVE_INFINITY] as const),
]);

/** resolve.go's yamlStyleFloat. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** What strconv.ParseFloat accepts after a leading '.' (no underscores without a base prefix). */
const DOT_FLOAT = /^\.[0-9]+([eE][-+]?[0-9]+)?$/;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

export type Resolved =
  | { readonly tag: 'str'; readonly value: string }
  | { readonly tag: 'null'; readonly value: null }
  | { readonly tag: 'bool'; readonly value: boolean }
  | { readonly tag: 'int' | 'float'; readonly value: number };

const STR = (value: string): Resolved => ({ tag: 'str', value });

/** strconv.ParseInt(s, 0, 64), then ParseUint: undefined when neither accepts `s`. */
function parseGoInt(s: string): number | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (m === null) return undefined;
  const sign = m[1]!;
  let digits = m[2]!;
  // A leading zero alone means octal ("017"); BigInt wants the 0o spelling.
  if (/^0[0-7]+$/.test(digits)) digits = `0o${digits.slice(1)}`;
  const magnitude = BigInt(digits);
  const v = sign === '-' ? -magnitude : magnitude;
  if (v >= INT64_MIN && v <= INT64_MAX) return Number(v);
  // ParseUint takes no sign at all.
  if (sign === '' && v <= UINT64_MAX) return Number(v);
  return undefined;
}

/** goyaml v2's resolve() for a plain (unquoted, untagged) scalar. */
export function resolvePlain(s: string): Resolved {
  const first = s.length === 0 ? '' : s[0]!;
  if (s === '' || 'yYnNtTfFoO~'.includes(first)) {
    if (NULLS.has(s)) return { tag: 'null', value: null };
    const b = BOOLS.get(s);
    return b === undefined ? STR(s) : { tag: 'bool', value: b };
  }
  if (first === '.' || first === '+' || first === '-') {
    const special = SPECIAL_FLOATS.get(s);
    if (special !== undefined) return { tag: 'float', value: special };
  }
  if (first === '.') {
    const f = DOT_FLOAT.test(s) ? Number(s) : Number.NaN;
    return Number.isFinite(f) ? { tag: 'float', value: f } : STR(s);
  }
  if (first === '+' || first === '-' || (first >= '0' && first <= '9')) {
    // Timestamps would be tried first, but into interface{} they stay strings, and
    // nothing timestamp-shaped (2001-12-14) parses as a number below anyway.
    const plain = s.replaceAll('_', '');
    const i = parseGoInt(plain);
    if (i !== undefined) return { tag: 'int', value: i };
    if (YAML_STYLE_FLOAT.test(plain)) {
      const f = Number(plain);
      // ParseFloat's range error (1e400) leaves the scalar a string.
      if (Number.isFinite(f)) return { tag: 'float', value: f };
    }
    // Go's pre-1.13 spelling, kept by resolve.go; ParseInt above already takes 0b.
    return STR(s);
  }
  return STR(s);
}

/** `cannot decode !!str `abc` as a !!int`: goyaml's failure for a tag its value does not fit. */
export class TagMismatch extends Error {}

function explicit(tag: 'int' | 'float' | 'bool' | 'null', data: string): unknown {
  const r = resolvePlain(data);
  if (r.tag === tag) return r.value;
  if (tag === 'float' && r.tag === 'int') return r.value;
  throw new TagMismatch(`cannot decode !!${r.tag} \`${data}\` as a !!${tag}`);
}

const LONG = 'tag:yaml.org,2002:';

/** The one implicit type: every plain scalar goes through resolvePlain. */
let lastResolved: { readonly text: string; readonly r: Resolved } | undefined;
function resolveCached(data: string): Resolved {
  if (lastResolved?.text !== data) lastResolved = { text: data, r: resolvePlain(data) };
  return lastResolved.r;
}

const goPlain = new yaml.Type(`${LONG}goyaml-plain`, {
  kind: 'scalar',
  resolve: (data: unknown) => typeof data === 'string' && resolveCached(data).tag !== 'str',
  construct: (data: string) => resolveCached(data).value,
});

const scalarTag = (name: 'int' | 'float' | 'bool' | 'null'): yaml.Type =>
  new yaml.Type(`${LONG}${name}`, {
    kind: 'scalar',
    resolve: () => true,
    construct: (data: string | null) => explicit(name, data ?? ''),
  });

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const binary = new yaml.Type(`${LONG}binary`, {
  kind: 'scalar',
  resolve: () => true,
  construct: (data: string | null) => {
    // base64.StdEncoding skips line breaks only.
    const text = (data ?? '').replace(/[\r\n]/g, '');
    if (text.length % 4 !== 0 || !BASE64.test(text)) throw new TagMismatch('!!binary value contains invalid base64 data');
    return Buffer.from(text, 'base64').toString('utf8');
  },
});

const asString = (tag: string): yaml.Type =>
  new yaml.Type(tag, { kind: 'scalar', resolve: () => true, construct: (data: string | null) => data ?? '' });

// Tags goyaml does not resolve leave the node as written: a scalar stays the string
// it is, a mapping or sequence stays one. `multi` makes each a prefix match.
const ignoredTags: yaml.Type[] = ['!', 'tag:'].flatMap((prefix) => [
  new yaml.Type(prefix, { kind: 'scalar', multi: true, resolve: () => true, construct: (data: string | null) => data ?? '' }),
  new yaml.Type(prefix, { kind: 'sequence', multi: true, resolve: () => true, construct: (data: unknown[] | null) => data ?? [] }),
  new yaml.Type(prefix, { kind: 'mapping', multi: true, resolve: () => true, construct: (data: object | null) => data ?? {} }),
]);

// js-yaml exports its built-in types at run time; its typings omit them.
const MERGE = (yaml as unknown as { readonly types: { readonly merge: yaml.Type } }).types.merge;

/** The schema decodeYaml loads with. */
export const GO_YAML_SCHEMA: yaml.Schema = yaml.FAILSAFE_SCHEMA.extend({
  implicit: [goPlain, MERGE],
  explicit: [
    scalarTag('int'),
    scalarTag('float'),
    scalarTag('bool'),
    scalarTag('null'),
    asString(`${LONG}timestamp`),
    binary,
    ...ignoredTags,
  ],
});

/**
 * The schema encodeYaml dumps with: the core schema, plus goyaml's plain-scalar
 * rules as an implicit type so that the dumper quotes every string kube's reader
 * would take for something else ('yes', '0o17', '1_000', '~').
 */
export const GO_YAML_DUMP_SCHEMA: yaml.Schema = yaml.CORE_SCHEMA.extend({
  implicit: [
    new yaml.Type(`${LONG}goyaml-lookalike`, {
      kind: 'scalar',
      resolve: (data: unknown) => typeof data === 'string' && resolvePlain(data).tag !== 'str',
      construct: (data: string) => data,
    }),
  ],
});
