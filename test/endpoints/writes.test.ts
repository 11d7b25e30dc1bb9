// Write semantics through HTTP: field validation modes, strategy warnings, status
// reset, generation, create-on-update, unconditional update, virtual kinds,
// deletecollection, YAML and ?pretty.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import yaml from 'js-yaml';
import { createHarness, type Harness } from './harness.js';

const W = '/apis/example.test/v1/namespaces/default/widgets';
const G = '/apis/example.test/v1/gadgets';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

async function post(url: string, body: object) {
  return h.app.inject({ method: 'POST', url, payload: body });
}

describe('fieldValidation', () => {
  const cases: { name: string; query: string; wantWarnings: string[] }[] = [
    { name: 'default is Warn', query: '', wantWarnings: ['299 - "unknown field \\"spec.foo\\""'] },
    { name: 'Warn', query: '?fieldValidation=Warn', wantWarnings: ['299 - "unknown field \\"spec.foo\\""'] },
    { name: 'Ignore', query: '?fieldValidation=Ignore', wantWarnings: [] },
  ];
  for (const c of cases) {
    test(`${c.name}: created, unknown field dropped`, async () => {
      const res = await post(`${W}${c.query}`, { metadata: { name: 'w' }, spec: { size: 1, foo: 'x' } });
      expect(res.statusCode).toBe(201);
      const warnings = res.headers.warning;
      expect(warnings === undefined ? [] : [warnings].flat()).toEqual(c.wantWarnings);
      const stored = (await h.app.inject({ method: 'GET', url: `${W}/w` })).json();
      expect(stored.spec).toEqual({ size: 1 });
    });
  }
});

test('strategy warnings reach the Warning header', async () => {
  const res = await post(W, { metadata: { name: 'w' }, spec: { legacy: true } });
  expect(res.statusCode).toBe(201);
  expect(res.headers.warning).toBe('299 - "spec.legacy is deprecated"');
});

test('status is reset on create and kept on update; generation follows spec', async () => {
  const created = (await post(W, { metadata: { name: 'w' }, spec: { size: 1 }, status: { ready: true } })).json();
  expect(created.status).toBeUndefined();
  expect(created.metadata.generation).toBe(1);

  const sameSpec = await h.app.inject({ method: 'PUT', url: `${W}/w`, payload: { ...created, metadata: { ...created.metadata, labels: { a: 'b' } }, status: { ready: true } } });
  expect(sameSpec.statusCode).toBe(200);
  expect(sameSpec.json().status).toBeUndefined();
  expect(sameSpec.json().metadata.generation).toBe(1);
  expect(sameSpec.json().metadata.labels).toEqual({ a: 'b' });

  const newSpec = await h.app.inject({ method: 'PUT', url: `${W}/w`, payload: { ...(sameSpec.json() as object), spec: { size: 3 }, metadata: { ...sameSpec.json().metadata, generation: 40 } } });
  expect(newSpec.json().metadata.generation).toBe(2);
  expect(newSpec.json().metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
});

test('update may not change uid or creationTimestamp', async () => {
  const created = (await post(W, { metadata: { name: 'w' }, spec: {} })).json();
  const res = await h.app.inject({ method: 'PUT', url: `${W}/w`, payload: { ...created, metadata: { ...created.metadata, uid: 'other' } } });
  expect(res.statusCode).toBe(422);
  expect(res.json().details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "other": field is immutable', field: 'metadata.uid' }]);
  const kept = await h.app.inject({ method: 'PUT', url: `${W}/w`, payload: { ...created, metadata: { ...created.metadata, creationTimestamp: '2000-01-01T00:00:00Z' } } });
  expect(kept.statusCode).toBe(200);
  expect(kept.json().metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
});

test('PUT without resourceVersion: unconditional for widgets, 422 for gadgets', async () => {
  await post(W, { metadata: { name: 'w' }, spec: { size: 1 } });
  const widget = await h.app.inject({ method: 'PUT', url: `${W}/w`, payload: { metadata: { name: 'w' }, spec: { size: 2 } } });
  expect(widget.statusCode).toBe(200);
  expect(widget.json().spec).toEqual({ size: 2 });

  await post(G, { metadata: { name: 'g' } });
  const gadget = await h.app.inject({ method: 'PUT', url: `${G}/g`, payload: { metadata: { name: 'g' }, data: { a: 'b' } } });
  expect(gadget.statusCode).toBe(422);
  expect(gadget.json().message).toBe('gadgets.example.test "g" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
});

test('PUT of a missing object: 201 where the strategy allows, else 404', async () => {
  const gadget = await h.app.inject({ method: 'PUT', url: `${G}/new`, payload: { metadata: { name: 'new' }, data: { a: 'b' } } });
  expect(gadget.statusCode).toBe(201);
  expect(gadget.json().metadata.uid).toMatch(/^uid-/);
  expect((await h.app.inject({ method: 'GET', url: `${G}/new` })).statusCode).toBe(200);

  const widget = await h.app.inject({ method: 'PUT', url: `${W}/missing`, payload: { metadata: { name: 'missing' }, spec: {} } });
  expect(widget.statusCode).toBe(404);
  expect(widget.json()).toMatchObject({ reason: 'NotFound', message: 'widgets.example.test "missing" not found', details: { name: 'missing', group: 'example.test', kind: 'widgets' } });
});

test('DELETE answers the object where returnDeletedObject is set', async () => {
  const created = (await post(G, { metadata: { name: 'g' } })).json();
  const res = await h.app.inject({ method: 'DELETE', url: `${G}/g` });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ kind: 'Gadget', metadata: { name: 'g', uid: created.metadata.uid } });
});

test('DELETE Success Status is byte-compatible with kube', async () => {
  await post(W, { metadata: { name: 'w' } });
  const res = await h.app.inject({ method: 'DELETE', url: `${W}/w`, headers: { 'content-type': 'application/json' }, payload: '{"propagationPolicy":"Background"}' });
  expect(res.body).toBe('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"w","group":"example.test","kind":"widgets","uid":"uid-2"}}\n');
});

test('finalizers keep a deleted object with deletionTimestamp', async () => {
  await post(W, { metadata: { name: 'w', finalizers: ['example.test/hold'] } });
  const res = await h.app.inject({ method: 'DELETE', url: `${W}/w` });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ kind: 'Widget', metadata: { name: 'w', deletionTimestamp: '2026-01-02T03:04:05Z' } });
  const get = await h.app.inject({ method: 'GET', url: `${W}/w` });
  expect(get.json().metadata.deletionTimestamp).toBe('2026-01-02T03:04:05Z');
});

