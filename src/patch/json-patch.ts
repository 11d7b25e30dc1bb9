// RFC 6902 JSON patch (application/json-patch+json) with kube-apiserver's error
// tiers: a body that is not a list of operations is 400 with the decoder's text;
// an operation that cannot apply (failed `test`, missing path, unknown op) is "the
// server rejected our request ..." with a detail in the wording of
// evanphx/json-patch v4, the library kube uses; more than 10000 operations is
// 413, kube's maxJSONPatchOperations.
//
// Written here rather than delegated to fast-json-patch because pointers come
// from clients: every step of a path is an own member (`/toString`, `/__proto__`
// and `/constructor/prototype` are keys like any other: present as data or
// "doc is missing path"), writes define own data members, and two bounds hold
// across operations: `copy` may add at most JSON_PATCH_MAX_COPY_BYTES (kube arms
// evanphx's AccumulatedCopySizeLimit with its max request body size), and no
// `add`/`copy`/`move` may nest the document deeper than MAX_DEPTH, so a shallow
// patch cannot build a document that later walks would overflow on.
import { requestEntityTooLarge } from '../errors/status-error.js';
import { depthOf, exceededMaxDepth, MAX_DEPTH } from '../codecs/depth.js';
import { patchedObjectInvalid, patchRejected, patchUndecodable } from './errors.js';
import { cloneJson, getOwn, goJsonType, isJsonMap, parseJson, setOwn, type Json, type JsonMap } from './json.js';

export const MAX_JSON_PATCH_OPERATIONS = 10000;

/** kube's JSONPatchMaxCopyBytes: the apiserver's MaxRequestBodyBytes, 3 MiB. */
export const JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024;

/** One decoded operation: an object from the body, read by own members only. */
export type JsonPatchOperation = JsonMap;

/** Decodes the body into operations; only the shape Go's decoder checks is checked here. */
export function decodeJsonPatch(body: Buffer | string): readonly JsonPatchOperation[] {
  const parsed = parseJson(body);
  if (!parsed.ok) throw patchUndecodable(parsed.message);
  const ops = parsed.value;
  if (!Array.isArray(ops)) throw patchUndecodable(`json: cannot unmarshal ${goJsonType(ops)} into Go value of type jsonpatch.Patch`);
  const bad = ops.find((op) => !isJsonMap(op));
  if (bad !== undefined) throw patchUndecodable(`json: cannot unmarshal ${goJsonType(bad)} into Go value of type jsonpatch.Operation`);
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
  }
  return ops as JsonMap[];
}

const INDEX = /^(0|[1-9][0-9]*)$/;

/** Where a pointer leads: the container holding the target and the target's key. */
interface Slot {
  readonly parent: JsonMap | Json[];
  readonly key: string;
}

interface Applying {
  readonly name: string;
  readonly path: string;
  copied: number;
}

function missingPath(a: Applying): never {
  throw patchRejected(`${a.name} operation does not apply: doc is missing path: ${JSON.stringify(a.path)}: missing value`);
}

function invalidIndex(key: string): never {
  throw patchRejected(`Unable to access invalid index: ${key}: invalid index referenced`);
}

