// How objects become stored bytes and back. Stored bytes never hold
// metadata.resourceVersion (or selfLink): the revision of the write is the
// resourceVersion, so it is set on every read and would only be stale on disk.
// This is kube's APIObjectVersioner.PrepareObjectForStorage / UpdateObject pair.
import { StorageError } from '../../errors/storage-error.js';
import type { KubeObject } from '../../schema/object.js';
import { goEscape, jsonAnswerBytes, needsGoEscape } from '../../codecs/json.js';

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

/**
 * The JSON text of a stored object as the fragments it is joined from, one of
 * them metadata's text. Reads answer the same object with resourceVersion in
 * its metadata, so the answer's JSON is the same text with another metadata
 * text: a write serializes its object once, not once for storage and again for
 * its answer (decoded.ts keeps that answer). The stored bytes are the first part
 * of one allocation whose rest (`spare`) is room for the answer, which is the
 * stored bytes around metadata copied, not the text encoded again: one buffer
 * per write instead of two, and a copy instead of a second UTF-8 encoding.
 */
export interface StoredJson {
  readonly fragments: readonly string[];
  /** Where metadata's text is in `fragments`. */
  readonly metadataAt: number;
  /** Where metadata's text is in the stored bytes. */
  readonly metadataStart: number;
  readonly metadataEnd: number;
  /** No fragment but metadata's needs Go's escapes, so the bytes around it are the answer's too. */
  readonly plain: boolean;
  /** The rest of the stored bytes' allocation, for the answer. */
  readonly spare: Buffer;
}

/**
 * Room for the answer beyond the stored bytes' length: the answer's metadata
 * adds `,"resourceVersion":"<revision>"` (at most 41 bytes) and the trailing
 * newline; escapes in metadata may not fit, and those answers get their own memory.
 */
const ANSWER_SLACK = 64;

/** encodeForStorage's result: the bytes to store and, with the JSON codec, their text's fragments. */
export interface StorageEncoding {
  readonly value: Uint8Array;
  readonly json?: StoredJson;
}

/** What a write stores, and with the JSON codec the fragments of its text. */
export function encodeForStorage(codec: ObjectCodec, obj: KubeObject): StorageEncoding {
  const { resourceVersion: _rv, selfLink: _selfLink, ...metadata } = obj.metadata ?? {};
  const stored: KubeObject = { ...obj, metadata };
  if (codec !== jsonObjectCodec) return { value: codec.encode(stored) };
  const { fragments, metadataAt } = storedJson(stored);
  let length = 0;
  let plain = true;
  for (let i = 0; i < fragments.length; i++) {
    const fragment = fragments[i]!;
    length += Buffer.byteLength(fragment, 'utf8');
    if (plain && i !== metadataAt && needsGoEscape(fragment)) plain = false;
  }
  // Memory of its own (not a pool slice): the stored object keeps it, and its answer.
  const memory = Buffer.allocUnsafeSlow(length + length + ANSWER_SLACK);
  const value = memory.subarray(0, length);
  let at = 0;
  let metadataStart = 0;
  let metadataEnd = 0;
  for (let i = 0; i < fragments.length; i++) {
    if (i === metadataAt) metadataStart = at;
    at += value.write(fragments[i]!, at, 'utf8');
    if (i === metadataAt) metadataEnd = at;
  }
  return { value, json: { fragments, metadataAt, metadataStart, metadataEnd, plain, spare: memory.subarray(length) } };
}

/** JSON.stringify(stored) as fragments: the same members, in the same order, the same text. */
function storedJson(stored: KubeObject): { fragments: string[]; metadataAt: number } {
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

/**
 * encodeJson's bytes for the stored object of `json` whose metadata's text is
 * now `metadataText`: the stored bytes around metadata copied into the spare
 * memory after them when they need no escapes and the answer fits; else joined
 * from the fragments in memory of their own.
 */
export function storedAnswer(json: StoredJson, value: Uint8Array, metadataText: string): Buffer {
  const { metadataStart, metadataEnd, spare } = json;
  const metadata = goEscape(metadataText);
  const metadataLength = Buffer.byteLength(metadata, 'utf8');
  const length = metadataStart + metadataLength + (value.length - metadataEnd) + 1;
  if (!json.plain || length > spare.length) {
    const fragments = json.fragments.slice();
    fragments[json.metadataAt] = metadataText;
    return jsonAnswerBytes(fragments);
  }
  const answer = spare.subarray(0, length);
  answer.set(value.subarray(0, metadataStart), 0);
  answer.write(metadata, metadataStart, 'utf8');
  answer.set(value.subarray(metadataEnd), metadataStart + metadataLength);
  answer[length - 1] = 0x0a;
  return answer;
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
 * Whether `next` would store what `current` holds, up to the order of object
 * members: kube's encodings put a struct's fields in declaration order and a map's
 * keys sorted, so members met in another order (a client's, or metadata filled in
 * another sequence on update than on create) never make a change there.
 * resourceVersion and selfLink, which storage drops, are left out; members whose
 * value has no JSON text (undefined) are absent, as JSON.stringify leaves them.
 */
export function sameStoredContent(next: KubeObject, current: KubeObject): boolean {
  return jsonEqual(next, current, ROOT);
}

const ROOT = 1;
const METADATA = 2;
const INNER = 0;

function jsonEqual(a: unknown, b: unknown, level: number): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    // JSON.stringify writes an undefined item as null.
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i] ?? null, b[i] ?? null, INNER)) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let members = 0;
  for (const key in ao) {
    if (!Object.hasOwn(ao, key) || ao[key] === undefined || droppedBy(level, key)) continue;
    members++;
    if (!Object.hasOwn(bo, key) || !jsonEqual(ao[key], bo[key], level === ROOT && key === 'metadata' ? METADATA : INNER)) return false;
  }
  for (const key in bo) if (Object.hasOwn(bo, key) && bo[key] !== undefined && !droppedBy(level, key)) members--;
  return members === 0;
}

function droppedBy(level: number, key: string): boolean {
  return level === METADATA && (key === 'resourceVersion' || key === 'selfLink');
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
