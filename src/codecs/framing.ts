// Watch stream framing: how one watch event goes on the wire for the negotiated
// codec, as apimachinery's stream serializers do it. JSON: one
// {"type":…,"object":…} object per line (json.Framer), answered as
// application/json. Protobuf: a 4-byte big-endian length, then a metav1.WatchEvent
// {1: type, 2: RawExtension{1: raw}} written by protobuf.RawSerializer (no `k8s\0`
// envelope on the event), whose raw is the object in the full enveloped encoding
// (protobuf.LengthDelimitedFramer; client-go's streaming decoder reads it so),
// answered as application/vnd.kubernetes.protobuf;stream=watch (apiserver
// handlers/watch.go: every stream media type but JSON gets ";stream=watch").
// YAML has no stream serializer in kube, so it has no framer here.
import type { Codec } from './codec.js';
import { encodeWatchFrame, type WatchEventType } from './protobuf/watch.js';

export type { WatchEventType } from './protobuf/watch.js';

export interface WatchFrameEvent {
  readonly type: WatchEventType;
  readonly object: object;
}

export interface WatchFramer {
  /** What a watch response in this framing answers as Content-Type. */
  readonly contentType: string;
  /** The codec the event's object is written in. */
  readonly codec: Codec;
  /** One event as it goes on the wire, framing included. */
  frame(event: WatchFrameEvent): Buffer;
}

const TYPE_PREFIX: Readonly<Record<WatchEventType, Buffer>> = {
  ADDED: Buffer.from('{"type":"ADDED","object":'),
  MODIFIED: Buffer.from('{"type":"MODIFIED","object":'),
  DELETED: Buffer.from('{"type":"DELETED","object":'),
  BOOKMARK: Buffer.from('{"type":"BOOKMARK","object":'),
  ERROR: Buffer.from('{"type":"ERROR","object":'),
};
const LINE_END = Buffer.from('}\n');

/**
 * Newline-delimited JSON events. The object's bytes come from the JSON codec (Go's
 * escaping of <, >, &, U+2028/9, and its trailing newline, which the frame drops),
 * so a line is byte-identical to JSON.stringify({type, object}) escaped the same way.
 */
export function jsonLinesFramer(codec: Codec): WatchFramer {
  return {
    contentType: codec.mediaType,
    codec,
    frame: (event) => {
      const body = codec.encode(event.object);
      const end = body.length > 0 && body[body.length - 1] === 0x0a ? body.length - 1 : body.length;
      return Buffer.concat([TYPE_PREFIX[event.type], body.subarray(0, end), LINE_END]);
    },
  };
}

/** Length-prefixed metav1.WatchEvent messages around enveloped protobuf objects. */
export function lengthDelimitedFramer(codec: Codec): WatchFramer {
  return {
    contentType: `${codec.mediaType};stream=watch`,
    codec,
    frame: (event) => encodeWatchFrame({ codec, type: event.type, object: event.object }),
  };
}

/**
 * The frames made so far for each shared object, per framer and event type. Storage
 * hands every watcher of a resource the same deep-frozen object for one event
 * (storage/object-store/watch.ts), so the first watcher to write it encodes it and
 * every other watcher with the same framer writes the very same Buffer; like kube's
 * cachingObject, the bytes live as long as the object does.
 */
const frames = new WeakMap<object, Map<WatchFramer, Partial<Record<WatchEventType, Buffer>>>>();

/** The frame frameShared made or found last (for a frozen object only); no object per update. */
let lastObject: object | undefined;
let lastFramer: WatchFramer | undefined;
let lastType: WatchEventType | undefined;
let lastBytes: Buffer = Buffer.alloc(0);

/**
 * framer.frame(event), made once per (frozen object, framer, type) and then reused.
 * An object that is not frozen may be changed or is private to one watcher (a
 * Table row, a bookmark): it is framed afresh each time. Callers must not change
 * the Buffer they get.
 */
export function frameShared(framer: WatchFramer, event: WatchFrameEvent): Buffer {
  // Every watcher of an event asks for it in turn: the last answer serves most of them.
  if (event.object === lastObject && framer === lastFramer && event.type === lastType) return lastBytes;
  if (!Object.isFrozen(event.object)) return framer.frame(event);
  let byFramer = frames.get(event.object);
  if (byFramer === undefined) {
    byFramer = new Map();
    frames.set(event.object, byFramer);
  }
  let byType = byFramer.get(framer);
  if (byType === undefined) {
    byType = {};
    byFramer.set(framer, byType);
  }
  let bytes = byType[event.type];
  if (bytes === undefined) {
    bytes = framer.frame(event);
    byType[event.type] = bytes;
  }
  lastObject = event.object;
  lastFramer = framer;
  lastType = event.type;
  lastBytes = bytes;
  return bytes;
}
