// One decoded object per stored value. A KV hands out the very bytes it was given
// or last read (SQLite's write log and latest-value cache, the memory KV), so the
// same value reaches get, list, the guaranteed-update loop and every watch event
// of its revision: it is decoded the first time and the deep-frozen object is
// shared from then on (and, through codecs/shared-encoding.ts, its encodings).
// A write registers the object it stored, so reading its own bytes back — the
// watch event that feeds the watch cache, the next update's current state — costs
// no decode at all. Values the KV drops take their objects with them.
import type { KubeObject } from '../../schema/object.js';
import { jsonCodec } from '../../codecs/json.js';
import { keepEncoding } from '../../codecs/shared-encoding.js';
import type { KvWriteResult } from '../kv.js';
import { decodeObject, deepFreeze, jsonObjectCodec, storedAnswer, type ObjectCodec, type StorageEncoding, type StoredJson } from './codec.js';

export class DecodedValues {
  private readonly byValue = new WeakMap<Uint8Array, KubeObject>();
  /** The other way: the stored bytes an object was decoded from or written as. */
  private readonly byObject = new WeakMap<KubeObject, Uint8Array>();
  /** Writes in flight (write()): the object each value is the encoding of, so no watched write decodes its own bytes. */
  private readonly writing = new WeakMap<Uint8Array, { readonly object: KubeObject; readonly json: StoredJson | undefined }>();
  /**
   * Decoding what the codec encoded gives back the same JSON-shaped object (true
   * of JSON); a codec that drops or reshapes fields (protobuf) must decode.
   */
  private readonly faithful: boolean;

  constructor(private readonly codec: ObjectCodec) {
    this.faithful = codec === jsonObjectCodec;
  }

  /**
   * The frozen object stored as `value`, stamped with `revision`. A delete's
   * event carries the last value at the deleting revision: that stamp differs,
   * so it gets its own object. Throws InvalidObject.
   */
  decode(key: string, value: Uint8Array, revision: number): KubeObject {
    const known = this.byValue.get(value);
    if (known !== undefined && known.metadata.resourceVersion === String(revision)) return known;
    const written = this.writing.get(value);
    if (written !== undefined) return this.stored(key, value, written.object, revision, written.json);
    const object = deepFreeze(decodeObject(this.codec, { key, value, revision }));
    if (known === undefined) {
      this.byValue.set(value, object);
      this.byObject.set(object, value);
    }
    return object;
  }

  /**
   * Stores `encoded` (the encoding of `object`, which the caller hands over)
   * through `commit` and answers the stored object, stamped with the commit's
   * revision. The object is announced before the commit: a backend may hand the
   * commit's events to its watchers before `commit` settles (SQLite publishes
   * inside the commit), and decode() then makes the stored object from it too.
   */
  async write(key: string, object: KubeObject, encoded: StorageEncoding, commit: (value: Uint8Array) => Promise<KvWriteResult>): Promise<KubeObject> {
    const { value, json } = encoded;
    if (this.faithful) this.writing.set(value, { object, json });
    let revision: number;
    try {
      ({ revision } = await commit(value));
    } catch (err) {
      this.writing.delete(value);
      throw err;
    }
    return this.stored(key, value, object, revision, json);
  }

  /**
   * What a write stored as `value` at `revision`: `object` (the input of the
   * encode, minus what encodeObject strips) with its resourceVersion, frozen and
   * remembered; whichever of the write and a watch event of its commit comes
   * first makes it, the other finds it.
   */
  private stored(key: string, value: Uint8Array, object: KubeObject, revision: number, json: StoredJson | undefined): KubeObject {
    if (!this.faithful) return this.decode(key, value, revision);
    const known = this.byValue.get(value);
    if (known !== undefined && known.metadata.resourceVersion === String(revision)) return known;
    this.writing.delete(value);
    const { selfLink: _selfLink, ...metadata } = object.metadata ?? {};
    const result = deepFreeze({ ...object, metadata: { ...metadata, resourceVersion: String(revision) } });
    this.byValue.set(value, result);
    this.byObject.set(result, value);
    // The write's answer (and every JSON GET until the next change) is this
    // object as JSON: the stored text's pieces around the stamped metadata.
    if (json !== undefined) keepEncoding(jsonCodec, result, storedAnswer(json, value, JSON.stringify(result.metadata)));
    return result;
  }

  /**
   * The stored bytes of an object this registry handed out (the watch cache's
   * copies are such objects), so a write starting from one need not encode it
   * again to tell a no-op; undefined for any other object.
   */
  bytesOf(object: KubeObject): Uint8Array | undefined {
    return this.byObject.get(object);
  }
}
