// Table negotiation through HTTP (kubectl-wire §5, §2.3): which Accept gets a
// Table, in which version, with which row objects, and the 400/406 cases.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';

const W = '/apis/example.test/v1/namespaces/default/widgets';
const V1 = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const V1BETA1 = 'application/json;as=Table;v=v1beta1;g=meta.k8s.io';
const KUBECTL = `${V1},${V1BETA1},application/json`;

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  for (const name of ['a', 'b', 'c']) {
    await h.app.inject({ method: 'POST', url: W, payload: { metadata: { name, labels: { app: name } }, spec: { size: 1 } } });
  }
});
afterEach(async () => h.close());

describe('Table negotiation', () => {
  const cases: {
    name: string;
    url: string;
    accept: string;
    want: { code: number; contentType?: string; kind?: string; apiVersion?: string; rows?: number; object?: unknown; reason?: string };
  }[] = [
    { name: 'kubectl get: Table v1', url: W, accept: KUBECTL, want: { code: 200, contentType: V1, kind: 'Table', apiVersion: 'meta.k8s.io/v1', rows: 3 } },
    { name: 'only v1beta1 accepted', url: W, accept: V1BETA1, want: { code: 200, contentType: V1BETA1, kind: 'Table', apiVersion: 'meta.k8s.io/v1beta1', rows: 3 } },
    { name: 'YAML Table', url: `${W}/a`, accept: 'application/yaml;as=Table;v=v1;g=meta.k8s.io', want: { code: 200, contentType: 'application/yaml;as=Table;v=v1;g=meta.k8s.io' } },
    { name: 'plain JSON stays a list', url: W, accept: 'application/json', want: { code: 200, contentType: 'application/json', kind: 'WidgetList' } },
    { name: 'JSON preferred over Table', url: W, accept: `application/json,${V1}`, want: { code: 200, contentType: 'application/json', kind: 'WidgetList' } },
    { name: 'unknown Table version falls through to JSON', url: W, accept: 'application/json;as=Table;v=v2;g=meta.k8s.io,application/json', want: { code: 200, kind: 'WidgetList' } },
    { name: 'unknown Table version alone is 406', url: W, accept: 'application/json;as=Table;v=v2;g=meta.k8s.io', want: { code: 406, reason: 'NotAcceptable' } },
    { name: 'Table over protobuf falls back to JSON', url: W, accept: 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json', want: { code: 200, contentType: 'application/json', kind: 'WidgetList' } },
    { name: 'Table over protobuf alone is 406', url: W, accept: 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io', want: { code: 406, reason: 'NotAcceptable' } },
    {
      name: 'get one object: one row, PartialObjectMetadata by default', url: `${W}/a`, accept: KUBECTL,
      want: { code: 200, kind: 'Table', rows: 1, object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: expect.objectContaining({ name: 'a', labels: { app: 'a' } }) } },
    },
    { name: 'includeObject=None', url: `${W}/a?includeObject=None`, accept: KUBECTL, want: { code: 200, rows: 1, object: null } },
    {
      name: 'includeObject=Object (kubectl --sort-by)', url: `${W}/a?includeObject=Object`, accept: KUBECTL,
      want: { code: 200, rows: 1, object: expect.objectContaining({ apiVersion: 'example.test/v1', kind: 'Widget', spec: { size: 1 } }) },
    },
    { name: 'bad includeObject is 400', url: `${W}?includeObject=All`, accept: KUBECTL, want: { code: 400, reason: 'BadRequest' } },
    { name: 'bad includeObject is ignored without a Table', url: `${W}?includeObject=All`, accept: 'application/json', want: { code: 200, kind: 'WidgetList' } },
    { name: 'empty list: rows []', url: `${W}?labelSelector=app%3Dnone`, accept: KUBECTL, want: { code: 200, kind: 'Table', rows: 0 } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await h.app.inject({ method: 'GET', url: c.url, headers: { accept: c.accept } });
      expect(res.statusCode).toBe(c.want.code);
      if (c.want.contentType !== undefined) expect(res.headers['content-type']).toBe(c.want.contentType);
      if (c.want.contentType?.startsWith('application/yaml')) return;
      const body = res.json();
      if (c.want.reason !== undefined) expect(body.reason).toBe(c.want.reason);
      if (c.want.kind !== undefined) expect(body.kind).toBe(c.want.kind);
      if (c.want.apiVersion !== undefined) expect(body.apiVersion).toBe(c.want.apiVersion);
      if (c.want.rows !== undefined) expect(body.rows).toHaveLength(c.want.rows);
      if ('object' in c.want) expect(body.rows[0].object).toEqual(c.want.object);
    });
  }

  test('default columns and cells for a kind without printer (Name, Created At)', async () => {
    const body = (await h.app.inject({ method: 'GET', url: `${W}/a`, headers: { accept: KUBECTL } })).json();
    expect(body.columnDefinitions.map((c: { name: string; type: string; format: string; priority: number }) => [c.name, c.type, c.format, c.priority])).toEqual([
      ['Name', 'string', 'name', 0],
      ['Created At', 'date', '', 0],
    ]);
    expect(body.rows[0].cells).toEqual(['a', '2026-01-02T03:04:05Z']);
    expect(body.metadata.resourceVersion).toBe(body.rows[0].object.metadata.resourceVersion);
  });

  test('paging metadata (limit/continue/remainingItemCount) carries over', async () => {
    const first = (await h.app.inject({ method: 'GET', url: `${W}?limit=2`, headers: { accept: KUBECTL } })).json();
    expect(first.rows.map((r: { cells: string[] }) => r.cells[0])).toEqual(['a', 'b']);
    expect(first.metadata.continue).toEqual(expect.any(String));
    expect(first.metadata.remainingItemCount).toBe(1);
    const next = (await h.app.inject({ method: 'GET', url: `${W}?limit=2&continue=${encodeURIComponent(first.metadata.continue)}`, headers: { accept: KUBECTL } })).json();
    expect(next.rows.map((r: { cells: string[] }) => r.cells[0])).toEqual(['c']);
    expect(next.metadata.continue).toBeUndefined();
  });
});

