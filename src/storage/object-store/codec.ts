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
  const { resourceVersion: _rv, selfLink: _selfLink, ...metadata } = obj.metadata ?? {};
  return codec.encode({ ...obj, metadata });
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
