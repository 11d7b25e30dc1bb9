// The schema layer's allocation-free happy path (registry/validation/schema.ts):
// short lists are checked for uniqueness by comparing items pairwise, long ones
// with a Set; objects are walked in document order or schema order by how many
// own keys they have. Each must give the causes, and their order, of before.
import { describe, expect, test } from 'vitest';
import { schemaValidatorFor } from '../../../src/registry/validation/schema.js';
import type { Definitions } from '../../../src/schema/definitions.js';

const table: Definitions = {
  'test.v1.Thing': {
    type: 'object',
    properties: {
      metadata: { type: 'object' },
      spec: { $ref: '#/definitions/test.v1.ThingSpec' },
    },
  },
  'test.v1.ThingSpec': {
    type: 'object',
    properties: {
      mode: { type: 'string', enum: ['Fast', 'Slow'] },
      items: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: { type: 'object', properties: { name: {}, size: { type: 'string', enum: ['S', 'L'] } } },
      },
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port', 'protocol'],
        items: { type: 'object', properties: { port: {}, protocol: {} } },
      },
      tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: {} },
    },
  },
};

const thing = schemaValidatorFor({ name: 'test.v1.Thing', definitions: table });
const texts = (spec: Record<string, unknown>): string[] => thing.validate({ metadata: {}, spec }).map((e) => e.message);

/** Enough items with keys of their own to move a list past the pairwise check. */
const filler = (n: number, item: (i: number) => unknown): unknown[] => Array.from({ length: n }, (_, i) => item(i));

interface Case {
  readonly name: string;
  readonly list: 'items' | 'ports' | 'tags';
  readonly items: unknown[];
  readonly want: string[];
  /** A filler item that repeats nothing in `items`. */
  readonly pad: (i: number) => unknown;
}

const cases: Case[] = [
  {
    name: 'single key: repeats, NaN, signed zero, a missing key, a non-object',
    list: 'items',
    items: [{ name: 'a' }, { name: NaN }, { name: 0 }, { size: 'S' }, 'x', { name: 'a' }, { name: NaN }, { name: -0 }, { name: 'b' }, { name: 'a' }],
    want: ['spec.items[5].name: Duplicate value: "a"', 'spec.items[6].name: Duplicate value: NaN', 'spec.items[7].name: Duplicate value: 0', 'spec.items[9].name: Duplicate value: "a"'],
    pad: (i) => ({ name: `pad-${i}` }),
  },
  {
    name: 'several keys: compared as the JSON text of their values',
    list: 'ports',
    items: [
      { port: 80, protocol: 'TCP' },
      { port: '80', protocol: 'TCP' },
      { port: 80, protocol: 'UDP' },
      { port: 80, protocol: 'TCP' },
      { port: '80', protocol: 'TCP' },
      { port: null, protocol: 'TCP' },
      { port: NaN, protocol: 'TCP' },
      { port: { a: [1] }, protocol: 'TCP' },
      { port: { a: [1] }, protocol: 'TCP' },
      { port: new Date(0), protocol: 'TCP' },
      { port: '1970-01-01T00:00:00.000Z', protocol: 'TCP' },
      { port: 80 },
      { port: -0, protocol: 'TCP' },
      { port: 0, protocol: 'TCP' },
    ],
    want: [
      'spec.ports[3]: Duplicate value: {"port":80,"protocol":"TCP"}',
      'spec.ports[4]: Duplicate value: {"port":"80","protocol":"TCP"}',
      'spec.ports[6]: Duplicate value: {"port":null,"protocol":"TCP"}',
      'spec.ports[8]: Duplicate value: {"port":{"a":[1]},"protocol":"TCP"}',
      'spec.ports[10]: Duplicate value: {"port":"1970-01-01T00:00:00.000Z","protocol":"TCP"}',
      'spec.ports[13]: Duplicate value: {"port":0,"protocol":"TCP"}',
    ],
    pad: (i) => ({ port: 1000 + i, protocol: 'TCP' }),
  },
  {
    name: 'a set: scalars repeat, objects are not compared',
    list: 'tags',
    items: ['x', 1, '1', true, null, { a: 1 }, { a: 1 }, 'x', 1, null, NaN, NaN],
    want: ['spec.tags[7]: Duplicate value: "x"', 'spec.tags[8]: Duplicate value: 1', 'spec.tags[9]: Duplicate value: null', 'spec.tags[11]: Duplicate value: NaN'],
    pad: (i) => `pad-${i}`,
  },
];

describe('list uniqueness', () => {
  for (const c of cases) {
    test(`${c.name}, in a short list and in a long one`, () => {
      expect(c.items.length).toBeLessThanOrEqual(16);
      // The padded list's duplicates are the same items at the same indices: the pairwise check and the Set agree.
      const long = [...c.items, ...filler(20, c.pad)];
      expect(texts({ [c.list]: c.items })).toEqual(c.want);
      expect(texts({ [c.list]: long })).toEqual(c.want);
    });
  }

  test('the exact causes of a short list-map', () => {
    expect(texts({ items: [{ name: 'a' }, { name: 'b' }, { name: 'a' }, { name: 'a' }] })).toEqual([
      'spec.items[2].name: Duplicate value: "a"',
      'spec.items[3].name: Duplicate value: "a"',
    ]);
    expect(texts({ ports: [{ port: 80, protocol: 'TCP' }, { port: '80', protocol: 'TCP' }, { port: 80, protocol: 'TCP' }] })).toEqual([
      'spec.ports[2]: Duplicate value: {"port":80,"protocol":"TCP"}',
    ]);
  });
});

describe('the order of causes within an object', () => {
  const bad = { tags: ['x', 'x'], mode: 'Medium' };
  const modeCause = 'spec.mode: Unsupported value: "Medium": supported values: "Fast", "Slow"';
  const tagsCause = 'spec.tags[1]: Duplicate value: "x"';

  test('an object with no more keys than checks: document order', () => {
    expect(texts({ ...bad, a: 1, b: 2 })).toEqual([tagsCause, modeCause]);
  });

  test('an object with more keys than checks: schema order', () => {
    expect(texts({ ...bad, a: 1, b: 2, c: 3 })).toEqual([modeCause, tagsCause]);
  });

  test('inherited keys are not counted or checked', () => {
    const spec = Object.assign(Object.create({ a: 1, b: 2, c: 3, mode: 'Bogus', items: [{ name: 'a' }, { name: 'a' }] }) as object, bad);
    expect(thing.validate({ metadata: {}, spec }).map((e) => e.message)).toEqual([tagsCause, modeCause]);
  });

  test('a valid object answers an empty list that cannot grow', () => {
    const none = thing.validate({ metadata: {}, spec: { mode: 'Fast', tags: ['x', 'y'] } });
    expect(none).toEqual([]);
    expect(() => (none as unknown[]).push(1)).toThrow(TypeError);
    expect(texts({ mode: 'X' })).toEqual(['spec.mode: Unsupported value: "X": supported values: "Fast", "Slow"']);
  });
});
