// YAML as kube-apiserver reads it (sigs.k8s.io/yaml over goyaml v2): YAML 1.1-style
// scalars, tags goyaml ignores or enforces, bounded alias expansion, self-containing
// anchors, nesting depth, and duplicate keys for strict decoding. Expected values are
// what goyaml v2's resolve.go and decode.go produce for the same text.
import { describe, expect, test } from 'vitest';
import { MAX_DEPTH } from '../../src/codecs/depth.js';
import { decodeYaml, encodeYaml } from '../../src/codecs/yaml.js';
import { isStatusError } from '../../src/errors/status-error.js';

function decodeError(input: string): unknown {
  try {
    decodeYaml(Buffer.from(input));
  } catch (err) {
    return isStatusError(err) ? err.toStatus() : err;
  }
  return undefined;
}

describe('goyaml v2 scalar resolution', () => {
  const cases: { name: string; input: string; want: unknown }[] = [
    { name: '0o17 is octal 15 (the issue: metadata.name becomes a number)', input: 'name: 0o17', want: 15 },
    { name: 'leading zero is octal', input: 'name: 017', want: 15 },
    { name: 'hex', input: 'name: 0x1F', want: 31 },
    { name: 'negative hex', input: 'name: -0x1F', want: -31 },
    { name: 'binary', input: 'name: 0b101', want: 5 },
    { name: 'underscores are dropped', input: 'name: 1_000', want: 1000 },
    { name: '08 is no octal but a decimal float', input: 'name: 08', want: 8 },
    { name: 'exponent float', input: 'name: 1e3', want: 1000 },
    { name: 'leading-dot float', input: 'name: .5', want: 0.5 },
    { name: 'trailing-dot float', input: 'name: 1.', want: 1 },
    { name: 'out-of-range hex stays a string', input: 'name: 0xFFFFFFFFFFFFFFFFF', want: '0xFFFFFFFFFFFFFFFFF' },
    { name: 'yes', input: 'name: yes', want: true },
    { name: 'Yes', input: 'name: Yes', want: true },
    { name: 'YES', input: 'name: YES', want: true },
    { name: 'y', input: 'name: y', want: true },
    { name: 'on', input: 'name: On', want: true },
    { name: 'n', input: 'name: n', want: false },
    { name: 'off', input: 'name: OFF', want: false },
    { name: 'mixed case is a string', input: 'name: yEs', want: 'yEs' },
    { name: 'tilde is null', input: 'name: ~', want: null },
    { name: 'Null is null', input: 'name: Null', want: null },
    { name: 'timestamps stay strings', input: 'name: 2001-12-14t21:59:43.10-05:00', want: '2001-12-14t21:59:43.10-05:00' },
    { name: 'date stays a string', input: 'name: 2001-12-14', want: '2001-12-14' },
    { name: 'quoted scalars are strings', input: 'name: "0o17"', want: '0o17' },
    { name: 'single-quoted yes is a string', input: "name: 'yes'", want: 'yes' },
    { name: '!!str keeps the text', input: 'name: !!str 0x1F', want: '0x1F' },
    { name: '!!int resolves', input: 'name: !!int 0x1F', want: 31 },
    { name: '!!float takes an int', input: 'name: !!float 1', want: 1 },
    { name: '!!binary is decoded to a string', input: 'name: !!binary aGVsbG8=', want: 'hello' },
    { name: 'a local tag is ignored', input: 'name: !foo bar', want: 'bar' },
    { name: 'an unknown !! tag is ignored', input: 'name: !!js/function "x"', want: 'x' },
    { name: 'a tagged mapping stays a mapping', input: 'name: !!set {a: 1}', want: { a: 1 } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(decodeYaml(Buffer.from(c.input))).toEqual({ name: c.want });
    });
  }

  test('a key goyaml reads as a boolean becomes "true", as sigs.k8s.io/yaml writes bool keys', () => {
    expect(decodeYaml(Buffer.from('y: 1\n'))).toEqual({ true: 1 });
  });

  const encodeCases: { name: string; input: string }[] = [
    { name: 'yes', input: 'yes' },
    { name: 'on', input: 'on' },
    { name: 'y', input: 'y' },
    { name: '0o17', input: '0o17' },
    { name: '017', input: '017' },
    { name: '1_000', input: '1_000' },
    { name: '~', input: '~' },
    { name: '.inf', input: '.inf' },
  ];
  for (const c of encodeCases) {
    test(`encode quotes the string ${c.name} so it reads back as a string`, () => {
      expect(decodeYaml(encodeYaml({ v: c.input }))).toEqual({ v: c.input });
    });
  }
});

/** `lol` levels of nine aliases each: the classic billion laughs, here about 400 bytes under data:. */
function billionLaughs(levels: number): string {
  let doc = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\ndata:\n  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let i = 1; i < levels; i++) {
    const name = String.fromCharCode(97 + i);
    const prev = String.fromCharCode(96 + i);
    doc += `  ${name}: &${name} [${Array.from({ length: 9 }, () => `*${prev}`).join(',')}]\n`;
  }
  return doc;
}

