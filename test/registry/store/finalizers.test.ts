// An object with finalizers is only marked by DELETE; the update that removes its
// last finalizer deletes it (kube-apiserver's store: ShouldDeleteDuringUpdate).
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createHarness, type Harness } from '../../endpoints/harness.js';
import { widgets } from '../../support/example-group.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const URL = '/apis/example.test/v1/namespaces/default/widgets';

async function markedWidget(): Promise<Record<string, any>> {
  const created = await h.app.inject({ method: 'POST', url: URL, payload: { metadata: { name: 'w', finalizers: ['example.test/hold'] }, spec: { size: 1 } } });
  expect(created.statusCode).toBe(201);
  const deleted = await h.app.inject({ method: 'DELETE', url: `${URL}/w` });
  expect(deleted.statusCode).toBe(200);
  const marked = deleted.json();
  expect(marked.metadata.deletionTimestamp).toBeDefined();
  return marked;
}

test('removing the last finalizer with PUT deletes the object', async () => {
  const marked = await markedWidget();
  const res = await h.app.inject({ method: 'PUT', url: `${URL}/w`, payload: { ...marked, metadata: { ...marked.metadata, finalizers: [] } } });
  expect(res.statusCode).toBe(200);
  expect((await h.app.inject({ method: 'GET', url: `${URL}/w` })).statusCode).toBe(404);
});

test('removing one of two finalizers keeps it marked', async () => {
  await h.app.inject({ method: 'POST', url: URL, payload: { metadata: { name: 'two', finalizers: ['a.test/x', 'b.test/y'] }, spec: { size: 1 } } });
  await h.app.inject({ method: 'DELETE', url: `${URL}/two` });
  const res = await h.app.inject({
    method: 'PATCH', url: `${URL}/two`, headers: { 'content-type': 'application/merge-patch+json' }, payload: { metadata: { finalizers: ['b.test/y'] } },
  });
  expect(res.statusCode).toBe(200);
  const still = await h.registry.store(widgets).get({ name: 'two', namespace: 'default' });
  expect(still.metadata.finalizers).toEqual(['b.test/y']);
  expect(still.metadata.deletionTimestamp).toBeDefined();
});

test('a dry-run update that removes the last finalizer deletes nothing', async () => {
  const marked = await markedWidget();
  const res = await h.app.inject({ method: 'PUT', url: `${URL}/w?dryRun=All`, payload: { ...marked, metadata: { ...marked.metadata, finalizers: [] } } });
  expect(res.statusCode).toBe(200);
  expect((await h.app.inject({ method: 'GET', url: `${URL}/w` })).statusCode).toBe(200);
});
