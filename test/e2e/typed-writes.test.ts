// Issue #8 item 3 over real sockets: a write whose values have the wrong JSON type
// is refused before anything is stored (create and update: 400 with the decoder's
// text; patches: 422 on `patch`), in JSON and YAML, and prototype-named keys are
// ordinary undeclared fields. Each row checks the answer and the stored state.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminCredentials, call, type Answer, type Credentials } from './support/http.js';
import { startKapi, type RunningKapi } from './support/server.js';

const NS = '/api/v1/namespaces/default';
const CMS = `${NS}/configmaps`;

interface Case {
  readonly name: string;
  readonly method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to the config map collection. */
  readonly path: string;
  readonly contentType?: string;
  readonly body: string;
  readonly want: { readonly code: number; readonly reason: string; readonly message: string | RegExp };
  /** A config map that must not exist afterwards. */
  readonly absent?: string;
}

const cm = (metadata: object, rest: object = {}) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata, ...rest });
/** 417 bytes of nested aliases (nine levels of ten): the issue's heap-killer. */
const LAUGHS = [
  'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: laughs', 'data:',
  '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((k, i) => `  ${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
].join('\n');
const refused = (detail: string) => `ConfigMap in version "v1" cannot be handled as a ConfigMap: ${detail}`;

const cases: Case[] = [
  { name: 'POST name as a number', method: 'POST', path: '', body: cm({ name: 15 }), want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string') } },
  { name: 'POST name as an array', method: 'POST', path: '', body: cm({ name: ['n-arr'] }), want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal array into Go struct field ObjectMeta.metadata.name of type string') } },
  { name: 'POST name as a boolean', method: 'POST', path: '', body: cm({ name: true }), want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.name of type string') } },
  { name: 'POST labels as an array', method: 'POST', path: '', body: cm({ name: 'l-arr', labels: ['a'] }), want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string') }, absent: 'l-arr' },
  { name: 'POST a label value as a number', method: 'POST', path: '', body: cm({ name: 'l-num', labels: { a: 1 } }), want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string') }, absent: 'l-num' },
  { name: 'POST {"toString":"a"} as a label value', method: 'POST', path: '', body: cm({ name: 'l-obj', labels: { a: { toString: 'a' } } }), want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal object into Go struct field ObjectMeta.metadata.labels of type string') }, absent: 'l-obj' },
  { name: 'POST data as an array', method: 'POST', path: '', body: cm({ name: 'd-arr' }, { data: ['a'] }), want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string') }, absent: 'd-arr' },
  { name: 'POST finalizers as a string', method: 'POST', path: '', body: cm({ name: 'f-str', finalizers: 'a' }), want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal string into Go struct field ObjectMeta.metadata.finalizers of type []string') }, absent: 'f-str' },
  { name: 'POST finalizers: [1]', method: 'POST', path: '', body: cm({ name: 'f-num', finalizers: [1] }), want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.finalizers of type string') }, absent: 'f-num' },
  { name: 'POST ownerReferences as an object', method: 'POST', path: '', body: cm({ name: 'o-obj', ownerReferences: {} }), want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal object into Go struct field ObjectMeta.metadata.ownerReferences of type []v1.OwnerReference') }, absent: 'o-obj' },
  { name: 'POST ownerReferences: [{"apiVersion":1}]', method: 'POST', path: '', body: cm({ name: 'o-num', ownerReferences: [{ apiVersion: 1 }] }), want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal number into Go struct field OwnerReference.metadata.ownerReferences.apiVersion of type string') }, absent: 'o-num' },
  { name: 'POST YAML name: 0o17', method: 'POST', path: '', contentType: 'application/yaml', body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 0o17\n', want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string') } },
  { name: 'POST YAML labels as a list', method: 'POST', path: '', contentType: 'application/yaml', body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y-arr\n  labels:\n  - a\n', want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string') }, absent: 'y-arr' },
  { name: 'POST prototype-named fields under Strict', method: 'POST', path: '?fieldValidation=Strict', body: cm({ name: 'p-strict', toString: 'x' }, { constructor: { a: 1 } }), want: { code: 400, reason: 'BadRequest', message: refused('strict decoding error: unknown field "metadata.toString", unknown field "constructor"') }, absent: 'p-strict' },
  { name: 'POST a duplicate field under Strict', method: 'POST', path: '?fieldValidation=Strict', body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"dup2"}}', want: { code: 400, reason: 'BadRequest', message: refused('strict decoding error: duplicate field "metadata.name"') }, absent: 'dup2' },
  { name: 'POST a duplicate YAML key under Strict', method: 'POST', path: '?fieldValidation=Strict', contentType: 'application/yaml', body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ydup\n  name: ydup2\n', want: { code: 400, reason: 'BadRequest', message: refused('strict decoding error: yaml: unmarshal errors:\n  line 5: key "name" already set in map') }, absent: 'ydup2' },
  { name: 'POST a duplicate inside an unknown field under Strict: only the unknown field', method: 'POST', path: '?fieldValidation=Strict', body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dupu"},"bogus":{"x":1,"x":2}}', want: { code: 400, reason: 'BadRequest', message: refused('strict decoding error: unknown field "bogus"') }, absent: 'dupu' },
  { name: 'POST malformed JSON', method: 'POST', path: '', body: '{"metadata": {', want: { code: 400, reason: 'BadRequest', message: /^the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error: .+ \(\{"metadata": \{\)$/ } },
  { name: 'POST JSON nested 100,000 deep', method: 'POST', path: '', body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, want: { code: 400, reason: 'BadRequest', message: /^the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error: invalid character '\[' exceeded max depth \(/ }, absent: 'deep' },
  { name: 'POST YAML billion laughs', method: 'POST', path: '', contentType: 'application/yaml', body: LAUGHS, want: { code: 400, reason: 'BadRequest', message: /^the object provided is unrecognized \(must be of type ConfigMap\): yaml: document contains excessive aliasing \(/ }, absent: 'laughs' },
  { name: 'POST YAML self-alias', method: 'POST', path: '', contentType: 'application/yaml', body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: self\ndata: &a [*a]\n', want: { code: 400, reason: 'BadRequest', message: /^the object provided is unrecognized \(must be of type ConfigMap\): yaml: / }, absent: 'self' },
  { name: 'PUT data as an array', method: 'PUT', path: '/target', body: cm({ name: 'target' }, { data: [1] }), want: { code: 400, reason: 'BadRequest', message: refused('json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string') } },
  { name: 'merge patch: data as an array', method: 'PATCH', path: '/target', contentType: 'application/merge-patch+json', body: '{"data":[1]}', want: { code: 422, reason: 'Invalid', message: /patch: Invalid value: ".*": json: cannot unmarshal array into Go struct field ConfigMap\.data of type map\[string\]string$/ } },
  { name: 'merge patch: a label value as a number', method: 'PATCH', path: '/target', contentType: 'application/merge-patch+json', body: '{"metadata":{"labels":{"a":1}}}', want: { code: 422, reason: 'Invalid', message: /json: cannot unmarshal number into Go struct field ObjectMeta\.metadata\.labels of type string$/ } },
  { name: 'JSON patch: finalizers as a string', method: 'PATCH', path: '/target', contentType: 'application/json-patch+json', body: '[{"op":"add","path":"/metadata/finalizers","value":"x"}]', want: { code: 422, reason: 'Invalid', message: /json: cannot unmarshal string into Go struct field ObjectMeta\.metadata\.finalizers of type \[\]string$/ } },
  { name: 'strategic merge patch: name as a number', method: 'PATCH', path: '/target', contentType: 'application/strategic-merge-patch+json', body: '{"metadata":{"annotations":{"a":true}}}', want: { code: 422, reason: 'Invalid', message: /json: cannot unmarshal bool into Go struct field ObjectMeta\.metadata\.annotations of type string$/ } },
  { name: 'DELETE with gracePeriodSeconds as text', method: 'DELETE', path: '/target', body: '{"gracePeriodSeconds":"5"}', want: { code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64' } },
];

describe('typed writes', () => {
  let server: RunningKapi;
  let admin: Required<Credentials>;
  const send = (opts: { method?: string; path: string; body?: string; contentType?: string }): Promise<Answer> =>
    call(server, admin, {
      ...(opts.method === undefined ? {} : { method: opts.method }),
      path: opts.path,
      ...(opts.body === undefined ? {} : { body: opts.body }),
      headers: { 'content-type': opts.contentType ?? 'application/json', accept: 'application/json' },
    });

  beforeAll(async () => {
    server = await startKapi();
    admin = adminCredentials(server.kubeconfig);
    const created = await send({ method: 'POST', path: CMS, body: cm({ name: 'target', labels: { keep: 'me' } }, { data: { k: 'v' } }) });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const c of cases) {
    test(c.name, async () => {
      const res = await send({ method: c.method, path: `${CMS}${c.path}`, body: c.body, ...(c.contentType === undefined ? {} : { contentType: c.contentType }) });
      expect(res.status).toBe(c.want.code);
      const status = res.json();
      expect(status).toMatchObject({ kind: 'Status', status: 'Failure', code: c.want.code, reason: c.want.reason });
      if (typeof c.want.message === 'string') expect(status.message).toBe(c.want.message);
      else expect(status.message).toMatch(c.want.message);
      if (c.absent !== undefined) expect((await send({ path: `${CMS}/${c.absent}` })).status).toBe(404);
    });
  }

  test('the target config map is unchanged by every refused write', async () => {
    const res = await send({ path: `${CMS}/target` });
    expect(res.status).toBe(200);
    expect(res.json().data).toEqual({ k: 'v' });
    expect(res.json().metadata.labels).toEqual({ keep: 'me' });
    expect(res.json().metadata.finalizers).toBeUndefined();
  });

  test('prototype-named keys are ordinary data: dropped as unknown fields, kept as map keys', async () => {
    const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"proto","labels":{"toString":"a","constructor":"b"}},"toString":{"x":1},"valueOf":[1],"__proto__":{"polluted":1},"data":{"__proto__":"p","valueOf":"v"}}';
    const created = await send({ method: 'POST', path: `${CMS}?fieldValidation=Warn`, body });
    expect(created.status).toBe(201);
    const warning = String(created.headers.warning ?? '');
    for (const f of ['toString', 'valueOf', '__proto__']) expect(warning).toContain(`unknown field \\"${f}\\"`);
    const stored = await send({ path: `${CMS}/proto` });
    expect(stored.status).toBe(200);
    const text = stored.body.toString();
    const obj = JSON.parse(text);
    expect(Object.keys(obj).sort()).toEqual(['apiVersion', 'data', 'kind', 'metadata']);
    expect(obj.metadata.labels).toEqual({ toString: 'a', constructor: 'b' });
    expect(text).toContain('"__proto__":"p"');
    expect(Object.getOwnPropertyDescriptor(obj.data, '__proto__')?.value).toBe('p');
    // The server still answers normally afterwards (a polluted prototype would break it).
    expect((await send({ path: `${CMS}/target` })).status).toBe(200);
  });

  test('unknown fields with dots, brackets or no name are dropped, not stored', async () => {
    const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"odd-keys","a.b":1},"..":{"labels":{"x":"y"}},"":1,"p[0]":1,"data":{"a.b":"kept"}}';
    const created = await send({ method: 'POST', path: CMS, body });
    expect(created.status).toBe(201);
    const stored = (await send({ path: `${CMS}/odd-keys` })).json();
    expect(Object.keys(stored).sort()).toEqual(['apiVersion', 'data', 'kind', 'metadata']);
    expect(stored.metadata['a.b']).toBeUndefined();
    expect(stored.data).toEqual({ 'a.b': 'kept' });
  });

  test('times are read as Go reads them: MicroTime wants six digits, RFC 3339 takes Go\'s corners', async () => {
    const leases = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    const lease = (name: string, renewTime: string) => JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: 'a', renewTime } });
    const short = await send({ method: 'POST', path: leases, body: lease('micro-short', '2026-01-01T00:00:00Z') });
    expect(short.status).toBe(400);
    expect(short.json()).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: 'Lease in version "v1" cannot be handled as a Lease: parsing time "2026-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    });
    expect((await send({ path: `${leases}/micro-short` })).status).toBe(404);
    const micro = await send({ method: 'POST', path: leases, body: lease('micro-ok', '2026-01-01T00:00:00.123456Z') });
    expect(micro.status).toBe(201);
    expect((await send({ path: `${leases}/micro-ok` })).json().spec.renewTime).toBe('2026-01-01T00:00:00.123456Z');
    // A lower-case t is refused; a one-digit hour is Go's and accepted.
    const lower = await send({ method: 'POST', path: CMS, body: cm({ name: 't-lower', creationTimestamp: '2024-01-01t00:00:00Z' }) });
    expect(lower.status).toBe(400);
    expect(lower.json().message).toBe(refused('parsing time "2024-01-01t00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "t00:00:00Z" as "T"'));
    expect((await send({ path: `${CMS}/t-lower` })).status).toBe(404);
    const oneDigit = await send({ method: 'POST', path: CMS, body: cm({ name: 't-hour', creationTimestamp: '2024-01-01T3:04:05Z' }) });
    expect(oneDigit.status).toBe(201);
  });

  test('quantities and times are stored and answered in the form kube writes them', async () => {
    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    const body = JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'canonical' },
      spec: {
        selector: { matchLabels: { app: 'c' } },
        template: { metadata: { labels: { app: 'c' } }, spec: { containers: [{ name: 'c', image: 'x', resources: { limits: { cpu: '1000m', memory: 1048576 }, requests: { cpu: 0.5, memory: '0.5Mi' } } }] } },
      },
    });
    const created = await send({ method: 'POST', path: deployments, body });
    expect(created.status).toBe(201);
    const want = { limits: { cpu: '1', memory: '1048576' }, requests: { cpu: '500m', memory: '512Ki' } };
    expect(created.json().spec.template.spec.containers[0].resources).toEqual(want);
    expect((await send({ path: `${deployments}/canonical` })).json().spec.template.spec.containers[0].resources).toEqual(want);
    // The same values sent again in another spelling change nothing: no new resourceVersion.
    const current = (await send({ path: `${deployments}/canonical` })).json();
    const again = await send({ method: 'PUT', path: `${deployments}/canonical`, body: body.replace('"name":"canonical"', `"name":"canonical","resourceVersion":"${current.metadata.resourceVersion}"`) });
    expect(again.status).toBe(200);
    expect(again.json().metadata.resourceVersion).toBe(current.metadata.resourceVersion);

    const event = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'times' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
      reason: 'Test',
      firstTimestamp: '2024-01-01T03:04:05.5+02:00',
      lastTimestamp: '2024-01-01T3:04:05Z',
      eventTime: '2024-01-01T00:00:00.123456+02:00',
      reportingComponent: 'x',
      reportingInstance: 'i',
      action: 'A',
    });
    const ev = await send({ method: 'POST', path: `${NS}/events`, body: event });
    expect(ev.status).toBe(201);
    const stored = (await send({ path: `${NS}/events/times` })).json();
    expect([stored.firstTimestamp, stored.lastTimestamp, stored.eventTime]).toEqual(['2024-01-01T01:04:05Z', '2024-01-01T03:04:05Z', '2023-12-31T22:00:00.123456Z']);
  });

  test('a secret type named like an Object.prototype member is a type like any other', async () => {
    const body = '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"proto-type"},"type":"constructor","stringData":{"__proto__":"p","toString":"t"}}';
    const res = await send({ method: 'POST', path: `${NS}/secrets`, body });
    expect(res.status).toBe(201);
    const secret = JSON.parse(res.body.toString()) as { type: string; data: Record<string, string> };
    expect(secret.type).toBe('constructor');
    expect(Object.getOwnPropertyDescriptor(secret.data, '__proto__')?.value).toBe(Buffer.from('p').toString('base64'));
    expect(secret.data.toString).toBe(Buffer.from('t').toString('base64'));
  });

  test('nulls are what Go makes of them', async () => {
    const created = await send({ method: 'POST', path: CMS, body: cm({ name: 'nulls', labels: { a: null }, finalizers: null, annotations: null }, { data: { k: null } }) });
    expect(created.status).toBe(201);
    const obj = created.json();
    expect(obj.metadata.labels).toEqual({ a: '' });
    expect(obj.metadata.finalizers).toBeUndefined();
    expect(obj.data).toEqual({ k: '' });
  });
});
