// Set operations, membership, path listing and the printed path format, with sets
// written as the fieldsV1 JSON they serialize to (structured-merge-diff's
// fieldpath set_test.go cases, re-expressed as data).
import { describe, expect, test } from 'vitest';
import {
  difference, EMPTY_FIELD_SET, equals, fieldElement, fieldSetFromPaths, type FieldSet, fromFieldsV1, has, indexElement, intersection,
  isEmpty, keyElement, leaves, type Path, pathString, paths, recursiveDifference, toFieldsV1, union, valueElement,
} from '../../../src/schema/structural/field-set.js';

const f = fieldElement;
const text = (s: FieldSet): string => JSON.stringify(toFieldsV1(s));

describe('set operations', () => {
  const ops = { union, intersection, difference, recursiveDifference };
  const rows: readonly { name: string; op: keyof typeof ops; a: object; b: object; want: object }[] = [
    { name: 'union of disjoint leaves', op: 'union', a: { 'f:a': {} }, b: { 'f:b': {} }, want: { 'f:a': {}, 'f:b': {} } },
    {
      name: 'union merges children',
      op: 'union',
      a: { 'f:spec': { 'f:x': {} } },
      b: { 'f:spec': { 'f:y': {} } },
      want: { 'f:spec': { 'f:x': {}, 'f:y': {} } },
    },
    {
      name: 'union of an owned item and its fields writes `.`',
      op: 'union',
      a: { 'f:c': { 'k:{"name":"c"}': {} } },
      b: { 'f:c': { 'k:{"name":"c"}': { 'f:image': {} } } },
      want: { 'f:c': { 'k:{"name":"c"}': { '.': {}, 'f:image': {} } } },
    },
    { name: 'union with the empty set', op: 'union', a: {}, b: { 'f:a': {} }, want: { 'f:a': {} } },
    {
      name: 'intersection keeps common paths',
      op: 'intersection',
      a: { 'f:spec': { 'f:x': {}, 'f:y': {} } },
      b: { 'f:spec': { 'f:y': {}, 'f:z': {} } },
      want: { 'f:spec': { 'f:y': {} } },
    },
    {
      name: 'intersection drops children left empty',
      op: 'intersection',
      a: { 'f:spec': { 'f:x': {} } },
      b: { 'f:spec': { 'f:y': {} } },
      want: {},
    },
    {
      name: 'intersection of an item with an owner of the item alone',
      op: 'intersection',
      a: { 'f:c': { 'k:{"name":"c"}': { '.': {}, 'f:image': {} } } },
      b: { 'f:c': { 'k:{"name":"c"}': {} } },
      want: { 'f:c': { 'k:{"name":"c"}': {} } },
    },
    {
      name: 'difference removes leaves and empties',
      op: 'difference',
      a: { 'f:spec': { 'f:x': {}, 'f:y': {} }, 'f:z': {} },
      b: { 'f:spec': { 'f:x': {} }, 'f:z': {} },
      want: { 'f:spec': { 'f:y': {} } },
    },
    {
      name: 'difference of a parent and its child keeps the parent',
      op: 'difference',
      a: { 'f:m': { '.': {}, 'f:x': {} } },
      b: { 'f:m': { 'f:x': {} } },
      want: { 'f:m': {} },
    },
    {
      name: 'difference of a parent path leaves what is below it',
      op: 'difference',
      a: { 'f:metadata': { 'f:labels': { 'f:app': {} } } },
      b: { 'f:metadata': {} },
      want: { 'f:metadata': { 'f:labels': { 'f:app': {} } } },
    },
    {
      name: 'recursiveDifference removes a path and everything below it',
      op: 'recursiveDifference',
      a: { 'f:spec': { 'f:x': {} }, 'f:status': { 'f:phase': {}, 'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:status': {} } } } },
      b: { 'f:status': {} },
      want: { 'f:spec': { 'f:x': {} } },
    },
    {
      name: 'recursiveDifference of an owned item removes its fields',
      op: 'recursiveDifference',
      a: { 'f:m': { '.': {}, 'f:x': {} }, 'f:n': {} },
      b: { 'f:m': {} },
      want: { 'f:n': {} },
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      expect(text(ops[r.op](fromFieldsV1(r.a), fromFieldsV1(r.b)))).toBe(JSON.stringify(r.want));
    });
  }
});

describe('membership', () => {
  const set = fromFieldsV1({
    'f:spec': {
      'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {} } },
      'f:replicas': {},
    },
  });
  const c = keyElement({ name: 'c' });
  const rows: readonly { name: string; path: Path; want: boolean }[] = [
    { name: 'a struct with owned fields is not itself owned', path: [f('spec')], want: false },
    { name: 'an owned item', path: [f('spec'), f('containers'), c], want: true },
    { name: 'a field of an owned item', path: [f('spec'), f('containers'), c, f('image')], want: true },
    { name: 'an unowned field of an owned item', path: [f('spec'), f('containers'), c, f('name')], want: false },
    { name: 'a leaf', path: [f('spec'), f('replicas')], want: true },
    { name: 'below a leaf', path: [f('spec'), f('replicas'), f('x')], want: false },
    { name: 'the whole object is never owned', path: [], want: false },
  ];
  for (const r of rows) test(r.name, () => expect(has(set, r.path)).toBe(r.want));

  test('isEmpty and equals', () => {
    expect(isEmpty(EMPTY_FIELD_SET)).toBe(true);
    expect(isEmpty(fieldSetFromPaths([[]]))).toBe(true);
    expect(isEmpty(set)).toBe(false);
    const built = fieldSetFromPaths([[f('spec'), f('replicas')], [f('spec'), f('containers'), c, f('image')], [f('spec'), f('containers'), c]]);
    expect(equals(built, set)).toBe(true);
    expect(equals(fieldSetFromPaths([[f('spec'), f('containers'), c, f('image')]]), set)).toBe(false);
  });
});

