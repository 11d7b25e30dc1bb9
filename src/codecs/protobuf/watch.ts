// Protobuf watch streams (Accept: application/vnd.kubernetes.protobuf;stream=watch).
// apimachinery's protobuf stream serializer writes each event as a 4-byte
// big-endian length followed by a metav1.WatchEvent message *without* the `k8s\0`
// envelope ({1: type, 2: RawExtension{1: raw}}); the object inside raw is a full
// protobuf encoding with magic and envelope, decoded by the client as any body.
// TODO(#3): verify against a client-go watcher; kubectl itself watches in JSON.
import { badRequest } from '../../errors/status-error.js';
import type { Codec } from '../codec.js';
import { LENGTH_DELIMITED, Reader, Writer } from './wire.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One length-prefixed frame carrying `object` encoded by `codec` (the protobuf codec). */
export function encodeWatchFrame(opts: { codec: Codec; type: WatchEventType; object: unknown }): Buffer {
  const raw = opts.codec.encode(opts.object);
  const w = new Writer(raw.length + 32);
  w.pos = 4; // the frame length goes here once known
  w.tag(1, LENGTH_DELIMITED);
  w.string(opts.type);
  w.tag(2, LENGTH_DELIMITED);
  const object = w.fork();
  w.tag(1, LENGTH_DELIMITED);
  w.bytes(raw);
  w.ldelim(object);
  w.buf.writeUInt32BE(w.pos - 4, 0);
  return w.finish();
}

export interface WatchFrame {
  readonly type: string;
  readonly object: unknown;
  /** Bytes consumed from the buffer, so a caller can walk a stream. */
  readonly size: number;
}

/** Reads one frame from the start of `buf` (the inverse of encodeWatchFrame). */
export function decodeWatchFrame(opts: { codec: Codec; buf: Buffer }): WatchFrame {
  const { buf } = opts;
  if (buf.length < 4 || buf.readUInt32BE(0) + 4 > buf.length) throw badRequest('truncated protobuf watch frame');
  const end = 4 + buf.readUInt32BE(0);
  const r = new Reader(buf, 4, end);
  let type = '';
  let raw: Uint8Array = new Uint8Array(0);
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | LENGTH_DELIMITED)) type = r.string();
    else if (tag === ((2 << 3) | LENGTH_DELIMITED)) {
      const objectEnd = r.delimitedEnd();
      while (r.pos < objectEnd) {
        const inner = r.uint32();
        if (inner === ((1 << 3) | LENGTH_DELIMITED)) raw = r.bytes();
        else r.skip(inner & 7);
      }
    } else r.skip(tag & 7);
  }
  return { type, object: opts.codec.decode(Buffer.from(raw)), size: end };
}
