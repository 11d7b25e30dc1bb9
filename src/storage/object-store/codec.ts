// How objects become stored bytes and back. Stored bytes never hold
// metadata.resourceVersion (or selfLink): the revision of the write is the
// resourceVersion, so it is set on every read and would only be stale on disk.
// This is kube's APIObjectVersioner.PrepareObjectForStorage / UpdateObject pair.
import { StorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';

/** Bytes <-> objects for storage. The wire codecs (codecs/) fit this shape too. */
export interface ObjectCodec {
  encode(obj: KubeObject): Uint8Array;
  /** May throw anything; the store reports it as InvalidObject. */
  decode(bytes: Uint8Array): unknown;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export const jsonObjectCodec: ObjectCodec = {
  encode: (obj) => Buffer.from(JSON.stringify(obj), 'utf8'),
  decode: (bytes) => JSON.parse(utf8.decode(bytes)) as unknown,
};

/** The bytes to store: the object minus the fields the revision supplies. */
export function encodeObject(codec: ObjectCodec, obj: KubeObject): Uint8Array {
  return encodeForStorage(codec, obj).value;
}

/**
 * The JSON text of a stored object as the fragments it is joined from, one of
 * them metadata's text. Reads answer the same object with resourceVersion in
 * its metadata, so the answer's JSON is the same fragments with another
 * metadata text: a write serializes its object once, not once for storage and
 * again for its answer (decoded.ts keeps that answer). The fragments are written
 * into the bytes one by one; joining them first would copy the text once more.
 */
export interface StoredJson {
  readonly fragments: readonly string[];
  /** Where metadata's text is in `fragments`. */
  readonly metadataAt: number;
}

/** What a write stores, and with the JSON codec the fragments of its text. */
export function encodeForStorage(codec: ObjectCodec, obj: KubeObject): { value: Uint8Array; json?: StoredJson } {
  const { resourceVersion: _rv, selfLink: _selfLink, ...metadata } = obj.metadata ?? {};
  const stored: KubeObject = { ...obj, metadata };
  if (codec !== jsonObjectCodec) return { value: codec.encode(stored) };
  const json = storedJson(stored);
  return { value: utf8Fragments(json.fragments, (length) => Buffer.allocUnsafe(length)), json };
}

/** JSON.stringify(stored) as fragments: the same members, in the same order, the same text. */
function storedJson(stored: KubeObject): StoredJson {
  const fragments: string[] = [];
  let metadataAt = -1;
  for (const key in stored) {
    if (!Object.hasOwn(stored, key)) continue;
    // JSON.stringify's rule: a member whose value has no JSON text is left out.
    const text = JSON.stringify((stored as Record<string, unknown>)[key]) as string | undefined;
    if (text === undefined) continue;
    fragments.push(`${fragments.length === 0 ? '{' : ','}${JSON.stringify(key)}:`);
    if (key === 'metadata') metadataAt = fragments.length;
    fragments.push(text);
  }
  fragments.push(fragments.length === 0 ? '{}' : '}');
  return { fragments, metadataAt };
}

/** The UTF-8 bytes of the fragments joined, written into the buffer `into` makes for their length. */
export function utf8Fragments(fragments: readonly string[], into: (length: number) => Buffer): Buffer {
  let length = 0;
  for (const fragment of fragments) length += Buffer.byteLength(fragment, 'utf8');
  const bytes = into(length);
  let at = 0;
  for (const fragment of fragments) at += bytes.write(fragment, at, 'utf8');
  return bytes;
}

/** Decodes stored bytes and stamps the revision that wrote them. Throws InvalidObject. */
export function decodeObject(codec: ObjectCodec, opts: { key: string; value: Uint8Array; revision: number }): KubeObject {
  let decoded: unknown;
  try {
    decoded = codec.decode(opts.value);
  } catch (err) {
    throw new StorageError('InvalidObject', `cannot decode object stored at ${opts.key}: ${String(err)}`, {
      key: opts.key,
      cause: err,
    });
  }
  if (!isObjectShaped(decoded)) {
    throw new StorageError('InvalidObject', `object stored at ${opts.key} has no metadata`, { key: opts.key });
  }
  decoded.metadata.resourceVersion = String(opts.revision);
  return decoded;
}

function isObjectShaped(v: unknown): v is KubeObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const metadata = (v as { metadata?: unknown }).metadata;
  return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata);
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/**
 * Frozen all the way down: what tryUpdate sees as `current` must not be changed in
 * place. A frozen value is taken as frozen throughout (the shared parts of stored
 * objects). Every stored object passes here, so the walk allocates nothing: an
 * index loop over arrays (JSON arrays have no other members) and for-in over own
 * keys of objects, where Object.values would build an array per object.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) freezeChild(value[i]);
  } else {
    const obj = value as Record<string, unknown>;
    for (const key in obj) if (Object.hasOwn(obj, key)) freezeChild(obj[key]);
  }
  return value;
}

function freezeChild(child: unknown): void {
  if (typeof child === 'object' && child !== null) deepFreeze(child);
}
