// Duplicate fields for strict decoding, in sigs.k8s.io/json's wording (its
// kubernetes_patch_test.go cases): `duplicate field "d.e.f"`, each path once.
import { describe, expect, test } from 'vitest';
import { decodeJson } from '../../src/codecs/json.js';
import { findDuplicateFields, MAX_STRICT_ERRORS } from '../../src/codecs/json-duplicates.js';

describe('findDuplicateFields', () => {
  const cases: { name: string; input: string; want: string[] }[] = [
    { name: 'none', input: '{"a":1,"b":{"a":1}}', want: [] },
    { name: 'sigs.k8s.io/json: duplicate untyped map', input: '{"a":"","b":"","a":"","b":"","c":{"c":"","c":""},"d":{"e":{"f":1,"f":1}},"e":[{"g":1,"g":1}]}', want: ['duplicate field "a"', 'duplicate field "b"', 'duplicate field "c.c"', 'duplicate field "d.e.f"', 'duplicate field "e[0].g"'] },
    { name: 'a path is reported once', input: '{"a":1,"a":2,"a":3}', want: ['duplicate field "a"'] },
    { name: 'second array element', input: '{"l":[{"x":1},{"y":1,"y":2}]}', want: ['duplicate field "l[1].y"'] },
    { name: 'keys inside string values are not keys', input: '{"a":"{\\"b\\":1,\\"b\\":2}","c":"\\\\"}', want: [] },
    { name: 'escaped keys compare decoded', input: '{"\\u0061":1,"a":2}', want: ['duplicate field "a"'] },
    { name: 'prototype names are ordinary keys', input: '{"__proto__":1,"__proto__":2,"toString":1,"toString":2}', want: ['duplicate field "__proto__"', 'duplicate field "toString"'] },
    { name: 'Go quoting of control characters', input: '{"a\\nb":1,"a\\nb":2}', want: ['duplicate field "a\\nb"'] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(findDuplicateFields(c.input)).toEqual(c.want);
    });
  }

  test(`at most ${MAX_STRICT_ERRORS} errors`, () => {
    const body = `{${Array.from({ length: 150 }, (_, i) => `"k${i}":1,"k${i}":2`).join(',')}}`;
    expect(findDuplicateFields(body)).toHaveLength(MAX_STRICT_ERRORS);
  });

  // decodeJson counts names in the text against members of the parsed value before
  // looking for repeats; texts whose names are easy to miscount.
  const decodeCases: { name: string; input: string; want: string[] }[] = [
    { name: 'compact text, no repeats', input: '{"a":1,"b":{"c":[{"d":1}]}}', want: [] },
    { name: 'compact text, a repeat', input: '{"a":1,"b":{"c":1,"c":2}}', want: ['duplicate field "b.c"'] },
    { name: 'whitespace before a colon hides a name from the count', input: '{"a" :1,"a":2}', want: ['duplicate field "a"'] },
    { name: 'a tab and a newline before colons', input: '{"a"\t:1,"b"\n:{"c":1},"a":3}', want: ['duplicate field "a"'] },
    { name: 'quote-colon inside a value, no repeats', input: '{"a":"x\\":y","b":"\\":"}', want: [] },
    { name: 'quote-colon inside a value beside a repeat', input: '{"a":"x\\":y","a":1}', want: ['duplicate field "a"'] },
    { name: 'pretty text (Go json.Indent), a repeat', input: '{\n  "a": 1,\n  "a": 2\n}', want: ['duplicate field "a"'] },
    { name: 'an escaped backslash before the closing quote of a name', input: '{"a\\\\":1,"a\\\\":2}', want: ['duplicate field "a\\\\"'] },
  ];
  for (const c of decodeCases) {
    test(`decodeJson: ${c.name}`, () => {
      const strictErrors: string[] = [];
      decodeJson(Buffer.from(c.input), { strictErrors });
      expect(strictErrors).toEqual(c.want);
    });
  }

  test('decodeJson fills the collector only when given one', () => {
    const strictErrors: string[] = [];
    expect(decodeJson(Buffer.from('{"metadata":{"name":"a","name":"b"}}'), { strictErrors })).toEqual({ metadata: { name: 'b' } });
    expect(strictErrors).toEqual(['duplicate field "metadata.name"']);
  });
});