describe('watch with a Table Accept (kubectl get -w)', () => {
  test('each event is a one-row Table; only the first carries columnDefinitions', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (h.app.server.address() as AddressInfo).port;
    const list = (await h.app.inject({ method: 'GET', url: W, headers: { accept: KUBECTL } })).json();
    const events = await new Promise<{ type: string; object: { kind: string; columnDefinitions: unknown; rows: { cells: unknown[] }[] } }[]>((resolve, reject) => {
      const req = httpRequest(`http://127.0.0.1:${port}${W}?watch=true&resourceVersion=${list.metadata.resourceVersion}`, { headers: { accept: KUBECTL } }, (res) => {
        const got: unknown[] = [];
        let partial = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          partial += chunk;
          const lines = partial.split('\n');
          partial = lines.pop()!;
          for (const line of lines) if (line !== '') got.push(JSON.parse(line));
          if (got.length >= 2) {
            req.destroy();
            resolve(got as never);
          }
        });
        // Headers are flushed before any event, so the writes below reach this watch.
        void h.app.inject({ method: 'POST', url: W, payload: { metadata: { name: 'd' } } })
          .then(() => h.app.inject({ method: 'DELETE', url: `${W}/a` }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(events.map((e) => [e.type, e.object.kind, e.object.rows.map((r) => r.cells[0])])).toEqual([
      ['ADDED', 'Table', ['d']],
      ['DELETED', 'Table', ['a']],
    ]);
    expect(events[0]!.object.columnDefinitions).toHaveLength(2);
    expect(events[1]!.object.columnDefinitions).toBeNull();
  });
});
