import { describe, expect, test } from 'vitest';
import type { Codec } from '../../src/codecs/codec.js';
import { jsonCodec, prettyJsonCodec } from '../../src/codecs/json.js';
import { listEncoding, type ListEncoding } from '../../src/codecs/list-encoding.js';
import { protobufCodec } from '../../src/codecs/protobuf.js';
import { yamlCodec } from '../../src/codecs/yaml.js';
import { deepFreeze } from '../../src/storage/object-store/codec.js';

/** Every piece in order, as list-stream.ts writes them. */
function joined(enc: ListEncoding): Buffer {
  const items: Buffer[] = [];
  for (let i = 0; i < enc.count; i++) {
    const item = enc.item(i);
    items.push(enc.before(i, item), item);
  }
  const body = Buffer.concat(items);
  return Buffer.concat([enc.head(body.length), body, enc.tail]);
}

/** A stored ConfigMap as the registry lists it: a fresh copy without apiVersion/kind holding the frozen object's values. */
function listed(stored: Record<string, unknown>): Record<string, unknown> {
  const { apiVersion: _a, kind: _k, ...rest } = stored;
  return rest;
}

function stored(i: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return deepFreeze({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}`, namespace: 'default', resourceVersion: String(10 + i), labels: { app: 'a<b>&c' } },
    data: { text: `value ${i} \u2028 <script> & é 😀`, empty: '' },
    ...extra,
  });
}

const items = (n: number) => Array.from({ length: n }, (_, i) => listed(stored(i)));

interface Case {
  readonly name: string;
  readonly codec: Codec;
  readonly list: unknown;
}

const cases: readonly Case[] = [
  { name: 'JSON, 50 items', codec: jsonCodec, list: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '99' }, items: items(50) } },
  { name: 'JSON, empty list', codec: jsonCodec, list: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '99' }, items: [] } },
  {
    name: 'JSON, continue and remainingItemCount',
    codec: jsonCodec,
    list: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '99', continue: 'eyJ2Ijoi<&>', remainingItemCount: 7 }, items: items(3) },
  },
  {
    name: 'JSON, keys after items and undefined values are written as JSON.stringify does',
    codec: jsonCodec,
    list: { items: items(2), kind: 'ConfigMapList', skipped: undefined, apiVersion: 'v1', metadata: {} },
  },
  {
    name: 'JSON, items with fields named __proto__ and constructor (own data, as JSON.parse makes them)',
    codec: jsonCodec,
    list: {
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      metadata: {},
      items: [0, 1].map((i) => listed(deepFreeze(JSON.parse(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p${i}"},"__proto__":{"x":${i}},"constructor":"c","data":{"__proto__":"d"}}`) as Record<string, unknown>))),
    },
  },
  { name: 'JSON, one item', codec: jsonCodec, list: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: items(1) } },
  { name: 'protobuf, 50 items', codec: protobufCodec, list: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '99' }, items: items(50) } },
  { name: 'protobuf, empty list', codec: protobufCodec, list: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '99' }, items: [] } },
  {
    name: 'protobuf, continue and remainingItemCount',
    codec: protobufCodec,
    list: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '99', continue: 'abc', remainingItemCount: 7 }, items: items(3) },
  },
  {
    name: 'protobuf, a list over 16 KiB (length prefixes of several bytes)',
    codec: protobufCodec,
    list: {
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '1' },
      items: Array.from({ length: 20 }, (_, i) => listed(stored(i, { data: { blob: 'x'.repeat(1000 * i) } }))),
    },
  },
  {
    name: 'protobuf, PartialObjectMetadataList',
    codec: protobufCodec,
    list: {
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '5' },
      items: [0, 1].map((i) => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: (stored(i) as { metadata: object }).metadata })),
    },
  },
  {
    name: 'JSON, PartialObjectMetadataList',
    codec: jsonCodec,
    list: {
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '5' },
      items: [0, 1].map((i) => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: (stored(i) as { metadata: object }).metadata })),
    },
  },
];

describe('listEncoding', () => {
  for (const c of cases) {
    test(`${c.name}: the pieces are byte for byte the codec's encoding`, () => {
      const enc = listEncoding(c.codec, c.list);
      expect(enc).toBeDefined();
      const want = c.codec.encode(c.list);
      expect(joined(enc!).equals(want)).toBe(true);
      // A second time from the shared item bytes: still the same.
      expect(joined(listEncoding(c.codec, c.list)!).equals(want)).toBe(true);
    });
  }

  const none: readonly Case[] = [
    { name: 'YAML', codec: yamlCodec, list: cases[0]!.list },
    { name: 'pretty JSON', codec: prettyJsonCodec, list: cases[0]!.list },
    { name: 'an object with no items array', codec: jsonCodec, list: { kind: 'ConfigMap', apiVersion: 'v1', metadata: {} } },
    { name: 'PartialObjectMetadataList with items null', codec: jsonCodec, list: { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: {}, items: null } },
    { name: 'protobuf for a kind with no message', codec: protobufCodec, list: { kind: 'WidgetList', apiVersion: 'example.test/v1', metadata: {}, items: [] } },
    { name: 'protobuf for a Table', codec: protobufCodec, list: { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: {}, items: [] } },
  ];
  for (const c of none) {
    test(`${c.name}: no piecewise form (encoded whole)`, () => {
      expect(listEncoding(c.codec, c.list)).toBeUndefined();
    });
  }

  test('an unchanged stored object gives the same item Buffer to every list, a new version new bytes', () => {
    const v1 = stored(1);
    const a = listEncoding(jsonCodec, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [listed(v1)] })!;
    const b = listEncoding(jsonCodec, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [listed(v1)] })!;
    expect(b.item(0)).toBe(a.item(0));
    // Same metadata object, other data (as a conversion that kept metadata would give): not the cached bytes.
    const other = { metadata: (v1 as { metadata: object }).metadata, data: Object.freeze({ text: 'other' }) };
    const c = listEncoding(jsonCodec, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [other] })!;
    expect(JSON.parse(c.item(0).toString()).data).toEqual({ text: 'other' });
    // Both forms stay cached side by side.
    expect(listEncoding(jsonCodec, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [listed(v1)] })!.item(0)).toBe(a.item(0));
  });

  test('an item holding a value that is not frozen is encoded afresh, so a change shows', () => {
    const data = { text: 'one' };
    const item = { metadata: Object.freeze({ name: 'x' }), data };
    const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [item] };
    expect(JSON.parse(listEncoding(jsonCodec, list)!.item(0).toString()).data.text).toBe('one');
    data.text = 'two';
    expect(JSON.parse(listEncoding(jsonCodec, list)!.item(0).toString()).data.text).toBe('two');
  });

  test('protobuf and JSON bytes of one item are kept apart', () => {
    const item = listed(stored(3));
    const json = listEncoding(jsonCodec, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [item] })!.item(0);
    const pb = listEncoding(protobufCodec, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [item] })!.item(0);
    expect(json.equals(pb)).toBe(false);
    expect(json[0]).toBe(0x7b);
  });

  test('a protobuf item that does not fit its message is an InternalError, not a bare Error', () => {
    const enc = listEncoding(protobufCodec, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [{ metadata: { name: 7 } }] })!;
    expect(() => enc.item(0)).toThrow(expect.objectContaining({ code: 500 }));
  });
});
