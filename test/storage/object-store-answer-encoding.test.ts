// A write serializes its object once: the stored bytes and the JSON answer are
// joined from the same pieces (object-store/codec.ts StoredJson), and the answer
// is kept beside the stored object (codecs/shared-encoding.ts). Both must be
// byte for byte what serializing each on its own gives, whatever the members.
import { describe, expect, it } from 'vitest';
import { encodeJson, jsonCodec } from '../../src/codecs/json.js';
import { encodeShared } from '../../src/codecs/shared-encoding.js';
import type { KubeObject } from '../../src/schema/object.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { encodeObject, jsonObjectCodec } from '../../src/storage/object-store/codec.js';

/** What the stored bytes must be: JSON of the object without resourceVersion and selfLink. */
function expectedStored(obj: KubeObject): string {
  const { resourceVersion: _rv, selfLink: _sl, ...metadata } = obj.metadata ?? {};
  return JSON.stringify({ ...obj, metadata });
}

const cases: Array<{ name: string; obj: () => KubeObject }> = [
  { name: 'members around metadata', obj: () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'd' }, data: { k: 'v' } }) },
  { name: 'metadata first and last member', obj: () => ({ metadata: { name: 'b' } }) },
  { name: 'no metadata member (it is added last)', obj: () => ({ kind: 'ConfigMap', data: { k: 'v' } }) as unknown as KubeObject },
  {
    name: 'an empty resourceVersion keeps its place in metadata, selfLink is dropped',
    obj: () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', resourceVersion: '', selfLink: '/x', uid: 'u' }, data: {} }),
  },
  { name: 'a member without JSON text is left out', obj: () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'e' }, data: undefined, spec: { a: undefined, b: 1 } }) as unknown as KubeObject },
  {
    name: "HTML characters and U+2028 (Go's escapes in the answer only), non-ASCII text",
    obj: () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'f', annotations: { 'a<b': 'x&y>z\u2028' } }, data: { 'k\u00e9': '\u65e5\u672c \ud83d\ude00 <script>' } }),
  },
  {
    name: "Go's escapes in metadata only (the answer copies the stored bytes around it)",
    obj: () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'f2', annotations: { note: 'a<b & c>d' } }, data: { k: 'plain' } }),
  },
  {
    name: "more of Go's escapes in metadata than the room kept for the answer",
    obj: () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'f3', annotations: { note: '<>&'.repeat(40) } }, data: { k: 'plain' } }),
  },
  {
    name: 'a member named __proto__ (an own data member after JSON.parse)',
    obj: () => JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","__proto__":{"x":1},"metadata":{"name":"g","__proto__":"p"},"data":{}}') as KubeObject,
  },
  { name: 'integer-like member names (JSON orders them first)', obj: () => ({ '2': 'two', kind: 'X', metadata: { name: 'h' }, '1': 'one' }) as unknown as KubeObject },
];

describe('a write serializes its object once', () => {
  for (const c of cases) {
    it(`${c.name}: stored bytes and the kept JSON answer are what separate encodes give`, async () => {
      const kv = openMemoryKv();
      const store = createObjectStore({ kv });
      try {
        const created = await store.create('/k/1', c.obj());
        const entry = await kv.get('/k/1');
        expect(Buffer.from(entry!.value).toString('utf8')).toBe(expectedStored(c.obj()));
        expect(Buffer.from(encodeObject(jsonObjectCodec, c.obj())).toString('utf8')).toBe(expectedStored(c.obj()));
        // The answer kept beside the created object is encodeJson of that object.
        const kept = encodeShared(jsonCodec, created);
        expect(kept.toString('utf8')).toBe(encodeJson(created).toString('utf8'));
        expect(kept.toString('utf8')).toContain(`"resourceVersion":"${created.metadata.resourceVersion}"`);
        // In memory of its own or shared with nothing but this object's stored
        // bytes (a pool slice would keep a whole pool of other requests' bytes alive).
        const stored = entry!.value.length;
        if (kept.buffer.byteLength !== kept.byteLength) expect(kept.buffer.byteLength).toBe(stored + stored + 64);

        // An update answers the same way.
        const updated = await store.guaranteedUpdate('/k/1', {
          tryUpdate: ({ current }) => ({ ...current!, metadata: { ...current!.metadata }, extra: 'x<y' }) as KubeObject,
        });
        expect(encodeShared(jsonCodec, updated.object).toString('utf8')).toBe(encodeJson(updated.object).toString('utf8'));
      } finally {
        await store.close();
      }
    });
  }

  it("an answer without Go's escapes is copied into the stored bytes' allocation; one with too many gets its own", async () => {
    const store = createObjectStore({ kv: openMemoryKv() });
    try {
      const plain = await store.create('/k/p', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p' }, data: { k: 'v'.repeat(3000) } });
      const kept = encodeShared(jsonCodec, plain);
      expect(kept.buffer.byteLength).toBeGreaterThan(kept.byteLength);
      expect(kept.toString('utf8')).toBe(encodeJson(plain).toString('utf8'));
      const escaped = await store.create('/k/e', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'e', labels: { a: 'b' }, annotations: { n: '<'.repeat(30) } }, data: {} });
      const own = encodeShared(jsonCodec, escaped);
      expect(own.buffer.byteLength).toBe(own.byteLength);
      expect(own.toString('utf8')).toBe(encodeJson(escaped).toString('utf8'));
    } finally {
      await store.close();
    }
  });

  it('a store with another codec keeps no answer: the answer is encoded from the object', async () => {
    const codec = { encode: (o: KubeObject) => Buffer.from(JSON.stringify(o)), decode: (b: Uint8Array) => JSON.parse(Buffer.from(b).toString()) as unknown };
    const store = createObjectStore({ kv: openMemoryKv(), codec });
    try {
      const created = await store.create('/k/1', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: '<v>' } });
      expect(encodeShared(jsonCodec, created).toString('utf8')).toBe(encodeJson(created).toString('utf8'));
    } finally {
      await store.close();
    }
  });
});
