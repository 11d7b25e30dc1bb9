// PATCH through HTTP on the example group (JSON and merge patch; its kinds have no
// built-in schema, so strategic merge is 415 as for custom resources) and on the
// harness's core Namespace (strategic merge): status codes, bodies, and what is
// persisted afterwards.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';

const W = '/apis/example.test/v1/namespaces/default/widgets';
const NS = '/api/v1/namespaces';
const JSON_PATCH = 'application/json-patch+json';
const MERGE = 'application/merge-patch+json';
const SMP = 'application/strategic-merge-patch+json';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  const res = await h.app.inject({ method: 'POST', url: W, payload: { metadata: { name: 'w', labels: { a: '1' } }, spec: { size: 1, color: 'red' } } });
  expect(res.statusCode).toBe(201);
});
afterEach(async () => {
  await h.close();
});

async function patch(url: string, contentType: string | undefined, body: unknown) {
  return h.app.inject({
    method: 'PATCH',
    url,
    headers: contentType === undefined ? {} : { 'content-type': contentType },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function stored(url = `${W}/w`) {
  return (await h.app.inject({ method: 'GET', url })).json();
}

function warningsOf(res: { headers: Record<string, unknown> }): string[] {
  const w = res.headers.warning;
  return w === undefined ? [] : [w as string | string[]].flat();
}

describe('patch types apply and persist', () => {
  const cases: { name: string; contentType: string; body: unknown; want: { labels: Record<string, string>; spec: Record<string, unknown> } }[] = [
    { name: 'merge: add a label, change a field', contentType: MERGE, body: { metadata: { labels: { b: '2' } }, spec: { size: 2 } }, want: { labels: { a: '1', b: '2' }, spec: { size: 2, color: 'red' } } },
    { name: 'merge: null deletes', contentType: MERGE, body: { metadata: { labels: { a: null } }, spec: { color: null } }, want: { labels: {}, spec: { size: 1 } } },
    { name: 'merge with charset parameter', contentType: `${MERGE}; charset=utf-8`, body: { spec: { size: 5 } }, want: { labels: { a: '1' }, spec: { size: 5, color: 'red' } } },
    { name: 'json: test then replace', contentType: JSON_PATCH, body: [{ op: 'test', path: '/spec/size', value: 1 }, { op: 'replace', path: '/spec/size', value: 3 }], want: { labels: { a: '1' }, spec: { size: 3, color: 'red' } } },
    { name: 'json: remove a label', contentType: JSON_PATCH, body: [{ op: 'remove', path: '/metadata/labels/a' }], want: { labels: {}, spec: { size: 1, color: 'red' } } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await patch(`${W}/w`, c.contentType, c.body);
      expect(res.statusCode).toBe(200);
      expect(res.json().spec).toEqual(c.want.spec);
      const after = await stored();
      expect(after.spec).toEqual(c.want.spec);
      expect(after.metadata.labels ?? {}).toEqual(c.want.labels);
      expect(after.metadata.resourceVersion).toBe(res.json().metadata.resourceVersion);
    });
  }

  test('a spec change goes through the update strategy (generation)', async () => {
    const res = await patch(`${W}/w`, MERGE, { spec: { size: 9 } });
    expect(res.json().metadata.generation).toBe(2);
  });

  test('empty patch is a no-op answering the object', async () => {
    const before = await stored();
    for (const [type, body] of [[MERGE, {}], [JSON_PATCH, []]] as const) {
      const res = await patch(`${W}/w`, type, body);
      expect(res.statusCode).toBe(200);
      expect(res.json().metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    }
    expect((await stored()).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });
});

describe('PATCH failures leave the object alone', () => {
  const rejected = 'the server rejected our request due to an error in our request';
  const cases: { name: string; url?: string; contentType: string | undefined; body: unknown; want: { code: number; reason: string; message: string } }[] = [
    {
      name: 'strategic merge on a kind without a built-in schema',
      contentType: SMP,
      body: { spec: { size: 2 } },
      want: { code: 415, reason: 'UnsupportedMediaType', message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json' },
    },
    {
      name: 'server-side apply is not offered',
      contentType: 'application/apply-patch+yaml',
      body: 'spec: {size: 2}',
      want: { code: 415, reason: 'UnsupportedMediaType', message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json' },
    },
    { name: 'plain JSON is not a patch type', contentType: 'application/json', body: { spec: { size: 2 } }, want: { code: 415, reason: 'UnsupportedMediaType', message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json' } },
    { name: 'missing object', url: `${W}/nope`, contentType: MERGE, body: { spec: { size: 2 } }, want: { code: 404, reason: 'NotFound', message: 'widgets.example.test "nope" not found' } },
    { name: 'missing object wins over a bad body', url: `${W}/nope`, contentType: JSON_PATCH, body: '{{', want: { code: 404, reason: 'NotFound', message: 'widgets.example.test "nope" not found' } },
    { name: 'JSON patch that is not JSON', contentType: JSON_PATCH, body: '[{', want: { code: 400, reason: 'BadRequest', message: 'unexpected end of JSON input' } },
    { name: 'JSON patch whose test fails', contentType: JSON_PATCH, body: [{ op: 'test', path: '/spec/size', value: 7 }, { op: 'replace', path: '/spec/size', value: 3 }], want: { code: 422, reason: 'Invalid', message: rejected } },
    { name: 'merge patch that is not JSON', contentType: MERGE, body: '{', want: { code: 400, reason: 'BadRequest', message: 'error decoding patch: unexpected end of JSON input' } },
    { name: 'stale resourceVersion in the patch', contentType: MERGE, body: { metadata: { resourceVersion: '1' }, spec: { size: 2 } }, want: { code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on widgets.example.test "w": the object has been modified; please apply your changes to the latest version and try again' } },
    { name: 'renaming', contentType: MERGE, body: { metadata: { name: 'other' } }, want: { code: 400, reason: 'BadRequest', message: 'the name of the object (other) does not match the name on the URL (w)' } },
    {
      name: 'changing kind',
      contentType: JSON_PATCH,
      body: [{ op: 'replace', path: '/kind', value: 'Gadget' }],
      want: { code: 422, reason: 'Invalid', message: expect.stringContaining('no kind "Gadget" is registered for version "example.test/v1"') as unknown as string },
    },
    {
      name: 'changing apiVersion',
      contentType: MERGE,
      body: { apiVersion: 'example.test/v2' },
      want: { code: 422, reason: 'Invalid', message: expect.stringContaining('no kind "Widget" is registered for version "example.test/v2"') as unknown as string },
    },
    { name: 'failing validation', contentType: MERGE, body: { spec: { size: -1 } }, want: { code: 422, reason: 'Invalid', message: 'Widget.example.test "w" is invalid: spec.size: Invalid value: -1: must be a non-negative integer' } },
    {
      name: 'fieldValidation=Strict with an unknown field',
      url: `${W}/w?fieldValidation=Strict`,
      contentType: MERGE,
      body: { spec: { foo: 1 } },
      want: { code: 422, reason: 'Invalid', message: expect.stringContaining('strict decoding error: unknown field "spec.foo"') as unknown as string },
    },
    { name: 'force on a non-apply patch', url: `${W}/w?force=true`, contentType: MERGE, body: { spec: { size: 2 } }, want: { code: 422, reason: 'Invalid', message: 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch' } },
    { name: 'bad dryRun', url: `${W}/w?dryRun=Some`, contentType: MERGE, body: { spec: { size: 2 } }, want: { code: 422, reason: 'Invalid', message: expect.stringContaining('PatchOptions.meta.k8s.io "" is invalid: dryRun') as unknown as string } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const before = await stored();
      const res = await patch(c.url ?? `${W}/w`, c.contentType, c.body);
      expect(res.statusCode).toBe(c.want.code);
      expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure', ...c.want });
      expect(await stored()).toEqual(before);
    });
  }

  test('a missing Content-Type is 415', async () => {
    const res = await h.app.inject({ method: 'PATCH', url: `${W}/w`, payload: '{}' });
    expect(res.statusCode).toBe(415);
  });
});

describe('PATCH options', () => {
  test('a matching resourceVersion in the patch is a precondition that passes', async () => {
    const rv = (await stored()).metadata.resourceVersion;
    const res = await patch(`${W}/w`, MERGE, { metadata: { resourceVersion: rv }, spec: { size: 4 } });
    expect(res.statusCode).toBe(200);
    expect((await stored()).spec.size).toBe(4);
  });

  test('dryRun=All answers the patched object and persists nothing', async () => {
    const before = await stored();
    const res = await patch(`${W}/w?dryRun=All`, MERGE, { spec: { size: 8 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().spec.size).toBe(8);
    expect(await stored()).toEqual(before);
  });

  const modes: { name: string; query: string; wantWarnings: string[] }[] = [
    { name: 'Warn (default) warns and drops', query: '', wantWarnings: ['299 - "unknown field \\"spec.foo\\""'] },
    { name: 'Ignore drops silently', query: '?fieldValidation=Ignore', wantWarnings: [] },
  ];
  for (const m of modes) {
    test(`fieldValidation ${m.name}`, async () => {
      const res = await patch(`${W}/w${m.query}`, MERGE, { spec: { foo: 1, size: 6 } });
      expect(res.statusCode).toBe(200);
      expect(warningsOf(res)).toEqual(m.wantWarnings);
      expect((await stored()).spec).toEqual({ size: 6, color: 'red' });
    });
  }

  test('strategy warnings reach the Warning header', async () => {
    const res = await patch(`${W}/w`, MERGE, { spec: { legacy: true } });
    expect(warningsOf(res)).toEqual(['299 - "spec.legacy is deprecated"']);
  });
});

describe('strategic merge on a built-in kind (Namespace)', () => {
  beforeEach(async () => {
    const res = await h.app.inject({ method: 'POST', url: NS, payload: { metadata: { name: 'team', labels: { a: '1' }, finalizers: ['x/one', 'x/two'] } } });
    expect(res.statusCode).toBe(201);
  });

  const cases: { name: string; body: unknown; want: { labels: Record<string, string>; finalizers: string[] } }[] = [
    { name: 'labels merge', body: { metadata: { labels: { b: '2' } } }, want: { labels: { a: '1', b: '2' }, finalizers: ['x/one', 'x/two'] } },
    { name: 'finalizers merge as a set', body: { metadata: { finalizers: ['x/two', 'x/three'] } }, want: { labels: { a: '1' }, finalizers: ['x/one', 'x/two', 'x/three'] } },
    { name: '$deleteFromPrimitiveList', body: { metadata: { '$deleteFromPrimitiveList/finalizers': ['x/one'] } }, want: { labels: { a: '1' }, finalizers: ['x/two'] } },
    { name: '$patch: replace on labels', body: { metadata: { labels: { $patch: 'replace', z: '9' } } }, want: { labels: { z: '9' }, finalizers: ['x/one', 'x/two'] } },
    { name: 'kind in the patch is ignored, as typed conversion does', body: { kind: 'Other', metadata: { labels: { b: '2' } } }, want: { labels: { a: '1', b: '2' }, finalizers: ['x/one', 'x/two'] } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await patch(`${NS}/team`, SMP, c.body);
      expect(res.statusCode).toBe(200);
      const after = await stored(`${NS}/team`);
      expect(after.kind).toBe('Namespace');
      expect(after.metadata.labels).toEqual(c.want.labels);
      expect(after.metadata.finalizers).toEqual(c.want.finalizers);
    });
  }

  test('a bad directive is 400 and nothing changes', async () => {
    const before = await stored(`${NS}/team`);
    const res = await patch(`${NS}/team`, SMP, { metadata: { '$deleteFromPrimitiveList/finalizers': 'x/one' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'BadRequest', message: 'invalid patch format of primitive list' });
    expect(await stored(`${NS}/team`)).toEqual(before);
  });

  test('strict field validation quotes the patch map', async () => {
    const res = await patch(`${NS}/team?fieldValidation=Strict`, SMP, { spec: { bogus: true } });
    expect(res.statusCode).toBe(422);
    // kube's NewInvalid with an empty GroupKind, leading space included.
    expect(res.json().message).toBe(' "" is invalid: patch: Invalid value: "map[spec:map[bogus:true]]": strict decoding error: unknown field "spec.bogus"');
  });
});
