// Kinds served in two versions share one stored object (issue #10 part 2):
// core/v1 Event and events.k8s.io/v1 Event, through HTTP on the built-in harness.
// A write through either version is read, listed and watched through the other
// under that version's field names.
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Harness } from '../../endpoints/harness.js';
import { createBuiltinHttpHarness } from '../../support/store-harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createBuiltinHttpHarness();
});
afterEach(async () => h.close());

const CORE = '/api/v1/namespaces/default/events';
const NEW = '/apis/events.k8s.io/v1/namespaces/default/events';

const newStyle = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'e1' },
  eventTime: '2026-01-01T00:00:00.000000Z',
  regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
  reportingController: 'example.com/ctl',
  reportingInstance: 'ctl-1',
  action: 'Pulled',
  reason: 'Pulled',
  note: 'image pulled',
  type: 'Normal',
};

async function send(method: 'POST' | 'PUT' | 'GET' | 'DELETE', url: string, payload?: object) {
  return h.app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
}

test('an events.k8s.io write is a core event under core names, and back', async () => {
  const created = await send('POST', NEW, newStyle);
  expect(created.statusCode).toBe(201);
  expect(created.json()).toMatchObject({ apiVersion: 'events.k8s.io/v1', kind: 'Event', note: 'image pulled', regarding: { name: 'p' }, reportingController: 'example.com/ctl' });
  const core = await send('GET', `${CORE}/e1`);
  expect(core.statusCode).toBe(200);
  const body = core.json();
  expect(body).toMatchObject({ apiVersion: 'v1', kind: 'Event', message: 'image pulled', involvedObject: { name: 'p' }, reportingComponent: 'example.com/ctl' });
  expect(body).not.toHaveProperty('note');
  expect(body).not.toHaveProperty('regarding');
  expect(body.metadata.resourceVersion).toBe(created.json().metadata.resourceVersion);
  // One stored object: the uid is the same through both versions.
  expect(body.metadata.uid).toBe(created.json().metadata.uid);
});

test('a core write is read and listed through events.k8s.io; an update through either version is seen by the other', async () => {
  const core = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e2' }, involvedObject: { kind: 'Node', name: 'n1', namespace: 'default' }, reason: 'Rebooted', message: 'node rebooted', type: 'Warning', count: 1 };
  expect((await send('POST', CORE, core)).statusCode).toBe(201);
  const viaNew = await send('GET', `${NEW}/e2`);
  expect(viaNew.json()).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'node rebooted', regarding: { kind: 'Node', name: 'n1' }, deprecatedCount: 1 });
  expect(viaNew.json()).not.toHaveProperty('message');
  const listed = await send('GET', NEW);
  expect(listed.json()).toMatchObject({ kind: 'EventList', apiVersion: 'events.k8s.io/v1' });
  expect(listed.json().items.map((e: { note: string }) => e.note)).toEqual(['node rebooted']);

  // events.k8s.io/v1 updates may change the series and metadata only (kube's ValidateEventUpdate).
  const series = { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' };
  const updated = await send('PUT', `${NEW}/e2`, { ...viaNew.json(), series });
  expect(updated.statusCode).toBe(200);
  expect((await send('GET', `${CORE}/e2`)).json()).toMatchObject({ message: 'node rebooted', count: 1, series });
  const viaCore = await send('PUT', `${CORE}/e2`, { ...(await send('GET', `${CORE}/e2`)).json(), message: 'node rebooted twice', count: 2 });
  expect(viaCore.statusCode).toBe(200);
  expect((await send('GET', `${NEW}/e2`)).json()).toMatchObject({ note: 'node rebooted twice', deprecatedCount: 2 });
});

test('a merge patch through events.k8s.io uses its own field names', async () => {
  expect((await send('POST', NEW, newStyle)).statusCode).toBe(201);
  const patch = (payload: object) => h.app.inject({ method: 'PATCH', url: `${NEW}/e1`, headers: { 'content-type': 'application/merge-patch+json' }, payload });
  // note is core/v1's message, which an events.k8s.io/v1 update may not change: kube names it so.
  const refused = await patch({ note: 'patched' });
  expect(refused.statusCode).toBe(422);
  expect(refused.json().details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'message', message: 'Invalid value: "patched": field is immutable' }]);
  const series = { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' };
  const patched = await patch({ series });
  expect(patched.statusCode).toBe(200);
  expect(patched.json()).toMatchObject({ note: 'image pulled', series });
  expect((await send('GET', `${CORE}/e1`)).json().series).toEqual(series);
});

test('validation is the stored kind\'s: a new-style event without a reporting controller is refused through either version', async () => {
  const { reportingController: _drop, ...bad } = newStyle;
  const res = await send('POST', NEW, bad);
  expect(res.statusCode).toBe(422);
  expect(res.json().details.causes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'reportingController', reason: 'FieldValueRequired' })]));
  expect((await send('GET', `${CORE}/e1`)).statusCode).toBe(404);
});

test('field selectors use each version\'s names', async () => {
  expect((await send('POST', NEW, newStyle)).statusCode).toBe(201);
  const byNew = await send('GET', `${NEW}?fieldSelector=regarding.name%3Dp`);
  expect(byNew.json().items).toHaveLength(1);
  const none = await send('GET', `${NEW}?fieldSelector=regarding.name%3Dq`);
  expect(none.json().items).toHaveLength(0);
  const byCore = await send('GET', `${CORE}?fieldSelector=involvedObject.name%3Dp`);
  expect(byCore.json().items).toHaveLength(1);
});

test('a watch on events.k8s.io sees a core write under its own names', async () => {
  // The watch answers after its timeout with every event of that second. Without a
  // resourceVersion it starts with the current objects, so the write is seen
  // whether it lands before or after the watch is established.
  const watch = h.app.inject({ method: 'GET', url: `${NEW}?watch=true&timeoutSeconds=1` });
  const core = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'w1' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', message: 'watched', type: 'Normal' };
  expect((await send('POST', CORE, core)).statusCode).toBe(201);
  const res = await watch;
  const events = res.body.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  const added = events.find((e: { type: string; object: { metadata: { name: string } } }) => e.type === 'ADDED' && e.object.metadata.name === 'w1');
  expect(added?.object).toMatchObject({ apiVersion: 'events.k8s.io/v1', kind: 'Event', note: 'watched' });
  expect(added?.object).not.toHaveProperty('message');
});

test('the table of events.k8s.io events has the core columns and values', async () => {
  expect((await send('POST', NEW, newStyle)).statusCode).toBe(201);
  const res = await h.app.inject({ method: 'GET', url: NEW, headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  expect(res.statusCode).toBe(200);
  const table = res.json();
  const names = table.columnDefinitions.map((c: { name: string }) => c.name);
  const core = await h.app.inject({ method: 'GET', url: CORE, headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  expect(names).toEqual(core.json().columnDefinitions.map((c: { name: string }) => c.name));
  expect(table.rows[0].cells).toEqual(core.json().rows[0].cells);
  expect(table.rows[0].cells).toContain('image pulled');
});
