// Metadata-only answers (kube's asPartialObjectMetadata / asPartialObjectMetadataList):
// the Accept headers client-go's metadata client sends on get, list and watch, in
// JSON and protobuf, v1 and v1beta1, and the 406s for a form that does not fit.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { protobufCodec } from '../../src/codecs/protobuf.js';
import { decodeWatchFrame } from '../../src/codecs/protobuf/watch.js';
import { createBuiltinHttpHarness } from '../support/store-harness.js';
import type { Harness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const PB = 'application/vnd.kubernetes.protobuf';
/** What client-go's metadata client sends (k8s.io/client-go/metadata). */
const META_GET = `${PB};as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json`;
const META_LIST = `${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json`;
const JSON_GET = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const JSON_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

let h: Harness;
beforeEach(async () => {
  h = await createBuiltinHttpHarness();
  for (const name of ['a', 'b', 'c']) {
    const res = await h.app.inject({ method: 'POST', url: CM, payload: { metadata: { name, labels: { app: name }, finalizers: ['example.com/keep'] }, data: { secret: 'x' } } });
    expect(res.statusCode).toBe(201);
  }
});
afterEach(async () => h.close());

const partialOf = (name: string, version = 'v1') => ({
  kind: 'PartialObjectMetadata',
  apiVersion: `meta.k8s.io/${version}`,
  metadata: expect.objectContaining({ name, namespace: 'default', labels: { app: name }, finalizers: ['example.com/keep'], uid: expect.any(String), resourceVersion: expect.any(String) }),
});

describe('get and list', () => {
  const cases: {
    name: string;
    url: string;
    accept: string;
    want: { code: number; contentType?: string; body?: unknown; reason?: string; message?: string };
  }[] = [
    { name: 'get: JSON PartialObjectMetadata v1', url: `${CM}/a`, accept: JSON_GET, want: { code: 200, contentType: 'application/json', body: partialOf('a') } },
    {
      name: 'get: v1beta1',
      url: `${CM}/a`,
      accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1',
      want: { code: 200, body: partialOf('a', 'v1beta1') },
    },
    {
      name: 'list: PartialObjectMetadataList with the list\u2019s metadata and one item per object',
      url: CM,
      accept: JSON_LIST,
      want: {
        code: 200,
        body: { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: expect.any(String) }, items: [partialOf('a'), partialOf('b'), partialOf('c')] },
      },
    },
    {
      name: 'list: paging metadata carries over',
      url: `${CM}?limit=2`,
      accept: JSON_LIST,
      want: {
        code: 200,
        body: {
          kind: 'PartialObjectMetadataList',
          apiVersion: 'meta.k8s.io/v1',
          metadata: { resourceVersion: expect.any(String), continue: expect.any(String), remainingItemCount: 1 },
          items: [partialOf('a'), partialOf('b')],
        },
      },
    },
    {
      name: 'list: v1beta1',
      url: `${CM}?labelSelector=app%3Db`,
      accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1',
      want: { code: 200, body: { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1beta1', metadata: expect.any(Object), items: [partialOf('b', 'v1beta1')] } },
    },
    {
      name: 'list: empty items are null, as Go writes the nil slice kube builds',
      url: `${CM}?labelSelector=app%3Dnone`,
      accept: JSON_LIST,
      want: { code: 200, body: { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: expect.any(String) }, items: null } },
    },
    {
      name: 'get with the list form is 406',
      url: `${CM}/a`,
      accept: JSON_LIST,
      want: { code: 406, reason: 'NotAcceptable', message: 'you requested PartialObjectMetadataList, but the requested object is not a list (ConfigMap)' },
    },
    {
      name: 'list with the object form is 406',
      url: CM,
      accept: JSON_GET,
      want: { code: 406, reason: 'NotAcceptable', message: 'you requested PartialObjectMetadata, but the requested object is a list (ConfigMapList)' },
    },
    { name: 'an unknown version falls through to a later entry', url: `${CM}/a`, accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2,application/json', want: { code: 200, body: expect.objectContaining({ kind: 'ConfigMap', data: { secret: 'x' } }) } },
    { name: 'another group is not the metadata form', url: `${CM}/a`, accept: 'application/json;as=PartialObjectMetadata;g=example.com;v=v1', want: { code: 406, reason: 'NotAcceptable' } },
    { name: 'a 404 is still a Status', url: `${CM}/missing`, accept: META_GET, want: { code: 404, reason: 'NotFound' } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await h.app.inject({ method: 'GET', url: c.url, headers: { accept: c.accept } });
      expect(res.statusCode).toBe(c.want.code);
      if (c.want.contentType !== undefined) expect(res.headers['content-type']).toBe(c.want.contentType);
      const body = res.headers['content-type'] === PB ? protobufCodec.decode(res.rawPayload) : res.json();
      if (c.want.body !== undefined) expect(body).toEqual(c.want.body);
      if (c.want.reason !== undefined) expect((body as { reason: string }).reason).toBe(c.want.reason);
      if (c.want.message !== undefined) expect((body as { message: string }).message).toBe(c.want.message);
    });
  }

  test('client-go\u2019s metadata client on get: protobuf PartialObjectMetadata', async () => {
    const res = await h.app.inject({ method: 'GET', url: `${CM}/a`, headers: { accept: META_GET } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(PB);
    expect(protobufCodec.decode(res.rawPayload)).toEqual(partialOf('a'));
  });

  test('client-go\u2019s metadata client on list: protobuf PartialObjectMetadataList', async () => {
    const res = await h.app.inject({ method: 'GET', url: CM, headers: { accept: META_LIST } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(PB);
    const list = protobufCodec.decode(res.rawPayload) as { kind: string; apiVersion: string; items: unknown[] };
    expect(list.kind).toBe('PartialObjectMetadataList');
    expect(list.apiVersion).toBe('meta.k8s.io/v1');
    // Items are embedded messages: their TypeMeta is not on the wire (client-go fills it in).
    expect(list.items).toEqual(['a', 'b', 'c'].map((name) => ({ metadata: partialOf(name).metadata })));
  });

  test('nothing but metadata leaves the server', async () => {
    const res = await h.app.inject({ method: 'GET', url: CM, headers: { accept: JSON_LIST } });
    expect(res.body).not.toContain('secret');
  });
});

/** Watches with `accept` until `count` events arrived, after `write` has run. */
async function watchEvents(opts: { accept: string; count: number; write: () => Promise<unknown> }): Promise<{ contentType: string; events: { type: string; object: Record<string, unknown> }[] }> {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (h.app.server.address() as AddressInfo).port;
  const list = (await h.app.inject({ method: 'GET', url: CM })).json();
  return new Promise((resolve, reject) => {
    const req = httpRequest(`http://127.0.0.1:${port}${CM}?watch=true&resourceVersion=${list.metadata.resourceVersion}`, { headers: { accept: opts.accept } }, (res) => {
      const contentType = String(res.headers['content-type']);
      const events: { type: string; object: Record<string, unknown> }[] = [];
      let buffered = Buffer.alloc(0);
      res.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        if (contentType.startsWith(PB)) {
          while (buffered.length >= 4 && buffered.readUInt32BE(0) + 4 <= buffered.length) {
            const frame = decodeWatchFrame({ codec: protobufCodec, buf: buffered });
            events.push({ type: frame.type, object: frame.object as Record<string, unknown> });
            buffered = buffered.subarray(frame.size);
          }
        } else {
          const lines = buffered.toString('utf8').split('\n');
          buffered = Buffer.from(lines.pop()!, 'utf8');
          for (const line of lines) if (line !== '') events.push(JSON.parse(line));
        }
        if (events.length >= opts.count) {
          req.destroy();
          resolve({ contentType, events });
        }
      });
      // Headers are flushed before any event, so the writes reach this watch.
      void opts.write();
    });
    req.on('error', reject);
    req.end();
  });
}

describe('watch', () => {
  const writes = () => h.app.inject({ method: 'POST', url: CM, payload: { metadata: { name: 'd', labels: { app: 'd' }, finalizers: ['example.com/keep'] } } }).then(() => h.app.inject({ method: 'DELETE', url: `${CM}/a` }));
  const cases: { name: string; accept: string; want: { contentType: string; kinds: string[] } }[] = [
    { name: 'JSON: each event\u2019s object is its metadata-only form', accept: JSON_GET, want: { contentType: 'application/json', kinds: ['PartialObjectMetadata', 'PartialObjectMetadata'] } },
    { name: 'client-go\u2019s metadata informer: a protobuf stream', accept: META_GET, want: { contentType: `${PB};stream=watch`, kinds: ['PartialObjectMetadata', 'PartialObjectMetadata'] } },
    { name: 'the list form on a watch: whole objects, as kube falls back', accept: JSON_LIST, want: { contentType: 'application/json', kinds: ['ConfigMap', 'ConfigMap'] } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const got = await watchEvents({ accept: c.accept, count: 2, write: writes });
      expect(got.contentType).toBe(c.want.contentType);
      expect(got.events.map((e) => [e.type, e.object.kind])).toEqual([
        ['ADDED', c.want.kinds[0]],
        // The finalizer keeps it: the delete marks it (deletionTimestamp), a MODIFIED event.
        ['MODIFIED', c.want.kinds[1]],
      ]);
      if (c.want.kinds[0] === 'PartialObjectMetadata') {
        expect(got.events[0]!.object).toEqual(partialOf('d'));
        expect(got.events[1]!.object).toEqual(partialOf('a'));
        expect((got.events[1]!.object.metadata as { deletionTimestamp?: string }).deletionTimestamp).toEqual(expect.any(String));
      }
    });
  }
});

describe('v1beta1 in protobuf', () => {
  test('get: v1\u2019s message under the v1beta1 apiVersion (a Go type alias in kube)', async () => {
    const res = await h.app.inject({ method: 'GET', url: `${CM}/a`, headers: { accept: `${PB};as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(PB);
    expect(protobufCodec.decode(res.rawPayload)).toEqual(partialOf('a', 'v1beta1'));
  });

  test('list: v1beta1\u2019s own list message', async () => {
    const res = await h.app.inject({ method: 'GET', url: `${CM}?labelSelector=app%3Dc`, headers: { accept: `${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(PB);
    const list = protobufCodec.decode(res.rawPayload) as { kind: string; apiVersion: string; metadata: { resourceVersion?: string }; items: unknown[] };
    expect([list.kind, list.apiVersion]).toEqual(['PartialObjectMetadataList', 'meta.k8s.io/v1beta1']);
    expect(list.metadata.resourceVersion).toEqual(expect.any(String));
    expect(list.items).toEqual([{ metadata: partialOf('c').metadata }]);
  });
});

describe('writes answer the metadata-only form too (the garbage collector patches through the metadata client)', () => {
  test('a merge patch of ownerReferences answered as PartialObjectMetadata', async () => {
    const res = await h.app.inject({
      method: 'PATCH',
      url: `${CM}/a`,
      headers: { accept: META_GET.replace(`${PB};as=PartialObjectMetadata;g=meta.k8s.io;v=v1,`, ''), 'content-type': 'application/merge-patch+json' },
      payload: { metadata: { finalizers: null } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: expect.objectContaining({ name: 'a', labels: { app: 'a' } }),
    });
    expect(res.json().metadata.finalizers).toBeUndefined();
  });

  test('in protobuf, as client-go sends it', async () => {
    const res = await h.app.inject({
      method: 'PATCH',
      url: `${CM}/b`,
      headers: { accept: META_GET, 'content-type': 'application/merge-patch+json' },
      payload: { metadata: { labels: { gc: 'seen' } } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(PB);
    expect(protobufCodec.decode(res.rawPayload)).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: expect.objectContaining({ name: 'b', labels: { app: 'b', gc: 'seen' } }),
    });
  });

  test('a refused write is still a Status', async () => {
    const res = await h.app.inject({ method: 'POST', url: CM, headers: { accept: JSON_GET }, payload: { metadata: { name: 'a' } } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'AlreadyExists' });
  });
});
