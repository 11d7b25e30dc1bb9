// events.k8s.io/v1 writes through the storage codec, over HTTP: schema-validated
// as events.k8s.io/v1, stored as core/v1 (kube's storage version for events), read
// back in either version. The two schemas disagree: events.k8s.io/v1 requires
// eventTime (and a series' lastObservedTime), core/v1 does not, so the same event
// is refused through one version and accepted through the other, as kube's
// ValidateEventCreate refuses it only for events.k8s.io writes.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Harness } from '../../endpoints/harness.js';
import { createBuiltinHttpHarness } from '../../support/store-harness.js';
import { objectKey } from '../../../src/registry/keys.js';

let h: Harness;
beforeEach(async () => {
  h = await createBuiltinHttpHarness();
});
afterEach(async () => h.close());

const CORE = '/api/v1/namespaces/default/events';
const NEW = '/apis/events.k8s.io/v1/namespaces/default/events';
const EVENTS = { group: '', plural: 'events', scope: 'Namespaced' } as const;

async function send(method: 'POST' | 'GET', url: string, payload?: object) {
  return h.app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
}

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

test('an events.k8s.io write is stored as core/v1 and read back as written', async () => {
  const created = await send('POST', NEW, newStyle);
  expect(created.statusCode).toBe(201);
  const raw = await h.storage.get(objectKey(EVENTS, { namespace: 'default', name: 'e1' }));
  expect(raw).toMatchObject({ apiVersion: 'v1', kind: 'Event', involvedObject: newStyle.regarding, message: 'image pulled', reportingComponent: 'example.com/ctl' });
  expect(raw).not.toHaveProperty('regarding');
  const read = (await send('GET', `${NEW}/e1`)).json();
  const { uid: _u, creationTimestamp: _c, resourceVersion, namespace, ...clientMeta } = read.metadata;
  expect({ ...read, metadata: clientMeta }).toEqual(newStyle);
  expect({ resourceVersion, namespace }).toEqual({ resourceVersion: raw.metadata.resourceVersion, namespace: 'default' });
});

describe('each version\'s schema judges the writes sent in it', () => {
  const cases: readonly { name: string; drop?: 'eventTime'; extra?: Record<string, unknown>; wantField: string }[] = [
    { name: 'eventTime is required by events.k8s.io/v1 only', drop: 'eventTime', wantField: 'eventTime' },
    {
      name: 'a series needs lastObservedTime in events.k8s.io/v1 only',
      extra: { series: { count: 2 } },
      wantField: 'series.lastObservedTime',
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const { [c.drop ?? 'none']: _dropped, ...rest } = { ...newStyle, ...c.extra } as Record<string, unknown>;
      const viaNew = await send('POST', NEW, rest);
      expect(viaNew.statusCode).toBe(422);
      expect(viaNew.json().details.causes).toEqual([expect.objectContaining({ field: c.wantField, reason: 'FieldValueRequired' })]);
      expect((await send('GET', `${CORE}/e1`)).statusCode).toBe(404);

      // The same event under core/v1's names: core/v1's schema (and rules) accept it.
      const { regarding, note, reportingController, apiVersion: _a, ...same } = rest;
      const viaCore = await send('POST', CORE, { ...same, apiVersion: 'v1', involvedObject: regarding, message: note, reportingComponent: reportingController });
      expect(viaCore.statusCode).toBe(201);
    });
  }
});
