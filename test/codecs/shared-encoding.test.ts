import { describe, expect, test } from 'vitest';
import { jsonCodec, prettyJsonCodec } from '../../src/codecs/json.js';
import { encodeShared } from '../../src/codecs/shared-encoding.js';
import { deepFreeze } from '../../src/storage/object-store/codec.js';

const configMap = (v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '7' }, data: { v } });

describe('encodeShared', () => {
  test('a frozen object is encoded once per codec and the bytes are reused', () => {
    const obj = deepFreeze(configMap('1'));
    const first = encodeShared(jsonCodec, obj);
    expect(first.toString()).toBe(jsonCodec.encode(obj).toString());
    expect(encodeShared(jsonCodec, obj)).toBe(first);
    const pretty = encodeShared(prettyJsonCodec, obj);
    expect(pretty).not.toBe(first);
    expect(pretty.toString()).toBe(prettyJsonCodec.encode(obj).toString());
  });

  test('an equal but distinct frozen object gets its own encoding', () => {
    const a = deepFreeze(configMap('1'));
    const b = deepFreeze(configMap('1'));
    expect(encodeShared(jsonCodec, b)).not.toBe(encodeShared(jsonCodec, a));
  });

  test('an object that is not frozen is encoded every time, so a change shows', () => {
    const obj = configMap('1');
    const before = encodeShared(jsonCodec, obj).toString();
    obj.data.v = '2';
    const after = encodeShared(jsonCodec, obj).toString();
    expect(JSON.parse(before).data.v).toBe('1');
    expect(JSON.parse(after).data.v).toBe('2');
  });
});
