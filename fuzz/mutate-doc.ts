// Structural mutators: they change the decoded body (a JSON value) before it is
// encoded, so the same change reaches the server as JSON, YAML or protobuf.
// Two markers survive into the JSON encoding (encode.ts): a key starting with
// DUP_KEY is written as the key after it (a duplicate field), a string starting
// with RAW_TOKEN is written verbatim (numbers JSON.stringify cannot produce).
import { cloneJson, setOwn } from './input.js';
import { isMap, KINDS, type Json, type JsonMap } from './kinds.js';
import type { Rng } from './rng.js';

export const DUP_KEY = '\u0000dup:';
export const RAW_TOKEN = '\u0000raw:';

export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf'];

const raw = (t: string): string => RAW_TOKEN + t;
const ODD_VALUES: readonly Json[] = [
  0, -1, 1.5, 1e308, -2147483649, 4294967296, true, false, null, '', 'x', [], {}, ['a'], { a: 'b' }, '0', 'true', '1Gi', '-0',
  raw('1e400'), raw('-1e400'), raw('123456789012345678901234567890'), raw('-0'), raw('1E+2'), raw('9007199254740993'), raw('0.0000000000000000000000001'),
];
const ODD_STRINGS: readonly string[] = [
  'ünïcödé', 'ключ', '字段', '😀', '\u202eRTL', 'a\u0000b', 'line\nbreak', 'UPPER', 'a'.repeat(300), '..', '.', 'a/b', '%2e%2e', ' ', '\t', '$patch', 'a:b',
  raw('"\\ud800"'), raw('"\\udc00\\ud800"'), '{"toString":"a"}', '__proto__', 'constructor',
];
const NAMES: readonly string[] = ['', 'UPPER', 'a'.repeat(254), 'a'.repeat(64), '..', '.', 'a/b', 'a%b', 'ünï', '-a', 'a-', 'a_b', 'a.b', '0o17', '__proto__', 'toString', 'fz-configmap-1'];

interface Slot {
  readonly parent: JsonMap | Json[];
  readonly key: string | number;
}

/** Every value position up to a bound (breadth first, so shallow fields are as likely as deep ones). */
function slots(doc: Json, limit = 400): Slot[] {
  const out: Slot[] = [];
  const queue: Json[] = [doc];
  for (let i = 0; i < queue.length && out.length < limit; i++) {
    const node = queue[i]!;
    if (Array.isArray(node)) node.forEach((v, k) => { out.push({ parent: node, key: k }); queue.push(v); });
    else if (isMap(node)) for (const k of Object.keys(node)) { out.push({ parent: node, key: k }); queue.push(node[k]!); }
  }
  return out;
}

function objects(doc: Json): JsonMap[] {
  const out: JsonMap[] = isMap(doc) ? [doc] : [];
  for (const s of slots(doc)) {
    const v = get(s);
    if (isMap(v)) out.push(v);
  }
  return out;
}

const get = (s: Slot): Json => (Array.isArray(s.parent) ? s.parent[s.key as number]! : s.parent[s.key as string]!);
function put(s: Slot, v: Json): void {
  if (Array.isArray(s.parent)) s.parent[s.key as number] = v;
  else setOwn(s.parent, s.key as string, v);
}

function deepen(v: Json, depth: number, asArray: boolean): Json {
  let out = v;
  for (let i = 0; i < depth; i++) out = asArray ? [out] : { a: out };
  return out;
}

function hugeString(rng: Rng): string {
  const size = rng.chance(0.9) ? rng.pick([1 << 8, 1 << 10, 1 << 14]) : rng.pick([1 << 16, 1 << 18, 1 << 20]);
  return rng.pick(['x', 'ü', '😀', '\\', '"']).repeat(size);
}

type DocMutator = (doc: Json, rng: Rng) => Json;