test('paths lists every member in SMD order, printed as SMD prints them', () => {
  const set = fromFieldsV1({
    'f:metadata': { 'f:finalizers': { 'v:"example.com/x"': {} } },
    'f:spec': {
      'f:containers': {
        'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': {} } },
      },
      'f:replicas': {},
    },
  });
  expect(paths(set).map(pathString)).toEqual([
    '.metadata.finalizers[="example.com/x"]',
    '.spec.replicas',
    '.spec.containers[name="c"]',
    '.spec.containers[name="c"].image',
    '.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"]',
  ]);
  expect(text(leaves(set))).toBe(JSON.stringify({
    'f:metadata': { 'f:finalizers': { 'v:"example.com/x"': {} } },
    'f:spec': {
      'f:containers': { 'k:{"name":"c"}': { 'f:image': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': {} } } },
      'f:replicas': {},
    },
  }));
});

describe('element order and spelling', () => {
  const rows: readonly { name: string; paths: Path[]; want: readonly string[] }[] = [
    {
      name: 'fields, then keys, then values, then indexes',
      paths: [[indexElement(0)], [valueElement('x')], [keyElement({ a: 1 })], [f('z')]],
      want: ['f:z', 'k:{"a":1}', 'v:"x"', 'i:0'],
    },
    { name: 'field names in byte order', paths: [[f('volumes')], [f('volumeMounts')], [f('Zone')], [f('a')]], want: ['f:Zone', 'f:a', 'f:volumeMounts', 'f:volumes'] },
    {
      name: 'strings in code point order, not UTF-16 order',
      paths: [[f('\u{1F600}')], [f('\uFFFF')]],
      want: ['f:\uFFFF', 'f:\u{1F600}'],
    },
    {
      name: 'values: numbers, strings, booleans, null',
      paths: [[valueElement(null)], [valueElement(true)], [valueElement('a')], [valueElement(10)], [valueElement(9.5)], [valueElement(false)]],
      want: ['v:9.5', 'v:10', 'v:"a"', 'v:false', 'v:true', 'v:null'],
    },
    {
      name: 'keys by field name, then value, shorter first',
      paths: [[keyElement({ b: 1 })], [keyElement({ a: 2 })], [keyElement({ a: 1, b: 1 })], [keyElement({ a: 1 })]],
      want: ['k:{"a":1}', 'k:{"a":1,"b":1}', 'k:{"a":2}', 'k:{"b":1}'],
    },
    {
      name: 'indexes numerically',
      paths: [[indexElement(10)], [indexElement(2)]],
      want: ['i:2', 'i:10'],
    },
    {
      name: 'field names raw; key names without HTML escapes; values with them',
      paths: [[f('a"b<')], [keyElement({ 'n<"': 'v<&>\u2028\u0001' })], [valueElement('\t')]],
      want: ['f:a"b<', 'k:{"n<\\"":"v\\u003c\\u0026\\u003e\\u2028\\u0001"}', 'v:"\\t"'],
    },
    { name: 'a lone surrogate is U+FFFD, as Go decodes it', paths: [[valueElement('a\uD800')]], want: ['v:"a\uFFFD"'] },
    { name: 'floats as Go writes them', paths: [[valueElement(1e-7)], [valueElement(1.5e21)]], want: ['v:1e-7', 'v:1.5e+21'] },
  ];
  for (const r of rows) {
    test(r.name, () => expect(Object.keys(toFieldsV1(fieldSetFromPaths(r.paths)))).toEqual(r.want));
  }
});

describe('pathString', () => {
  const rows: readonly { name: string; path: Path; want: string }[] = [
    { name: 'fields', path: [f('spec'), f('replicas')], want: '.spec.replicas' },
    {
      name: 'a key in a template',
      path: [f('spec'), f('template'), f('spec'), f('containers'), keyElement({ name: 'c' }), f('image')],
      want: '.spec.template.spec.containers[name="c"].image',
    },
    { name: 'a two-field key, sorted', path: [f('ports'), keyElement({ protocol: 'TCP', port: 80 })], want: '.ports[port=80,protocol="TCP"]' },
    { name: 'a set value', path: [f('finalizers'), valueElement('a')], want: '.finalizers[="a"]' },
    { name: 'an index', path: [f('args'), indexElement(3)], want: '.args[3]' },
    { name: 'Go quoting', path: [keyElement({ name: 'a\nb"\u00a0\u0001é' })], want: '[name="a\\nb\\"\\u00a0\\x01é"]' },
    { name: 'Go %v floats', path: [valueElement(1e-7)], want: '[=1e-07]' },
    { name: 'Go %v large floats', path: [valueElement(1234567.5)], want: '[=1.2345675e+06]' },
    { name: 'Go %v small floats', path: [valueElement(0.25)], want: '[=0.25]' },
    { name: 'booleans and null', path: [keyElement({ a: true, b: null })], want: '[a=true,b=null]' },
  ];
  for (const r of rows) test(r.name, () => expect(pathString(r.path)).toBe(r.want));
});
