// The rules kube applies to events written through events.k8s.io/v1 and not to the
// same events written through core/v1 (pkg/apis/core/validation/events.go:
// ValidateEventCreate and ValidateEventUpdate depend on the request's version).
// Errors name kube's internal fields (count, source, message, reportingController),
// as kube reports them, whatever name the client sent.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Harness } from '../../endpoints/harness.js';
import { createBuiltinHttpHarness } from '../../support/store-harness.js';
import { eventToCore } from '../../../src/apis/events/v1/events.js';
import type { KubeObject } from '../../../src/schema/object.js';

let h: Harness;
beforeEach(async () => {
  h = await createBuiltinHttpHarness();
});
afterEach(async () => h.close());

const CORE = '/api/v1/namespaces/default/events';
const NEW = '/apis/events.k8s.io/v1/namespaces/default/events';

function send(method: 'POST' | 'PUT' | 'GET', url: string, payload?: object | string) {
  return h.app.inject({ method, url, ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/json' } }) });
}

const valid = {
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

/** The same event under core/v1's names. */
function asCore(ev: Record<string, unknown>): KubeObject {
  return { ...eventToCore(ev as KubeObject), apiVersion: 'v1' };
}

interface Cause {
  readonly reason: string;
  readonly field: string;
  readonly message: string | ReturnType<typeof expect.stringContaining>;
}

const needsUnset = (field: string): Cause => ({ reason: 'FieldValueInvalid', field, message: 'Invalid value: "": needs to be unset' });
const tooLongNote: Cause = { reason: 'FieldValueInvalid', field: 'message', message: 'Invalid value: "": can have at most 1024 characters' };

describe('create through events.k8s.io/v1 is strict, through core/v1 lenient', () => {
  const cases: readonly { name: string; change: Record<string, unknown>; drop?: string; want: Cause[]; viaCore: 'accepted' | 'same' }[] = [
    { name: 'deprecatedCount must be unset (reported as count)', change: { deprecatedCount: 3 }, want: [needsUnset('count')], viaCore: 'accepted' },
    { name: 'deprecatedFirstTimestamp must be unset', change: { deprecatedFirstTimestamp: '2026-01-01T00:00:00Z' }, want: [needsUnset('firstTimestamp')], viaCore: 'accepted' },
    { name: 'deprecatedLastTimestamp must be unset', change: { deprecatedLastTimestamp: '2026-01-01T00:00:00Z' }, want: [needsUnset('lastTimestamp')], viaCore: 'accepted' },
    { name: 'deprecatedSource must be unset', change: { deprecatedSource: { component: 'kubelet' } }, want: [needsUnset('source')], viaCore: 'accepted' },
    { name: 'an empty deprecatedSource is unset', change: { deprecatedSource: {}, deprecatedCount: 0 }, want: [], viaCore: 'accepted' },
    { name: 'type is Normal or Warning', change: { type: 'Info' }, want: [{ reason: 'FieldValueInvalid', field: 'type', message: 'Invalid value: "": has invalid value: Info' }], viaCore: 'accepted' },
    { name: 'type is required', change: {}, drop: 'type', want: [{ reason: 'FieldValueInvalid', field: 'type', message: 'Invalid value: "": has invalid value: ' }], viaCore: 'accepted' },
    {
      name: 'a series counts at least 2',
      change: { series: { count: 1, lastObservedTime: '2026-01-01T00:00:00.000000Z' } },
      want: [{ reason: 'FieldValueInvalid', field: 'series.count', message: 'Invalid value: "": should be at least 2' }],
      viaCore: 'accepted',
    },
    {
      name: 'the name is a DNS subdomain',
      change: { metadata: { name: 'Upper_Case' } },
      want: [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: expect.stringContaining('Invalid value: "Upper_Case": a lowercase RFC 1123 subdomain must consist of') }],
      viaCore: 'accepted',
    },
    {
      // IsQualifiedName("") adds its own two texts, as kube's does.
      name: 'reportingController is required (both versions: the event has an eventTime)',
      change: {},
      drop: 'reportingController',
      want: [
        { reason: 'FieldValueRequired', field: 'reportingController', message: 'Required value' },
        { reason: 'FieldValueInvalid', field: 'reportingController', message: 'Invalid value: "": name part must be non-empty' },
        { reason: 'FieldValueInvalid', field: 'reportingController', message: expect.stringContaining('Invalid value: "": name part must consist of alphanumeric characters') },
      ],
      viaCore: 'same',
    },
    { name: 'reportingInstance is required', change: {}, drop: 'reportingInstance', want: [{ reason: 'FieldValueRequired', field: 'reportingInstance', message: 'Required value' }], viaCore: 'same' },
    { name: 'a note of 1025 bytes is too long (reported as message)', change: { note: 'x'.repeat(1025) }, want: [tooLongNote], viaCore: 'same' },
    { name: 'a note of 1 MiB is too long', change: { note: 'x'.repeat(1 << 20) }, want: [tooLongNote], viaCore: 'same' },
    { name: 'note length counts UTF-8 bytes, as Go len() does', change: { note: 'é'.repeat(600) }, want: [tooLongNote], viaCore: 'same' },
    { name: 'a note of 1024 bytes is accepted', change: { note: 'x'.repeat(1024) }, want: [], viaCore: 'accepted' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const body: Record<string, unknown> = { ...valid, ...c.change };
      if (c.drop !== undefined) delete body[c.drop];
      const viaNew = await send('POST', NEW, body);
      if (c.want.length === 0) {
        expect(viaNew.statusCode).toBe(201);
        return;
      }
      expect(viaNew.statusCode).toBe(422);
      expect(viaNew.json()).toMatchObject({ kind: 'Status', reason: 'Invalid', details: { kind: 'Event' } });
      expect(viaNew.json().details.causes).toEqual(c.want);

      const viaCore = await send('POST', CORE, asCore(body));
      if (c.viaCore === 'accepted') expect(viaCore.statusCode).toBe(201);
      else expect(viaCore.json().details.causes).toEqual(c.want);
    });
  }

  test("the message lists every cause, kube's way", async () => {
    const res = await send('POST', NEW, { ...valid, deprecatedCount: 3, deprecatedSource: { host: 'n1' }, type: 'Info' });
    expect(res.json().message).toBe('Event "e1" is invalid: [type: Invalid value: "": has invalid value: Info, count: Invalid value: "": needs to be unset, source: Invalid value: "": needs to be unset]');
  });
});

describe('hostile bodies', () => {
  const json = (extra: string) => JSON.stringify(valid).replace(/}$/, `,${extra}}`);
  const cases: readonly { name: string; payload: string; wantStatus: number; wantStoredCount?: undefined }[] = [
    { name: '__proto__ at the top level carries no deprecatedCount', payload: json('"__proto__":{"deprecatedCount":3,"count":3}'), wantStatus: 201 },
    { name: '__proto__ inside deprecatedSource carries no component', payload: json('"deprecatedSource":{"__proto__":{"component":"x"}}'), wantStatus: 201 },
    { name: 'deprecatedCount as a string is a decode error', payload: json('"deprecatedCount":"3"'), wantStatus: 400 },
    { name: 'note as a number is a decode error', payload: JSON.stringify({ ...valid, note: 5 }), wantStatus: 400 },
    { name: 'series as a string is a decode error', payload: json('"series":"x"'), wantStatus: 400 },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await send('POST', NEW, c.payload);
      expect(res.statusCode, res.body).toBe(c.wantStatus);
      expect(Object.prototype).not.toHaveProperty('count');
      expect(Object.prototype).not.toHaveProperty('component');
      if (c.wantStatus !== 201) return;
      const stored = (await send('GET', `${CORE}/e1`)).json();
      expect(stored).not.toHaveProperty('count');
      expect(stored).not.toHaveProperty('source.component');
    });
  }
});