/** Name -> mutator; each returns the (possibly new) root. */
export const DOC_MUTATORS: Readonly<Record<string, DocMutator>> = {
  retype(doc, rng) {
    const s = slots(doc);
    if (s.length === 0) return rng.pick(ODD_VALUES);
    put(rng.pick(s), cloneJson(rng.pick(ODD_VALUES)));
    return doc;
  },
  'delete-key'(doc, rng) {
    const s = slots(doc).filter((x) => !Array.isArray(x.parent));
    if (s.length > 0) {
      const victim = rng.pick(s);
      delete (victim.parent as JsonMap)[victim.key as string];
    }
    return doc;
  },
  'duplicate-key'(doc, rng) {
    const s = slots(doc).filter((x) => !Array.isArray(x.parent));
    if (s.length > 0) {
      const dup = rng.pick(s);
      const value = rng.chance(0.5) ? cloneJson(get(dup)) : cloneJson(rng.pick(ODD_VALUES));
      setOwn(dup.parent as JsonMap, DUP_KEY + String(dup.key), value);
    }
    return doc;
  },
  'prototype-key'(doc, rng) {
    const objs = objects(doc);
    if (objs.length > 0) setOwn(rng.pick(objs), rng.pick(PROTO_KEYS), cloneJson(rng.pick<Json>([{ polluted: 1 }, 'a', 1, [], null, { toString: 'a' }])));
    return doc;
  },
  'prototype-value'(doc, rng) {
    const s = slots(doc);
    if (s.length > 0) put(rng.pick(s), JSON.parse(`{${JSON.stringify(rng.pick(PROTO_KEYS))}:"a"}`) as Json);
    return doc;
  },
  deepen(doc, rng) {
    const depth = rng.chance(0.9) ? rng.pick([2, 10, 100]) : rng.pick([1000, 3000]);
    const s = slots(doc);
    if (s.length === 0) return deepen(doc, depth, rng.chance(0.5));
    const at = rng.pick(s);
    put(at, deepen(get(at), depth, rng.chance(0.5)));
    return doc;
  },
  'swap-container'(doc, rng) {
    const s = slots(doc).filter((x) => typeof get(x) === 'object' && get(x) !== null);
    if (s.length === 0) return doc;
    const at = rng.pick(s);
    const v = get(at);
    put(at, Array.isArray(v) ? Object.fromEntries(v.map((x, i) => [String(i), x])) : Object.values(v as JsonMap));
    return doc;
  },
  'huge-string'(doc, rng) {
    const s = slots(doc);
    if (s.length > 0) put(rng.pick(s), hugeString(rng));
    return doc;
  },
  unicode(doc, rng) {
    const s = slots(doc).filter((x) => typeof get(x) === 'string');
    if (s.length > 0) put(rng.pick(s), rng.pick(ODD_STRINGS));
    return doc;
  },
  'rename-key'(doc, rng) {
    const s = slots(doc).filter((x) => !Array.isArray(x.parent));
    if (s.length === 0) return doc;
    const at = rng.pick(s);
    const parent = at.parent as JsonMap;
    const v = parent[at.key as string]!;
    delete parent[at.key as string];
    setOwn(parent, rng.pick([...ODD_STRINGS, ...PROTO_KEYS, String(at.key).toUpperCase(), `${String(at.key)}\u0000`]), v);
    return doc;
  },
  empty(doc, rng) {
    const s = slots(doc);
    if (s.length > 0) put(rng.pick(s), rng.pick<Json>([null, {}, [], '']));
    return doc;
  },
  'copy-subtree'(doc, rng) {
    const s = slots(doc);
    if (s.length >= 2) put(rng.pick(s), cloneJson(get(rng.pick(s))));
    return doc;
  },
  'long-array'(doc, rng) {
    const s = slots(doc).filter((x) => Array.isArray(get(x)));
    const at = s.length > 0 ? rng.pick(s) : undefined;
    if (at !== undefined) {
      const arr = get(at) as Json[];
      const item = arr.length > 0 ? arr[0]! : 'x';
      put(at, Array.from({ length: rng.chance(0.9) ? rng.pick([10, 100, 1000]) : 10_000 }, () => cloneJson(item)));
    }
    return doc;
  },
  'many-keys'(doc, rng) {
    const objs = objects(doc);
    if (objs.length > 0) {
      const target = rng.pick(objs);
      const n = rng.chance(0.9) ? rng.pick([10, 100, 1000]) : 5000;
      for (let i = 0; i < n; i++) setOwn(target, `k${i}`, 'v');
    }
    return doc;
  },
  'change-kind'(doc, rng) {
    if (isMap(doc)) {
      const other = rng.pick(KINDS);
      if (rng.chance(0.7)) setOwn(doc, 'kind', rng.chance(0.8) ? other.kind : rng.pick(['', 'configmap', 'Status', 'List', 'ConfigMapList', 'WatchEvent']));
      else setOwn(doc, 'apiVersion', rng.pick(['v2', 'apps/v1', '', '/v1', 'v1/', 'meta.k8s.io/v1', 'ünï/v1']));
    }
    return doc;
  },
  'odd-name'(doc, rng) {
    if (isMap(doc)) {
      const meta = isMap(doc.metadata) ? doc.metadata : {};
      setOwn(meta, rng.chance(0.8) ? 'name' : rng.pick(['namespace', 'generateName', 'resourceVersion', 'uid']), rng.pick(NAMES));
      setOwn(doc, 'metadata', meta);
    }
    return doc;
  },
  'odd-metadata'(doc, rng) {
    if (isMap(doc)) {
      const meta = isMap(doc.metadata) ? doc.metadata : {};
      const field = rng.pick(['labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields', 'deletionTimestamp', 'creationTimestamp', 'deletionGracePeriodSeconds', 'generation', 'selfLink']);
      setOwn(meta, field, cloneJson(rng.pick<Json>([
        ...ODD_VALUES, { a: 1 }, { a: null }, { 'ünï': 'x' }, { 'a/b/c': 'x' }, { [`${'a'.repeat(64)}`]: 'x' }, ['x', 'x'], [1], [{ apiVersion: 1 }],
        [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u', controller: 'yes' }], [{ manager: 1 }], [{ operation: 'Apply', fieldsV1: 'x' }], '2024-13-45T99:99:99Z',
      ])));
      setOwn(doc, 'metadata', meta);
    }
    return doc;
  },
};

export const DOC_MUTATOR_NAMES = Object.keys(DOC_MUTATORS);
