import { afterAll, describe, expect, test } from 'vitest';
// Field paths in their one home: parsing a definition's path text, walking JSON
// objects by own members only, and printing paths as kube prints them in field
// errors and strict-decoding errors.
import {
  FieldPathError,
  deleteField,
  getField,
  hasField,
  isRenderedPathWithin,
  ownField,
  parseFieldPath,
  renderFieldPath,
  setField,
  type PathElement,
} from '../../src/schema/field-path.js';
import { path } from '../../src/schema/field-errors.js';

const PROTOTYPE_KEYS_BEFORE = Object.getOwnPropertyNames(Object.prototype).sort();

afterAll(() => {
  // Whatever the rows below wrote, Object.prototype is as it was.
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS_BEFORE);
});

describe('parseFieldPath', () => {
  const cases: { name: string; input: string; want: string[] }[] = [
    { name: 'one name', input: 'status', want: ['status'] },
    { name: 'dotted', input: 'spec.replicas', want: ['spec', 'replicas'] },
    { name: 'leading dot, as CRD scale paths are written', input: '.spec.replicas', want: ['spec', 'replicas'] },
    { name: 'brackets are part of a name', input: 'a[0].b', want: ['a[0]', 'b'] },
    { name: 'prototype member names are names', input: '__proto__.constructor', want: ['__proto__', 'constructor'] },
  ];
  for (const c of cases) test(c.name, () => expect(parseFieldPath(c.input)).toEqual(c.want));

  const errors: { name: string; input: string }[] = [
    { name: 'empty', input: '' },
    { name: 'only a dot', input: '.' },
    { name: 'an empty name inside', input: 'spec..replicas' },
    { name: 'a trailing dot', input: 'spec.' },
    { name: 'two leading dots', input: '..spec' },
  ];
  for (const c of errors) test(`refuses ${c.name}`, () => expect(() => parseFieldPath(c.input)).toThrow(FieldPathError));

  test('a path 100,000 names deep parses', () => {
    expect(parseFieldPath(Array.from({ length: 100_000 }, () => 'a').join('.'))).toHaveLength(100_000);
  });
});

describe('getField', () => {
  const obj = { spec: { replicas: 3, containers: [{ image: 'x' }], labels: { app: 'a' } }, zero: 0, nothing: null };
  const cases: { name: string; path: string | PathElement[]; want: unknown }[] = [
    { name: 'a dotted path', path: 'spec.replicas', want: 3 },
    { name: 'a leading-dot path', path: '.spec.replicas', want: 3 },
    { name: 'falsy values are values', path: 'zero', want: 0 },
    { name: 'null is a value', path: 'nothing', want: null },
    { name: 'a missing member', path: 'spec.paused', want: undefined },
    { name: 'through a primitive', path: 'spec.replicas.x', want: undefined },
    { name: 'through null', path: 'nothing.x', want: undefined },
    { name: 'an index', path: ['spec', 'containers', 0, 'image'], want: 'x' },
    { name: 'an index out of range', path: ['spec', 'containers', 1], want: undefined },
    { name: 'a negative index', path: ['spec', 'containers', -1], want: undefined },
    { name: 'a name on a list', path: 'spec.containers.length', want: undefined },
    { name: 'a key', path: ['spec', 'labels', { key: 'app' }], want: 'a' },
    { name: 'an inherited member', path: 'spec.constructor', want: undefined },
    { name: 'an inherited member at the root', path: 'toString', want: undefined },
    { name: '__proto__ is not the prototype', path: 'spec.__proto__', want: undefined },
  ];
  for (const c of cases) test(c.name, () => expect(getField(obj, c.path)).toEqual(c.want));

  test('a __proto__ member is data', () => {
    const data = JSON.parse('{"a":{"__proto__":{"b":1}}}') as unknown;
    expect(getField(data, 'a.__proto__.b')).toBe(1);
    expect(hasField(data, 'a.__proto__')).toBe(true);
    expect(hasField({ a: {} }, 'a.__proto__')).toBe(false);
  });

  test('a path deeper than the object stops at the object', () => {
    const deep = Array.from({ length: 100_000 }, () => 'a').join('.');
    expect(getField({ a: { a: 1 } }, deep)).toBeUndefined();
  });

  test('a walk 10,000 levels deep does not recurse', () => {
    let obj: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 10_000; i++) obj = { a: obj };
    expect(getField(obj, [...Array.from({ length: 10_000 }, () => 'a'), 'leaf'])).toBe(true);
  });

  test('ownField reads one own member of an object', () => {
    expect(ownField({ a: 1 }, 'a')).toBe(1);
    expect(ownField({}, 'constructor')).toBeUndefined();
    expect(ownField([1], '0')).toBeUndefined();
    expect(ownField('text', 'length')).toBeUndefined();
  });
});