describe('update through events.k8s.io/v1 may change only the series and metadata', () => {
  const immutable = (field: string, value: string): Cause => ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${value}: field is immutable` });
  const ref = (name: string) => `core.ObjectReference{Kind:"Pod", Namespace:"default", Name:"${name}", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}`;
  const cases: readonly { name: string; change: Record<string, unknown>; want: Cause[] }[] = [
    { name: 'note (message)', change: { note: 'changed' }, want: [immutable('message', '"changed"')] },
    { name: 'regarding (involvedObject)', change: { regarding: { kind: 'Pod', name: 'q', namespace: 'default' } }, want: [immutable('involvedObject', ref('q'))] },
    // kube checks reason twice, so it is listed twice.
    { name: 'reason', change: { reason: 'Other' }, want: [immutable('reason', '"Other"'), immutable('reason', '"Other"')] },
    { name: 'type', change: { type: 'Warning' }, want: [immutable('type', '"Warning"')] },
    { name: 'eventTime', change: { eventTime: '2026-01-01T00:00:01.500000Z' }, want: [immutable('eventTime', '2026-01-01 00:00:01.5 +0000 UTC')] },
    { name: 'action', change: { action: 'Other' }, want: [immutable('action', '"Other"')] },
    { name: 'deprecatedCount (count)', change: { deprecatedCount: 2 }, want: [immutable('count', '2')] },
    { name: 'deprecatedSource (source)', change: { deprecatedSource: { component: 'c' } }, want: [immutable('source', 'core.EventSource{Component:"c", Host:""}')] },
    { name: 'deprecatedLastTimestamp', change: { deprecatedLastTimestamp: '2026-01-01T00:00:00Z' }, want: [immutable('lastTimestamp', '2026-01-01 00:00:00 +0000 UTC')] },
    { name: 'related', change: { related: { kind: 'Pod', name: 'r', namespace: 'default' } }, want: [immutable('related', ref('r'))] },
    { name: 'reportingController', change: { reportingController: 'example.com/other' }, want: [immutable('reportingController', '"example.com/other"')] },
    { name: 'reportingInstance', change: { reportingInstance: 'ctl-2' }, want: [immutable('reportingInstance', '"ctl-2"')] },
    {
      name: 'a changed series is judged again',
      change: { series: { count: 1, lastObservedTime: '2026-01-01T00:00:00.000000Z' } },
      want: [{ reason: 'FieldValueInvalid', field: 'series.count', message: 'Invalid value: "": should be at least 2' }],
    },
    { name: 'a valid series may be added', change: { series: { count: 2, lastObservedTime: '2026-01-01T00:00:05.000000Z' } }, want: [] },
    { name: 'labels may change', change: { metadata: { name: 'e1', labels: { a: 'b' } } }, want: [] },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      expect((await send('POST', NEW, valid)).statusCode).toBe(201);
      const current = (await send('GET', `${NEW}/e1`)).json();
      const next = { ...current, ...c.change, metadata: { ...current.metadata, ...(c.change.metadata as object | undefined) } };
      const viaNew = await send('PUT', `${NEW}/e1`, next);
      if (c.want.length === 0) {
        expect(viaNew.statusCode, viaNew.body).toBe(200);
        return;
      }
      expect(viaNew.statusCode).toBe(422);
      expect(viaNew.json().details.causes).toEqual(c.want);
      // The message names a repeated text once, as apimachinery's ToAggregate does.
      expect(viaNew.json().message).toBe(`Event "e1" is invalid: ${c.want[0]!.field}: ${c.want[0]!.message}`);

      // core/v1 updates keep the lenient rules: the same change is accepted there.
      const viaCore = await send('PUT', `${CORE}/e1`, asCore(next));
      expect(viaCore.statusCode, viaCore.body).toBe(200);
    });
  }
});
