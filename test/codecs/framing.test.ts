// Watch framers: JSON lines byte-identical to the hand-framed lines the watch
// handler wrote before (Go's escaping, one event per line), protobuf frames as
// apimachinery's LengthDelimitedFramer + RawSerializer write them, and one frame
// per (shared object, framer, type).
import { describe, expect, test } from 'vitest';
import { frameShared, jsonLinesFramer, lengthDelimitedFramer, type WatchEventType } from '../../src/codecs/framing.js';
import { jsonCodec } from '../../src/codecs/json.js';
import { protobufCodec } from '../../src/codecs/protobuf.js';
import { decodeWatchFrame } from '../../src/codecs/protobuf/watch.js';
import { defaultCodecs } from '../../src/codecs/registry.js';
import { yamlCodec } from '../../src/codecs/yaml.js';

/** What src/endpoints/handlers/watch.ts wrote before framers existed (its frame()). */
function legacyFrame(event: { type: string; object: unknown }): string {
  return `${JSON.stringify(event).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

const configMap = (data: Record<string, string>) => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', namespace: 'default', resourceVersion: '7' }, data });

const jsonCases: { name: string; type: WatchEventType; object: object }[] = [
  { name: 'plain object', type: 'ADDED', object: configMap({ k: 'v' }) },
  { name: 'HTML-sensitive characters escaped as Go does', type: 'MODIFIED', object: configMap({ k: '<a href="x">&</a>' }) },
  { name: 'line and paragraph separators escaped', type: 'DELETED', object: configMap({ k: 'a\u2028b\u2029c' }) },
  { name: 'newline inside a value stays escaped on one line', type: 'MODIFIED', object: configMap({ k: 'a\nb' }) },
  { name: 'bookmark', type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '9' } } },
  { name: 'error status', type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 } },
  { name: 'unicode', type: 'ADDED', object: configMap({ k: 'ünïcødé ✓ 😀' }) },
];

describe('JSON lines framer', () => {
  const framer = jsonLinesFramer(jsonCodec);
  for (const c of jsonCases) {
    test(`byte-identical to the old handler: ${c.name}`, () => {
      const bytes = framer.frame({ type: c.type, object: c.object });
      expect(bytes.toString('utf8')).toBe(legacyFrame({ type: c.type, object: c.object }));
      expect(bytes.indexOf(0x0a)).toBe(bytes.length - 1);
    });
  }
  test('answers application/json, as kube does for a JSON watch', () => {
    expect(framer.contentType).toBe('application/json');
  });
});

describe('length-delimited protobuf framer', () => {
  const framer = lengthDelimitedFramer(protobufCodec);
  test('answers the ;stream=watch media type', () => {
    expect(framer.contentType).toBe('application/vnd.kubernetes.protobuf;stream=watch');
  });
  test('4-byte big-endian length, un-enveloped WatchEvent, enveloped object', () => {
    const object = configMap({ k: 'v' });
    const bytes = framer.frame({ type: 'ADDED', object });
    expect(bytes.readUInt32BE(0)).toBe(bytes.length - 4);
    // WatchEvent field 1 (type), length-delimited: tag 0x0a right after the length.
    expect(bytes[4]).toBe(0x0a);
    expect(decodeWatchFrame({ codec: protobufCodec, buf: bytes })).toEqual({ type: 'ADDED', object, size: bytes.length });
  });
});

describe('framers by codec', () => {
  const cases: { name: string; codec: typeof jsonCodec; want: string | undefined }[] = [
    { name: 'JSON', codec: jsonCodec, want: 'application/json' },
    { name: 'pretty JSON frames as plain JSON', codec: defaultCodecs.prettyJson, want: 'application/json' },
    { name: 'protobuf', codec: protobufCodec, want: 'application/vnd.kubernetes.protobuf;stream=watch' },
    { name: 'YAML has no stream form', codec: yamlCodec, want: undefined },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(defaultCodecs.framerFor(c.codec)?.contentType).toBe(c.want);
    });
  }
  test('stream media types, as a watch 406 lists them', () => {
    expect(defaultCodecs.streamMediaTypes).toEqual(['application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch']);
  });
});

describe('frameShared', () => {
  const framer = defaultCodecs.framerFor(jsonCodec)!;
  test('a frozen object is framed once per framer and type: the same Buffer for every watcher', () => {
    const object = Object.freeze(configMap({ k: 'v' }));
    const first = frameShared(framer, { type: 'MODIFIED', object });
    expect(frameShared(framer, { type: 'MODIFIED', object })).toBe(first);
    const added = frameShared(framer, { type: 'ADDED', object });
    expect(added).not.toBe(first);
    expect(added.toString()).toBe(legacyFrame({ type: 'ADDED', object }));
    const pb = frameShared(defaultCodecs.framerFor(protobufCodec)!, { type: 'MODIFIED', object });
    expect(pb).not.toBe(first);
    expect(pb.readUInt32BE(0)).toBe(pb.length - 4);
  });
  test('an object that may change is framed afresh', () => {
    const object = configMap({ k: 'v' });
    const first = frameShared(framer, { type: 'ADDED', object });
    object.data.k = 'w';
    const second = frameShared(framer, { type: 'ADDED', object });
    expect(second).not.toBe(first);
    expect(second.toString()).toContain('"k":"w"');
  });
});