describe('setField', () => {
  const cases: { name: string; before: Record<string, unknown>; path: string | PathElement[]; value: unknown; want: unknown }[] = [
    { name: 'replaces a value', before: { spec: { replicas: 1 } }, path: 'spec.replicas', value: 2, want: { spec: { replicas: 2 } } },
    { name: 'creates missing parents', before: {}, path: 'spec.replicas', value: 2, want: { spec: { replicas: 2 } } },
    { name: 'replaces a primitive parent', before: { spec: 'x' }, path: 'spec.replicas', value: 2, want: { spec: { replicas: 2 } } },
    { name: 'undefined deletes', before: { status: { a: 1 }, spec: {} }, path: 'status', value: undefined, want: { spec: {} } },
    { name: 'deleting what is absent creates nothing', before: {}, path: 'metadata.labels', value: undefined, want: {} },
    { name: 'a leading-dot path', before: {}, path: '.spec.replicas', value: 1, want: { spec: { replicas: 1 } } },
    { name: 'an existing list item', before: { a: [1, 2] }, path: ['a', 1], value: 3, want: { a: [1, 3] } },
    { name: 'deleting a list item removes it', before: { a: [1, 2, 3] }, path: ['a', 1], value: undefined, want: { a: [1, 3] } },
    { name: 'a key', before: { labels: {} }, path: ['labels', { key: 'app' }], value: 'web', want: { labels: { app: 'web' } } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const obj = structuredClone(c.before);
      setField(obj, c.path, c.value);
      expect(obj).toEqual(c.want);
    });
  }

  test('a __proto__ name is stored as data, not as the prototype', () => {
    const obj: Record<string, unknown> = {};
    setField(obj, '__proto__.polluted', 1);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
    expect(JSON.stringify(obj)).toBe('{"__proto__":{"polluted":1}}');
    setField(obj, 'constructor.prototype.polluted', 1);
    expect(JSON.stringify(obj)).toBe('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}');
  });

  test('deleting an inherited name deletes nothing', () => {
    const obj: Record<string, unknown> = { a: 1 };
    deleteField(obj, 'toString');
    deleteField(obj, '__proto__');
    expect(obj).toEqual({ a: 1 });
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
  });

  test('a list is never grown nor written by name', () => {
    expect(() => setField({ a: [] }, ['a', 0], 1)).toThrow(FieldPathError);
    expect(() => setField({ a: [1] }, ['a', 5], 1)).toThrow(FieldPathError);
    expect(() => setField({ a: [] }, 'a.b', 1)).toThrow(FieldPathError);
    expect(() => setField({ a: [] }, 'a.b.c', 1)).toThrow(FieldPathError);
    expect(() => setField({}, ['a', 0, 'b'], 1)).toThrow(FieldPathError);
  });

  test('a path to nowhere is refused', () => {
    expect(() => setField({}, [], 1)).toThrow(FieldPathError);
    expect(() => setField({}, '', 1)).toThrow(FieldPathError);
  });
});

describe('renderFieldPath', () => {
  const cases: { name: string; elements: PathElement[]; want: string }[] = [
    { name: 'the root', elements: [], want: '' },
    { name: 'names', elements: ['spec', 'replicas'], want: 'spec.replicas' },
    { name: 'an index', elements: ['spec', 'containers', 0, 'image'], want: 'spec.containers[0].image' },
    { name: 'a key', elements: ['metadata', 'labels', { key: 'app' }], want: 'metadata.labels[app]' },
    { name: 'a key holding dots and brackets, printed as is', elements: ['data', { key: 'a.b[0]' }], want: 'data[a.b[0]]' },
    { name: 'an index first', elements: [0, 'name'], want: '[0].name' },
    { name: 'nested indices', elements: ['a', 1, 2], want: 'a[1][2]' },
  ];
  for (const c of cases) test(c.name, () => expect(renderFieldPath(c.elements)).toBe(c.want));

  test('field errors print through it', () => {
    expect(path('spec', 'containers').index(0).child('image').toString()).toBe('spec.containers[0].image');
    expect(path('metadata', 'labels').key('app').toString()).toBe('metadata.labels[app]');
    expect(path().child('a').toString()).toBe('a');
    expect(path('spec').elements).toEqual(['spec']);
  });
});

describe('isRenderedPathWithin', () => {
  const cases: { name: string; path: string; ancestor: string; want: boolean }[] = [
    { name: 'itself', path: 'spec.x', ancestor: 'spec.x', want: true },
    { name: 'a member below', path: 'spec.x.y', ancestor: 'spec.x', want: true },
    { name: 'an item below', path: 'spec.x[0]', ancestor: 'spec.x', want: true },
    { name: 'a sibling sharing a prefix', path: 'spec.xy', ancestor: 'spec.x', want: false },
    { name: 'above', path: 'spec', ancestor: 'spec.x', want: false },
  ];
  for (const c of cases) test(c.name, () => expect(isRenderedPathWithin(c.path, c.ancestor)).toBe(c.want));
});
