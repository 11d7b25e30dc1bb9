// Every malformed request is a tested 4xx Status, never a 500 or a hang, and
// leaves storage untouched.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';

const W = '/apis/example.test/v1/namespaces/default/widgets';

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer | object;
  want: { code: number; reason: string; message?: string | RegExp; contentType?: string };
  /** An object name that must not exist afterwards. */
  notStored?: string;
}

const widget = (name: string, extra: object = {}) => ({ apiVersion: 'example.test/v1', kind: 'Widget', metadata: { name }, spec: { size: 1 }, ...extra });

const cases: Case[] = [
  { name: 'malformed JSON', method: 'POST', url: W, headers: { 'content-type': 'application/json' }, body: '{"metadata": {', want: { code: 400, reason: 'BadRequest', message: /^the object provided is unrecognized \(must be of type Widget\): couldn't get version\/kind; json parse error: .+ \(\{"metadata": \{\)$/ } },
  { name: 'empty body', method: 'POST', url: W, headers: { 'content-type': 'application/json' }, body: '', want: { code: 400, reason: 'BadRequest' } },
  { name: 'JSON array body', method: 'POST', url: W, headers: { 'content-type': 'application/json' }, body: '[1]', want: { code: 400, reason: 'BadRequest', message: /cannot unmarshal array/ } },
  { name: 'malformed YAML', method: 'POST', url: W, headers: { 'content-type': 'application/yaml' }, body: 'metadata:\n  name: a\n b: [', want: { code: 400, reason: 'BadRequest', message: /^the object provided is unrecognized \(must be of type Widget\): yaml: .+ \([0-9a-f]+\)$/ } },
  { name: 'kind as a number', method: 'POST', url: W, body: { kind: 5, metadata: { name: 'k5' } }, want: { code: 400, reason: 'BadRequest', message: /cannot unmarshal number into Go struct field \.kind of type string/ } },
  { name: 'wrong apiVersion', method: 'POST', url: W, body: { ...widget('av'), apiVersion: 'example.test/v2' }, want: { code: 400, reason: 'BadRequest', message: 'the API version in the data (example.test/v2) does not match the expected API version (example.test/v1)' }, notStored: 'av' },
  { name: 'wrong kind', method: 'POST', url: W, body: { ...widget('wk'), kind: 'Gadget' }, want: { code: 400, reason: 'BadRequest', message: /^Gadget in version "v1" cannot be handled as a Widget/ }, notStored: 'wk' },
  { name: 'metadata not an object', method: 'POST', url: W, body: { metadata: 'x' }, want: { code: 400, reason: 'BadRequest', message: /cannot unmarshal string into Go struct field Widget\.metadata/ } },
  { name: 'unknown resource', method: 'GET', url: '/apis/example.test/v1/namespaces/default/sprockets', want: { code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' } },
  { name: 'unknown group', method: 'GET', url: '/apis/nope.test/v1/widgets', want: { code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' } },
  { name: 'unknown version', method: 'GET', url: '/apis/example.test/v9/namespaces/default/widgets', want: { code: 404, reason: 'NotFound' } },
  { name: 'group resource under /api', method: 'GET', url: '/api/v1/namespaces/default/widgets', want: { code: 404, reason: 'NotFound' } },
  { name: 'unknown subresource', method: 'GET', url: `${W}/a/status`, want: { code: 404, reason: 'NotFound' } },
  { name: 'namespaced object without namespace', method: 'GET', url: '/apis/example.test/v1/widgets/a', want: { code: 404, reason: 'NotFound' } },
  { name: 'cluster-scoped kind inside a namespace', method: 'GET', url: '/apis/example.test/v1/namespaces/default/gadgets', want: { code: 404, reason: 'NotFound' } },
  { name: 'body over 3 MiB', method: 'POST', url: W, headers: { 'content-type': 'application/json' }, body: Buffer.alloc(3 * 1024 * 1024 + 1, 0x20), want: { code: 413, reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' } },
  { name: 'unsupported content type', method: 'POST', url: W, headers: { 'content-type': 'text/plain' }, body: JSON.stringify(widget('ct')), want: { code: 415, reason: 'UnsupportedMediaType', message: /^the body of the request was in an unknown format - accepted media types include: application\/json, application\/yaml, application\/vnd\.kubernetes\.protobuf$/ }, notStored: 'ct' },
  { name: 'Accept only a Table over protobuf (Table has no protobuf message)', method: 'POST', url: W, headers: { accept: 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io' }, body: widget('acc'), want: { code: 406, reason: 'NotAcceptable' }, notStored: 'acc' },
  { name: 'Accept text/html', method: 'GET', url: W, headers: { accept: 'text/html' }, want: { code: 406, reason: 'NotAcceptable' } },
  { name: 'protobuf Accept for a kind without a message', method: 'GET', url: W, headers: { accept: 'application/vnd.kubernetes.protobuf' }, want: { code: 406, reason: 'NotAcceptable', contentType: 'application/vnd.kubernetes.protobuf' } },
  { name: 'PUT name mismatch', method: 'PUT', url: `${W}/a`, body: widget('b'), want: { code: 400, reason: 'BadRequest', message: 'the name of the object (b) does not match the name on the URL (a)' } },
  { name: 'PUT namespace mismatch', method: 'PUT', url: `${W}/a`, body: { ...widget('a'), metadata: { name: 'a', namespace: 'other' } }, want: { code: 400, reason: 'BadRequest', message: 'the namespace of the object (other) does not match the namespace on the request (default)' } },
  { name: 'POST namespace mismatch', method: 'POST', url: W, body: { ...widget('nsm'), metadata: { name: 'nsm', namespace: 'other' } }, want: { code: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request' }, notStored: 'nsm' },
  { name: 'unknown dryRun value', method: 'POST', url: `${W}?dryRun=Some`, body: widget('dr'), want: { code: 422, reason: 'Invalid', message: /^CreateOptions\.meta\.k8s\.io "" is invalid: dryRun: Unsupported value/ }, notStored: 'dr' },
  { name: 'unknown fieldValidation', method: 'POST', url: `${W}?fieldValidation=Loose`, body: widget('fv'), want: { code: 422, reason: 'Invalid', message: /fieldValidation: Unsupported value: "Loose"/ }, notStored: 'fv' },
  { name: 'fieldManager too long', method: 'POST', url: `${W}?fieldManager=${'m'.repeat(129)}`, body: widget('fm'), want: { code: 422, reason: 'Invalid', message: /fieldManager: Too long: may not be more than 128/ }, notStored: 'fm' },
  { name: 'fieldManager unprintable', method: 'PUT', url: `${W}/a?fieldManager=a%07b`, body: widget('a'), want: { code: 422, reason: 'Invalid', message: /UpdateOptions.*invalid character U\+0007 \(at position 1\)/ } },
  { name: 'strict unknown fields', method: 'POST', url: `${W}?fieldValidation=Strict`, body: { ...widget('st'), spec: { size: 1, foo: 1 }, extra: true }, want: { code: 400, reason: 'BadRequest', message: 'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.foo", unknown field "extra"' }, notStored: 'st' },
  { name: 'virtual kind has no patch', method: 'PATCH', url: '/apis/example.test/v1/widgetreviews/a', headers: { 'content-type': 'application/merge-patch+json' }, body: '{}', want: { code: 405, reason: 'MethodNotAllowed', message: 'patch is not supported on resources of kind "widgetreviews.example.test"' } },
  { name: 'create at the all-namespaces path', method: 'POST', url: '/apis/example.test/v1/widgets', body: widget('cl'), want: { code: 405, reason: 'MethodNotAllowed' } },
  { name: 'virtual kind has no get', method: 'GET', url: '/apis/example.test/v1/widgetreviews', want: { code: 405, reason: 'MethodNotAllowed' } },
  { name: 'create in a missing namespace', method: 'POST', url: '/apis/example.test/v1/namespaces/nope/widgets', body: widget('x'), want: { code: 404, reason: 'NotFound', message: 'namespaces "nope" not found' } },
  { name: 'resourceVersionMatch without resourceVersion', method: 'GET', url: `${W}?resourceVersionMatch=NotOlderThan`, want: { code: 422, reason: 'Invalid', message: /resourceVersionMatch is forbidden unless resourceVersion is provided/ } },
  { name: 'Exact with resourceVersion 0', method: 'GET', url: `${W}?resourceVersion=0&resourceVersionMatch=Exact`, want: { code: 422, reason: 'Invalid' } },
  { name: 'unknown resourceVersionMatch', method: 'GET', url: `${W}?resourceVersion=1&resourceVersionMatch=Newest`, want: { code: 422, reason: 'Invalid', message: /Unsupported value: "Newest"/ } },
  { name: 'non-numeric resourceVersion', method: 'GET', url: `${W}?resourceVersion=abc`, want: { code: 400, reason: 'BadRequest' } },
  { name: 'resourceVersion too large on get', method: 'GET', url: `${W}/a?resourceVersion=99999999`, want: { code: 504, reason: 'Timeout', message: /^Timeout: Too large resource version/ } },
  { name: 'continue with resourceVersion', method: 'GET', url: `${W}?continue=abc&resourceVersion=5`, want: { code: 400, reason: 'BadRequest', message: 'specifying resource version is not allowed when using continue' } },
  { name: 'limit not a number', method: 'GET', url: `${W}?limit=ten`, want: { code: 400, reason: 'BadRequest' } },
  { name: 'bad label selector', method: 'GET', url: `${W}?labelSelector=a%20in%20(`, want: { code: 400, reason: 'BadRequest' } },
  { name: 'unsupported field selector', method: 'GET', url: `${W}?fieldSelector=spec.size%3D1`, want: { code: 400, reason: 'BadRequest', message: 'field label not supported: spec.size' } },
  { name: 'bad propagationPolicy', method: 'DELETE', url: `${W}/a`, body: { propagationPolicy: 'Later' }, want: { code: 422, reason: 'Invalid', message: /^DeleteOptions\.meta\.k8s\.io "" is invalid: propagationPolicy: Unsupported value: "Later"/ } },
  { name: 'delete with stale uid precondition', method: 'DELETE', url: `${W}/a`, body: { preconditions: { uid: 'other' } }, want: { code: 409, reason: 'Conflict', message: /Precondition failed: UID in precondition: other, UID in object meta: / } },
];

describe('bad input', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
    const res = await h.app.inject({ method: 'POST', url: W, payload: widget('a') });
    expect(res.statusCode).toBe(201);
  });
  afterAll(async () => {
    await h.close();
  });

  for (const c of cases) {
    test(c.name, async () => {
      const payload = typeof c.body === 'object' && !Buffer.isBuffer(c.body) ? JSON.stringify(c.body) : c.body;
      const headers = { ...(payload !== undefined && c.headers?.['content-type'] === undefined ? { 'content-type': 'application/json' } : {}), ...c.headers };
      const res = await h.app.inject({ method: c.method, url: c.url, headers, ...(payload === undefined ? {} : { payload }) });
      expect(res.statusCode).toBe(c.want.code);
      // A Status has a protobuf message, so even a 406 is answered in the asked-for protobuf.
      expect(res.headers['content-type']).toBe(c.want.contentType ?? 'application/json');
      if (c.want.contentType !== undefined) return;
      const body = res.json();
      expect(body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: c.want.reason, code: c.want.code });
      if (typeof c.want.message === 'string') expect(body.message).toBe(c.want.message);
      else if (c.want.message !== undefined) expect(body.message).toMatch(c.want.message);
      if (c.notStored !== undefined) {
        expect((await h.app.inject({ method: 'GET', url: `${W}/${c.notStored}` })).statusCode).toBe(404);
      }
    });
  }

  test('the seeded object is unchanged by all of the above', async () => {
    const res = await h.app.inject({ method: 'GET', url: `${W}/a` });
    expect(res.statusCode).toBe(200);
    expect(res.json().spec).toEqual({ size: 1 });
    expect(res.json().metadata.generation).toBe(1);
  });
});
