// Table `includeObject` (kube's asTable): each row's `object` is null (None), the
// whole object with its apiVersion and kind (Object), or its PartialObjectMetadata
// in the Table's own meta.k8s.io version (Metadata, the default), on get, list and
// watch alike.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';

const W = '/apis/example.test/v1/namespaces/default/widgets';
const V1 = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const V1BETA1 = 'application/json;as=Table;v=v1beta1;g=meta.k8s.io';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  for (const name of ['a', 'b']) {
    await h.app.inject({ method: 'POST', url: W, payload: { metadata: { name, labels: { app: name } }, spec: { size: 2 } } });
  }
});
afterEach(async () => h.close());

const partial = (name: string, version: string) => ({
  kind: 'PartialObjectMetadata',
  apiVersion: `meta.k8s.io/${version}`,
  metadata: expect.objectContaining({ name, labels: { app: name }, uid: expect.any(String) }),
});
const whole = (name: string) => expect.objectContaining({ apiVersion: 'example.test/v1', kind: 'Widget', metadata: expect.objectContaining({ name }), spec: { size: 2 } });

describe('list rows', () => {
  const cases: { name: string; query: string; accept: string; want: unknown[] }[] = [
    { name: 'default: Metadata in the Table\u2019s version (v1)', query: '', accept: V1, want: [partial('a', 'v1'), partial('b', 'v1')] },
    { name: 'default: Metadata in the Table\u2019s version (v1beta1)', query: '', accept: V1BETA1, want: [partial('a', 'v1beta1'), partial('b', 'v1beta1')] },
    { name: 'Metadata asked for', query: '?includeObject=Metadata', accept: V1, want: [partial('a', 'v1'), partial('b', 'v1')] },
    { name: 'None: null objects', query: '?includeObject=None', accept: V1, want: [null, null] },
    { name: 'Object: whole objects with apiVersion and kind', query: '?includeObject=Object', accept: V1, want: [whole('a'), whole('b')] },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await h.app.inject({ method: 'GET', url: `${W}${c.query}`, headers: { accept: c.accept } });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { rows: { object: unknown }[] };
      expect(body.rows.map((r) => r.object)).toEqual(c.want);
      // None is written as null, not left out (Go's RawExtension without an object).
      if (c.query === '?includeObject=None') expect(res.body).toContain('"object":null');
    });
  }
});

describe('watch rows', () => {
  const cases: { name: string; query: string; want: (name: string) => unknown }[] = [
    { name: 'Metadata by default', query: '', want: (name) => partial(name, 'v1') },
    { name: 'None', query: '&includeObject=None', want: () => null },
    { name: 'Object', query: '&includeObject=Object', want: (name) => expect.objectContaining({ apiVersion: 'example.test/v1', kind: 'Widget', metadata: expect.objectContaining({ name }) }) },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (h.app.server.address() as AddressInfo).port;
      const list = (await h.app.inject({ method: 'GET', url: W })).json();
      const event = await new Promise<{ type: string; object: { rows: { object: unknown }[] } }>((resolve, reject) => {
        const req = httpRequest(`http://127.0.0.1:${port}${W}?watch=true&resourceVersion=${list.metadata.resourceVersion}${c.query}`, { headers: { accept: V1 } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            const nl = text.indexOf('\n');
            if (nl < 0) return;
            req.destroy();
            resolve(JSON.parse(text.slice(0, nl)));
          });
          void h.app.inject({ method: 'POST', url: W, payload: { metadata: { name: 'c', labels: { app: 'c' } }, spec: { size: 2 } } });
        });
        req.on('error', reject);
        req.end();
      });
      expect(event.type).toBe('ADDED');
      expect(event.object.rows.map((r) => r.object)).toEqual([c.want('c')]);
    });
  }
});