test('deletecollection deletes what the selector matches and answers the deleted items', async () => {
  for (const [name, app] of [['a', 'x'], ['b', 'x'], ['c', 'y']] as const) await post(W, { metadata: { name, labels: { app } } });
  const res = await h.app.inject({ method: 'DELETE', url: `${W}?labelSelector=app%3Dx` });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({ kind: 'WidgetList', apiVersion: 'example.test/v1' });
  expect(body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a', 'b']);
  const left = (await h.app.inject({ method: 'GET', url: W })).json();
  expect(left.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['c']);
});

test('deletecollection with dryRun deletes nothing', async () => {
  await post(W, { metadata: { name: 'a' } });
  const res = await h.app.inject({ method: 'DELETE', url: `${W}?dryRun=All` });
  expect(res.statusCode).toBe(200);
  expect(res.json().items).toHaveLength(1);
  expect((await h.app.inject({ method: 'GET', url: `${W}/a` })).statusCode).toBe(200);
});

test('virtual kinds answer 201 with what they compute and store nothing', async () => {
  const res = await post('/apis/example.test/v1/widgetreviews', { apiVersion: 'example.test/v1', kind: 'WidgetReview', metadata: {} });
  expect(res.statusCode).toBe(201);
  expect(res.json()).toMatchObject({ kind: 'WidgetReview', status: { username: 'kubernetes-admin', dryRun: false } });
  expect(await h.storage.count('/example.test/widgetreviews/')).toBe(0);
});

test('list paging with limit and continue', async () => {
  for (const name of ['a', 'b', 'c']) await post(W, { metadata: { name } });
  const first = (await h.app.inject({ method: 'GET', url: `${W}?limit=2` })).json();
  expect(first.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a', 'b']);
  expect(first.metadata.continue).toEqual(expect.any(String));
  expect(first.items[0].kind).toBeUndefined();
  const second = (await h.app.inject({ method: 'GET', url: `${W}?limit=2&continue=${encodeURIComponent(first.metadata.continue)}` })).json();
  expect(second.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['c']);
  expect(second.metadata.continue).toBeUndefined();
});

test('YAML in and out', async () => {
  const res = await h.app.inject({
    method: 'POST',
    url: W,
    headers: { 'content-type': 'application/yaml', accept: 'application/yaml' },
    payload: 'apiVersion: example.test/v1\nkind: Widget\nmetadata:\n  name: yw\nspec:\n  size: 4\n',
  });
  expect(res.statusCode).toBe(201);
  expect(res.headers['content-type']).toBe('application/yaml');
  expect(yaml.load(res.body)).toMatchObject({ kind: 'Widget', metadata: { name: 'yw' }, spec: { size: 4 } });
  const err = await h.app.inject({ method: 'GET', url: `${W}/nope`, headers: { accept: 'application/yaml' } });
  expect(err.statusCode).toBe(404);
  expect(yaml.load(err.body)).toMatchObject({ kind: 'Status', reason: 'NotFound' });
});

test('?pretty=true indents JSON with two spaces', async () => {
  await post(W, { metadata: { name: 'p' } });
  const res = await h.app.inject({ method: 'GET', url: `${W}/p?pretty=true` });
  expect(res.body.startsWith('{\n  "kind": "Widget",\n  "apiVersion": "example.test/v1",\n')).toBe(true);
  expect(res.body.endsWith('}\n')).toBe(true);
});

test('kubectl Table Accept answers a Table (test/endpoints/table.test.ts has the details)', async () => {
  await post(W, { metadata: { name: 't' } });
  const res = await h.app.inject({
    method: 'GET',
    url: `${W}?limit=500`,
    headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json' },
  });
  expect(res.statusCode).toBe(200);
  expect(res.json().kind).toBe('Table');
});
