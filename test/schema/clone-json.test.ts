import { describe, expect, test } from 'vitest';
import { cloneJson } from '../../src/schema/object.js';

describe('cloneJson', () => {
  test('copies deeply and unfrozen', () => {
    const source = Object.freeze({ a: Object.freeze([1, Object.freeze({ b: 'c' })]), d: null, e: true });
    const copy = cloneJson(source);
    expect(copy).toEqual(source);
    expect(Object.isFrozen(copy)).toBe(false);
    (copy.a[1] as { b: string }).b = 'changed';
    expect((source.a[1] as { b: string }).b).toBe('c');
  });

  test('a "__proto__" member stays data', () => {
    const source = JSON.parse('{"__proto__":{"polluted":true},"x":1}') as Record<string, unknown>;
    const copy = cloneJson(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'x']);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"x":1}');
  });

  test('other classes are cloned structurally', () => {
    const date = new Date(0);
    const copy = cloneJson({ when: date });
    expect(copy.when).not.toBe(date);
    expect(copy.when.getTime()).toBe(0);
  });
});

describe('cloneJson on hostile shapes', () => {
  const cases: { name: string; input: string }[] = [
    { name: 'prototype names at every level', input: '{"constructor":{"prototype":{"toString":1}},"valueOf":[{"__proto__":{"hasOwnProperty":2}}]}' },
    { name: 'arrays 1,000 deep', input: `${'['.repeat(1000)}${']'.repeat(1000)}` },
    { name: 'objects 1,000 deep', input: `${'{"__proto__":'.repeat(1000)}1${'}'.repeat(1000)}` },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const copy = cloneJson(JSON.parse(c.input) as unknown);
      expect(JSON.stringify(copy)).toBe(c.input);
      expect(({} as { polluted?: unknown; toString: unknown }).toString).toBe(Object.prototype.toString);
    });
  }
});
