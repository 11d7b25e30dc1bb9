// Encodings of shared, read-only objects, kept beside them. The store answers a
// GET with one deep-frozen object per stored version (storage.ts), so every GET
// of an unchanged object would encode the same object into the same bytes; the
// first encoding per codec is kept and reused until the object is collected
// (kube's apiserver does the same for watch fan-out with its caching object).
// Only frozen objects qualify: nothing can change them after the bytes were made.
import type { Codec } from './codec.js';

const encodings = new WeakMap<object, Map<Codec, Buffer>>();

/** codec.encode(obj), reused for a frozen object; answers are read-only bytes. */
export function encodeShared(codec: Codec, obj: object): Buffer {
  if (!Object.isFrozen(obj)) return codec.encode(obj);
  let byCodec = encodings.get(obj);
  if (byCodec === undefined) {
    byCodec = new Map();
    encodings.set(obj, byCodec);
  }
  let bytes = byCodec.get(codec);
  if (bytes === undefined) {
    bytes = codec.encode(obj);
    byCodec.set(codec, bytes);
  }
  return bytes;
}