/** RFC 6901 tokens; undefined for something that is not a pointer below the root. */
function tokens(pointer: Json | undefined): string[] | undefined {
  // evanphx finds no object for "" (the whole document), nor for a non-pointer.
  if (typeof pointer !== 'string' || !pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** The slot a pointer names; undefined when any step before the last is not there. */
function slotOf(doc: Json, pointer: Json | undefined): Slot | undefined {
  const parts = tokens(pointer);
  if (parts === undefined) return undefined;
  let cur: Json = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const t = parts[i]!;
    if (Array.isArray(cur)) {
      if (!INDEX.test(t) || Number(t) >= cur.length) return undefined;
      cur = cur[Number(t)]!;
    } else if (isJsonMap(cur)) {
      if (!Object.hasOwn(cur, t)) return undefined;
      cur = cur[t]!;
    } else return undefined;
  }
  if (!Array.isArray(cur) && !isJsonMap(cur)) return undefined;
  return { parent: cur, key: parts[parts.length - 1]! };
}

function has(slot: Slot): boolean {
  if (Array.isArray(slot.parent)) return INDEX.test(slot.key) && Number(slot.key) < slot.parent.length;
  return Object.hasOwn(slot.parent, slot.key);
}

function read(slot: Slot): Json | undefined {
  if (Array.isArray(slot.parent)) return INDEX.test(slot.key) ? slot.parent[Number(slot.key)] : undefined;
  return getOwn(slot.parent, slot.key);
}

function add(a: Applying, slot: Slot, value: Json): void {
  // The value lands inside `depth` containers; nothing may end up deeper than a decoded body could be.
  const depth = (tokens(a.path)?.length ?? 0) + depthOf(value);
  if (depth > MAX_DEPTH) {
    throw patchedObjectInvalid({ value: '', detail: `couldn't get version/kind; json parse error: ${exceededMaxDepth(Array.isArray(value) ? '[' : '{')}` });
  }
  if (!Array.isArray(slot.parent)) {
    setOwn(slot.parent, slot.key, value);
    return;
  }
  const list = slot.parent;
  if (slot.key === '-') list.push(value);
  else if (INDEX.test(slot.key) && Number(slot.key) <= list.length) list.splice(Number(slot.key), 0, value);
  else invalidIndex(slot.key);
}

function remove(slot: Slot): void {
  if (Array.isArray(slot.parent)) slot.parent.splice(Number(slot.key), 1);
  else delete slot.parent[slot.key];
}

/** JSON equality over own members (evanphx compares decoded values). */
function equal(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => equal(v, b[i]));
  if (!isJsonMap(a) || !isJsonMap(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
}

function valueOf(a: Applying, op: JsonMap): Json {
  if (!Object.hasOwn(op, 'value')) throw patchRejected(`${a.name} operation does not apply: missing value`);
  return op.value!;
}

/** The slot `from` names, which must hold a value. */
function source(a: Applying, doc: Json, op: JsonMap): Slot {
  const from = getOwn(op, 'from');
  const slot = slotOf(doc, from);
  if (slot === undefined || !has(slot)) {
    throw patchRejected(`${a.name} operation does not apply: doc is missing from path: ${JSON.stringify(from ?? '')}: missing value`);
  }
  return slot;
}

function applyOne(doc: Json, op: JsonMap, a: Applying): void {
  const known = a.name === 'add' || a.name === 'remove' || a.name === 'replace' || a.name === 'move' || a.name === 'copy' || a.name === 'test';
  if (!known) throw patchRejected(`Unexpected kind: ${a.name}`);
  if (a.name === 'move' || a.name === 'copy') {
    const from = source(a, doc, op);
    let value = read(from)!;
    if (a.name === 'move') remove(from);
    else {
      a.copied += Buffer.byteLength(JSON.stringify(value));
      if (a.copied > JSON_PATCH_MAX_COPY_BYTES) {
        throw patchRejected(`Unable to complete the copy, the accumulated size increase of copy is ${a.copied}, exceeding the limit ${JSON_PATCH_MAX_COPY_BYTES}`);
      }
      value = cloneJson(value);
    }
    const to = slotOf(doc, a.path);
    if (to === undefined) missingPath(a);
    add(a, to, value);
    return;
  }
  const slot = slotOf(doc, a.path);
  if (slot === undefined) missingPath(a);
  switch (a.name) {
    case 'add':
      add(a, slot, cloneJson(valueOf(a, op)));
      return;
    case 'remove':
      if (!has(slot)) return Array.isArray(slot.parent) ? invalidIndex(slot.key) : missingPath(a);
      remove(slot);
      return;
    case 'replace': {
      const value = cloneJson(valueOf(a, op));
      if (!has(slot)) return Array.isArray(slot.parent) ? invalidIndex(slot.key) : missingPath(a);
      remove(slot);
      add(a, slot, value);
      return;
    }
    case 'test': {
      const want = valueOf(a, op);
      if (!equal(read(slot) ?? null, want)) throw patchRejected(`testing value ${a.path} failed: test failed`);
      return;
    }
  }
}

/** Applies the operations to a copy of `doc`; `doc` itself is never changed. */
export function applyJsonPatch(doc: Json, ops: readonly JsonPatchOperation[]): Json {
  const copy = cloneJson(doc);
  let copied = 0;
  for (const op of ops) {
    const name = getOwn(op, 'op');
    const path = getOwn(op, 'path');
    const a: Applying = { name: typeof name === 'string' ? name : '', path: typeof path === 'string' ? path : '', copied };
    applyOne(copy, op, a);
    copied = a.copied;
  }
  return copy;
}
