// Protobuf watch frames: length prefix, un-enveloped WatchEvent, enveloped object.
import { describe, expect, test } from 'vitest';
import { protobufCodec } from '../../src/codecs/protobuf.js';
import { decodeWatchFrame, encodeWatchFrame, type WatchEventType } from '../../src/codecs/protobuf/watch.js';

const cases: { name: string; type: WatchEventType; object: Record<string, unknown> }[] = [
  { name: 'added config map', type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', resourceVersion: '7' }, data: { k: 'v' } } },
  { name: 'bookmark', type: 'BOOKMARK', object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '9', annotations: { 'k8s.io/initial-events-end': 'true' } } } },
  { name: 'error status', type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 } },
];

describe('protobuf watch frames', () => {
  for (const c of cases) {
    test(c.name, () => {
      const frame = encodeWatchFrame({ codec: protobufCodec, type: c.type, object: c.object });
      expect(frame.readUInt32BE(0)).toBe(frame.length - 4);
      // The event itself carries no k8s\0 envelope; the object inside it does.
      expect(frame.subarray(4, 8).toString('hex')).not.toBe('6b387300');
      expect(frame.includes(Buffer.from('6b387300', 'hex'))).toBe(true);
      expect(decodeWatchFrame({ codec: protobufCodec, buf: frame })).toEqual({ type: c.type, object: c.object, size: frame.length });
    });
  }

  test('frames concatenate into a stream', () => {
    const stream = Buffer.concat(cases.map((c) => encodeWatchFrame({ codec: protobufCodec, type: c.type, object: c.object })));
    const types: string[] = [];
    for (let offset = 0; offset < stream.length; ) {
      const frame = decodeWatchFrame({ codec: protobufCodec, buf: stream.subarray(offset) });
      types.push(frame.type);
      offset += frame.size;
    }
    expect(types).toEqual(cases.map((c) => c.type));
  });

  test('a truncated frame is a 400', () => {
    const frame = encodeWatchFrame({ codec: protobufCodec, type: 'ADDED', object: cases[0]!.object });
    expect(() => decodeWatchFrame({ codec: protobufCodec, buf: frame.subarray(0, frame.length - 1) })).toThrow(/truncated/);
  });
});
