// Encodings of shared, read-only objects, kept beside them. The store answers a
// GET with one deep-frozen object per stored version (storage.ts), so every GET
// of an unchanged object would encode the same object into the same bytes; the
// first encoding per codec is kept and reused until the object is collected
// (kube's apiserver does the same for watch fan-out with its caching object).
// Only frozen objects qualify: nothing can change them after the bytes were made.
import type { Codec } from './codec.js';

/** Bytes per frozen object, per codec (or list-item encoder: a Codec is one too). */
const encodings = new WeakMap<object, Map<ItemEncoder, Buffer>>();

/** codec.encode(obj), reused for a frozen object; answers are read-only bytes. */
export function encodeShared(codec: Codec, obj: object): Buffer {
  if (!Object.isFrozen(obj)) return codec.encode(obj);
  return sharedBy(encodings, codec, obj, () => codec.encode(obj));
}

/**
 * Records `bytes` as codec.encode(obj) for a frozen object whose maker already
 * has its encoding (a write's stored object, storage/object-store/decoded.ts);
 * encodeShared answers them from then on. `bytes` must share their memory with
 * nothing that outlives `obj` (not a pool slice: that would pin the whole pool).
 */
export function keepEncoding(codec: Codec, obj: object, bytes: Buffer): void {
  if (!Object.isFrozen(obj)) return;
  let byCodec = encodings.get(obj);
  if (byCodec === undefined) {
    byCodec = new Map();
    encodings.set(obj, byCodec);
  }
  byCodec.set(codec, bytes);
}

/** What encodeItemShared keys its bytes by: one encoder per output form (JSON list item, protobuf message). */
export interface ItemEncoder {
  encode(item: object): Buffer;
}

interface ItemEntry {
  readonly keys: readonly string[];
  readonly values: readonly unknown[];
  readonly bytes: Buffer;
}

const itemEncodings = new WeakMap<object, Map<ItemEncoder, ItemEntry[]>>();

/**
 * Entries kept per (metadata, encoder): an object's list item and its
 * PartialObjectMetadata item share their metadata and are both JSON items.
 */
const ENTRIES_PER_ANCHOR = 2;

/** Whether a value cannot change under us: a primitive or a frozen object. */
function isImmutable(value: unknown): boolean {
  return (typeof value !== 'object' && typeof value !== 'function') || value === null || Object.isFrozen(value);
}

/**
 * encoder.encode(item), reused for a list item. A list answers its items without
 * apiVersion/kind (registry/store/read.ts), so each item is a fresh shallow copy of
 * a frozen stored object whose field values (metadata, spec, data …) are that
 * object's own frozen values. Such a copy encodes to the same bytes as long as it
 * has the same keys in the same order holding the very same values, which is what
 * a hit checks; the bytes hang off its frozen `metadata`, so they live as long as
 * the stored object does. A converted item (another version) has metadata of its
 * own and so bytes of its own. A frozen item is shared as encodeShared shares it;
 * anything holding a value that could change is encoded every time.
 */
export function encodeItemShared(encoder: ItemEncoder, item: object): Buffer {
  if (Object.isFrozen(item)) return sharedBy(encodings, encoder, item, () => encoder.encode(item));
  const anchor = (item as { metadata?: unknown }).metadata;
  if (typeof anchor !== 'object' || anchor === null || !Object.isFrozen(anchor)) return encoder.encode(item);
  let byEncoder = itemEncodings.get(anchor);
  const entries = byEncoder?.get(encoder);
  if (entries !== undefined) {
    for (const entry of entries) if (sameFields(entry, item as Record<string, unknown>)) return entry.bytes;
  }
  const encoded = encoder.encode(item);
  const keys = Object.keys(item);
  const values = keys.map((k) => (item as Record<string, unknown>)[k]);
  if (!values.every(isImmutable)) return encoded;
  const bytes = unpooled(encoded);
  if (byEncoder === undefined) {
    byEncoder = new Map();
    itemEncodings.set(anchor, byEncoder);
  }
  const kept = entries === undefined ? [] : entries.slice(-(ENTRIES_PER_ANCHOR - 1));
  byEncoder.set(encoder, [...kept, { keys, values, bytes }]);
  return bytes;
}

/** The item has exactly the entry's keys, in order, holding the very same values (no allocation: this runs per item per list). */
function sameFields(entry: ItemEntry, item: Record<string, unknown>): boolean {
  let i = 0;
  for (const key in item) {
    if (i >= entry.keys.length || entry.keys[i] !== key || entry.values[i] !== item[key]) return false;
    i++;
  }
  return i === entry.keys.length;
}

function sharedBy<K extends object>(cache: WeakMap<object, Map<K, Buffer>>, key: K, obj: object, encode: () => Buffer): Buffer {
  let byKey = cache.get(obj);
  if (byKey === undefined) {
    byKey = new Map();
    cache.set(obj, byKey);
  }
  let bytes = byKey.get(key);
  if (bytes === undefined) {
    bytes = unpooled(encode());
    byKey.set(key, bytes);
  }
  return bytes;
}

/**
 * Bytes that are kept for as long as their object lives, in memory of their own:
 * a small Buffer is a slice of Node's shared 8 KiB pool and would keep the whole
 * pool alive (about twice its size held per cached encoding).
 */
function unpooled(b: Buffer): Buffer {
  if (b.byteLength === b.buffer.byteLength) return b;
  const own = Buffer.allocUnsafeSlow(b.length);
  b.copy(own);
  return own;
}
