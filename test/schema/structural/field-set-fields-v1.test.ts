// Reading fieldsV1: canonical forms, and hostile input (STYLE.md section 11) that
// must end in a FieldsV1Error, never a crash, a prototype write or unbounded recursion.
import { describe, expect, test } from 'vitest';
import { fromFieldsV1, FieldsV1Error, MAX_FIELD_SET_DEPTH, toFieldsV1 } from '../../../src/schema/structural/field-set.js';

const roundTrip = (json: unknown): string => JSON.stringify(toFieldsV1(fromFieldsV1(json)));

function nested(depth: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let cur = root;
  for (let i = 0; i < depth; i++) {
    const next: Record<string, unknown> = {};
    cur['f:x'] = next;
    cur = next;
  }
  return root;
}

describe('reading writes back canonically', () => {
  const rows: readonly { name: string; input: unknown; want: unknown }[] = [
    { name: 'members sorted', input: { 'f:b': {}, 'i:0': {}, 'f:a': {} }, want: { 'f:a': {}, 'f:b': {}, 'i:0': {} } },
    { name: 'key fields sorted, spacing dropped', input: { 'k:{ "b": 2, "a" : 1 }': {} }, want: { 'k:{"a":1,"b":2}': {} } },
    { name: 'index spelled by Atoi', input: { 'i:+07': {} }, want: { 'i:7': {} } },
    {
      name: 'two spellings of one element are one element',
      input: { 'i:1': { 'f:a': {} }, 'i:01': { '.': {}, 'f:b': {} } },
      want: { 'i:1': { '.': {}, 'f:a': {}, 'f:b': {} } },
    },
    { name: '`.` alone is an owned leaf', input: { 'f:a': { '.': {} } }, want: { 'f:a': {} } },
    { name: '`.` at the top is ignored (the object is never owned)', input: { '.': {}, 'f:a': {} }, want: { 'f:a': {} } },
    { name: 'empty', input: {}, want: {} },
    { name: '`f:__proto__` is a field named __proto__', input: JSON.parse('{"f:__proto__":{"f:constructor":{}}}'), want: JSON.parse('{"f:__proto__":{"f:constructor":{}}}') },
    { name: 'a key field named __proto__', input: { 'k:{"__proto__":"x"}': {} }, want: { 'k:{"__proto__":"x"}': {} } },
    { name: 'value escapes normalized', input: { 'v:"\\u0061<"': {} }, want: { 'v:"a\\u003c"': {} } },
    { name: 'null-prototype objects are plain JSON', input: Object.assign(Object.create(null) as object, { 'f:a': {} }), want: { 'f:a': {} } },
  ];
  for (const r of rows) test(r.name, () => expect(roundTrip(r.input)).toBe(JSON.stringify(r.want)));

  test('unknown element types are dropped on request, as SMD does', () => {
    const set = fromFieldsV1({ 'f:a': { 'x:future': {} }, 'y:other': {} }, { unknownElements: 'drop' });
    expect(JSON.stringify(toFieldsV1(set))).toBe(JSON.stringify({ 'f:a': {} }));
  });

  test('a large flat set reads in one pass', () => {
    const big: Record<string, object> = {};
    for (let i = 0; i < 100_000; i++) big[`f:k${i}`] = {};
    const out = toFieldsV1(fromFieldsV1(big));
    expect(Object.keys(out)).toHaveLength(100_000);
  });

  test('the depth cap itself is readable', () => {
    expect(() => fromFieldsV1(nested(MAX_FIELD_SET_DEPTH))).not.toThrow();
  });
});

describe('hostile fieldsV1 is refused with FieldsV1Error', () => {
  const deepKey = `k:{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  const rows: readonly { name: string; input: unknown; message: string }[] = [
    { name: 'a string', input: 'f:a', message: 'expected an object, got a string' },
    { name: 'a number', input: 42, message: 'got a number' },
    { name: 'an array', input: [{ 'f:a': {} }], message: 'got an array' },
    { name: 'null', input: null, message: 'got null' },
    { name: 'a class instance', input: new Date(0), message: 'got a non-plain object' },
    { name: 'an object with another prototype', input: Object.create({ 'f:a': {} }) as unknown, message: 'got a non-plain object' },
    { name: 'a nested non-object', input: { 'f:a': 1 }, message: '["f:a"]: expected an object, got a number' },
    { name: 'a nested array', input: { 'f:a': { 'f:b': [] } }, message: '["f:a","f:b"]: expected an object, got an array' },
    { name: 'a nested null', input: { 'f:a': null }, message: 'got null' },
    { name: 'an unknown element type', input: { 'x:foo': {} }, message: '["x:foo"]: unknown path element type' },
    { name: 'no type prefix', input: { foo: {} }, message: 'not "<type>:<content>"' },
    { name: 'a one-letter name', input: { f: {} }, message: 'not "<type>:<content>"' },
    { name: 'an empty name', input: { '': {} }, message: 'not "<type>:<content>"' },
    { name: '__proto__ as a member name', input: JSON.parse('{"__proto__":{"f:polluted":{}}}'), message: '["__proto__"]: member name' },
    { name: '__proto__ nested', input: JSON.parse('{"f:a":{"__proto__":{}}}'), message: '["f:a","__proto__"]' },
    { name: 'malformed key JSON', input: { 'k:{': {} }, message: 'malformed JSON in element' },
    { name: 'a key missing a value', input: { 'k:{"name":}': {} }, message: 'malformed JSON in element' },
    { name: 'trailing data after a key', input: { 'k:{"a":1}x': {} }, message: 'malformed JSON in element' },
    { name: 'a key that is not an object', input: { 'k:["a"]': {} }, message: 'a key must be a JSON object' },
    { name: 'an empty key', input: { 'k:{}': {} }, message: 'at least one field' },
    { name: 'a key nested without bound', input: { [deepKey]: {} }, message: 'nested deeper than 32 levels' },
    { name: 'an empty value', input: { 'v:': {} }, message: 'malformed JSON in element' },
    { name: 'a value that is not JSON', input: { 'v:undefined': {} }, message: 'malformed JSON in element' },
    { name: 'an index that is not a number', input: { 'i:x': {} }, message: 'an index must be a decimal integer' },
    { name: 'a fractional index', input: { 'i:1.5': {} }, message: 'an index must be a decimal integer' },
    { name: 'an index out of range', input: { 'i:99999999999999999': {} }, message: 'an index must be a decimal integer' },
    { name: 'a "." with content', input: { 'f:a': { '.': { 'f:b': {} } } }, message: '"." must be {}' },
    { name: 'a "." that is not an object', input: { '.': 1 }, message: '"." must be {}' },
    { name: '10,000 levels of nesting', input: nested(10_000), message: `nested deeper than ${MAX_FIELD_SET_DEPTH} levels` },
  ];
  for (const r of rows) {
    test(r.name, () => {
      expect(() => fromFieldsV1(r.input)).toThrow(FieldsV1Error);
      expect(() => fromFieldsV1(r.input)).toThrow(r.message);
    });
  }

  test('no row reaches Object.prototype', () => {
    for (const r of rows) {
      try {
        fromFieldsV1(r.input);
      } catch {
        // Refused as the table above checks; only the prototype matters here.
      }
    }
    expect(Object.prototype).not.toHaveProperty('f:polluted');
    expect(({} as Record<string, unknown>)['f:polluted']).toBeUndefined();
  });
});