describe('YAML failures are 400 with goyaml text', () => {
  const cases: { name: string; input: string; want: string }[] = [
    { name: 'billion laughs', input: billionLaughs(9), want: 'error converting YAML to JSON: yaml: document contains excessive aliasing' },
    { name: 'billion laughs after a byte-order mark', input: `\ufeff${billionLaughs(9)}`, want: 'error converting YAML to JSON: yaml: document contains excessive aliasing' },
    { name: 'self alias in a flow sequence', input: 'a: &a [*a]', want: "error converting YAML to JSON: yaml: anchor 'a' value contains itself" },
    { name: 'self alias in a block mapping', input: 'a: &x\n  b: *x\n', want: "error converting YAML to JSON: yaml: anchor 'x' value contains itself" },
    { name: 'a tag the value does not fit', input: 'a: !!int abc', want: 'error converting YAML to JSON: yaml: cannot decode !!str `abc` as a !!int' },
    { name: 'bad base64', input: 'a: !!binary "@@@"', want: 'error converting YAML to JSON: yaml: !!binary value contains invalid base64 data' },
    { name: '.inf cannot be JSON', input: 'a: .inf', want: 'error converting YAML to JSON: json: unsupported value: +Inf' },
    { name: '-.inf cannot be JSON', input: 'a: -.Inf', want: 'error converting YAML to JSON: json: unsupported value: -Inf' },
    { name: '.nan cannot be JSON', input: 'a: .NaN', want: 'error converting YAML to JSON: json: unsupported value: NaN' },
    { name: 'flow nesting past the bound', input: `${'['.repeat(MAX_DEPTH + 1)}${']'.repeat(MAX_DEPTH + 1)}`, want: `error converting YAML to JSON: yaml: exceeded max depth of ${MAX_DEPTH}` },
    { name: 'flow nesting 100,000 deep', input: `a: ${'['.repeat(100_000)}${']'.repeat(100_000)}`, want: `error converting YAML to JSON: yaml: exceeded max depth of ${MAX_DEPTH}` },
    {
      name: 'aliases nesting deeper than the text',
      input: `a: &a ${'['.repeat(600)}${']'.repeat(600)}\nb: ${'['.repeat(600)}*a${']'.repeat(600)}\n`,
      want: `error converting YAML to JSON: yaml: exceeded max depth of ${MAX_DEPTH}`,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(decodeError(c.input)).toMatchObject({ code: 400, reason: 'BadRequest', message: c.want });
    });
  }

  test('nesting exactly at the bound is accepted', () => {
    const input = `${'['.repeat(MAX_DEPTH)}1${']'.repeat(MAX_DEPTH)}`;
    expect(decodeError(input)).toBeUndefined();
  });

  test('moderate aliasing is expanded into independent copies', () => {
    const got = decodeYaml(Buffer.from('a: &x {b: 1}\nc: *x\n')) as { a: { b: number }; c: { b: number } };
    expect(got).toEqual({ a: { b: 1 }, c: { b: 1 } });
    expect(got.a).not.toBe(got.c);
  });

  test('billion laughs with fewer levels stays within goyaml ratio and decodes', () => {
    // 9^3 = 729 leaves from 3 levels: fewer than 1,000 decode steps, never excessive.
    expect(decodeError(billionLaughs(3))).toBeUndefined();
  });
});

describe('YAML duplicate keys (strictErrors)', () => {
  const cases: { name: string; input: string; want: string[] }[] = [
    { name: 'none', input: 'a: 1\nb: 2\n', want: [] },
    { name: 'top level', input: 'a: 1\nb: 2\na: 3\n', want: ['yaml: unmarshal errors:\n  line 3: key "a" already set in map'] },
    {
      name: 'nested, value on the next line',
      input: 'a: 1\nc:\n  x: 1\n  x:\n    y: 2\na: 3\n',
      want: ['yaml: unmarshal errors:\n  line 5: key "x" already set in map\n  line 6: key "a" already set in map'],
    },
    { name: 'flow mapping', input: '{a: 1, a: 2}', want: ['yaml: unmarshal errors:\n  line 1: key "a" already set in map'] },
    { name: 'int keys', input: '1: a\n1: b\n', want: ['yaml: unmarshal errors:\n  line 2: key 1 already set in map'] },
    { name: 'an int and a string key differ', input: '1: a\n"1": b\n', want: [] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const strictErrors: string[] = [];
      decodeYaml(Buffer.from(c.input), { strictErrors });
      expect(strictErrors).toEqual(c.want);
    });
  }

  test('nothing is collected without a collector, and the last value wins', () => {
    expect(decodeYaml(Buffer.from('a: 1\na: 2\n'))).toEqual({ a: 2 });
  });
});
