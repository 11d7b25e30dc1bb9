// Binding pods to nodes (POST pods/<name>/binding and the namespace's bindings
// collection, as a scheduler does) and `kubectl get componentstatuses` through
// the real server: kube's answers for every refusal (a table), what a bind
// writes to the pod, hostile bodies, and the one truthful component row.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { protobufCodec } from '../../src/codecs/protobuf.js';
import { adminCredentials, call, type Answer, type Credentials } from './support/http.js';
import { kubectl, kubectlBinaries, ok } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']).filter((b) => b.name !== 'kubectl');
let server: RunningKapi;
let creds: Credentials;
const NS = 'bind';

beforeAll(async () => {
  server = await startKapi();
  creds = adminCredentials(server.kubeconfig);
  expect((await post(`/api/v1/namespaces`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status).toBe(201);
}, 60_000);
afterAll(async () => server?.stop());

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(server, creds, {
    method: 'POST',
    path,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

async function getPod(name: string): Promise<any> {
  const a = await call(server, creds, { path: `/api/v1/namespaces/${NS}/pods/${name}` });
  expect(a.status).toBe(200);
  return a.json();
}

async function makePod(name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Promise<any> {
  const a = await post(`/api/v1/namespaces/${NS}/pods`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...metadata },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
  });
  expect(a.status, a.body.toString()).toBe(201);
  return a.json();
}

function binding(name: string, target: Record<string, unknown> = { name: 'node-1' }, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Binding', metadata: { name, ...metadata }, target };
}

describe('binding a pod', () => {
  test('pods/<name>/binding sets the node, copies annotations and labels, marks the pod scheduled', async () => {
    await makePod('p1', {}, { labels: { app: 'a' } });
    const a = await post(`/api/v1/namespaces/${NS}/pods/p1/binding`, binding('p1', { kind: 'Node', apiVersion: 'v1', name: 'node-1' }, { annotations: { note: 'x' }, labels: { 'topology.kubernetes.io/zone': 'z1' } }));
    expect(a.status, a.body.toString()).toBe(201);
    expect(a.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const pod = await getPod('p1');
    expect(pod.spec.nodeName).toBe('node-1');
    expect(pod.metadata.annotations).toEqual({ note: 'x' });
    expect(pod.metadata.labels).toEqual({ app: 'a', 'topology.kubernetes.io/zone': 'z1' });
    expect(pod.status.conditions).toEqual([expect.objectContaining({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: expect.any(String) })]);
  });

  test('an Unschedulable PodScheduled condition the scheduler wrote is replaced by True, not kept beside it', async () => {
    await makePod('p-unsched');
    const put = await call(server, creds, {
      method: 'PATCH',
      path: `/api/v1/namespaces/${NS}/pods/p-unsched/status`,
      body: JSON.stringify({ status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', lastTransitionTime: '2026-01-01T00:00:00Z' }] } }),
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    expect(put.status, put.body.toString()).toBe(200);
    const a = await post(`/api/v1/namespaces/${NS}/pods/p-unsched/binding`, binding('p-unsched'));
    expect(a.status, a.body.toString()).toBe(201);
    const conditions = (await getPod('p-unsched')).status.conditions as { type: string; status: string; lastTransitionTime: string }[];
    expect(conditions.filter((c) => c.type === 'PodScheduled')).toEqual([expect.objectContaining({ status: 'True' })]);
    // The status changed, so the transition time moved.
    expect(conditions[0]!.lastTransitionTime).not.toBe('2026-01-01T00:00:00Z');
  });

  test('the bindings collection binds the pod its Binding names', async () => {
    await makePod('p2');
    const a = await post(`/api/v1/namespaces/${NS}/bindings`, binding('p2'));
    expect(a.status, a.body.toString()).toBe(201);
    expect((await getPod('p2')).spec.nodeName).toBe('node-1');
  });

  test('a protobuf Binding (as kube-scheduler sends it) binds, and the answer can be protobuf too', async () => {
    await makePod('p-pb');
    const body = protobufCodec.encode(binding('p-pb', { kind: 'Node', name: 'node-pb' }));
    const a = await call(server, creds, {
      method: 'POST',
      path: `/api/v1/namespaces/${NS}/pods/p-pb/binding`,
      body,
      headers: { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/vnd.kubernetes.protobuf, */*' },
    });
    expect(a.status, a.body.toString()).toBe(201);
    expect(protobufCodec.decode(a.body)).toMatchObject({ kind: 'Status', status: 'Success', code: 201 });
    expect((await getPod('p-pb')).spec.nodeName).toBe('node-pb');
  });

  test('dryRun=All answers success and leaves the pod unbound', async () => {
    await makePod('p-dry');
    const a = await post(`/api/v1/namespaces/${NS}/pods/p-dry/binding?dryRun=All`, binding('p-dry'));
    expect(a.status).toBe(201);
    expect((await getPod('p-dry')).spec.nodeName).toBeUndefined();
  });

  test('a matching resourceVersion and uid are preconditions that pass', async () => {
    const pod = await makePod('p-pre');
    const a = await post(`/api/v1/namespaces/${NS}/pods/p-pre/binding`, binding('p-pre', { name: 'n' }, { uid: pod.metadata.uid, resourceVersion: pod.metadata.resourceVersion }));
    expect(a.status, a.body.toString()).toBe(201);
  });

  test('status.nominatedNodeName is cleared', async () => {
    await makePod('p-nom');
    const put = await call(server, creds, {
      method: 'PATCH',
      path: `/api/v1/namespaces/${NS}/pods/p-nom/status`,
      body: JSON.stringify({ status: { nominatedNodeName: 'node-9' } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(put.status, put.body.toString()).toBe(200);
    expect((await post(`/api/v1/namespaces/${NS}/pods/p-nom/binding`, binding('p-nom'))).status).toBe(201);
    expect((await getPod('p-nom')).status.nominatedNodeName).toBeUndefined();
  });
});

interface Refusal {
  readonly name: string;
  /** Makes the pod (if any) and answers the POST. */
  readonly run: () => Promise<Answer>;
  readonly code: number;
  readonly reason: string;
  readonly message: string | RegExp;
  readonly causes?: readonly { field: string; reason: string }[];
}

const refusals: readonly Refusal[] = [
  {
    name: 'a pod already on a node',
    run: async () => {
      await makePod('r-assigned', { nodeName: 'node-0' });
      return post(`/api/v1/namespaces/${NS}/pods/r-assigned/binding`, binding('r-assigned'));
    },
    code: 409,
    reason: 'Conflict',
    message: 'Operation cannot be fulfilled on pods/binding "r-assigned": pod r-assigned is already assigned to node "node-0"',
  },
  {
    name: 'a second bind of the same pod',
    run: async () => {
      await makePod('r-twice');
      expect((await post(`/api/v1/namespaces/${NS}/pods/r-twice/binding`, binding('r-twice'))).status).toBe(201);
      return post(`/api/v1/namespaces/${NS}/pods/r-twice/binding`, binding('r-twice', { name: 'node-2' }));
    },
    code: 409,
    reason: 'Conflict',
    message: 'Operation cannot be fulfilled on pods/binding "r-twice": pod r-twice is already assigned to node "node-1"',
  },
  {
    name: 'a pod with scheduling gates',
    run: async () => {
      await makePod('r-gated', { schedulingGates: [{ name: 'wait' }] });
      return post(`/api/v1/namespaces/${NS}/pods/r-gated/binding`, binding('r-gated'));
    },
    code: 409,
    reason: 'Conflict',
    message: 'Operation cannot be fulfilled on pods/binding "r-gated": pod r-gated has non-empty .spec.schedulingGates',
  },
  {
    name: 'a pod being deleted (held by a finalizer)',
    run: async () => {
      await makePod('r-deleting', {}, { finalizers: ['example.com/hold'] });
      const del = await call(server, creds, { method: 'DELETE', path: `/api/v1/namespaces/${NS}/pods/r-deleting` });
      expect(del.status).toBe(200);
      return post(`/api/v1/namespaces/${NS}/pods/r-deleting/binding`, binding('r-deleting'));
    },
    code: 409,
    reason: 'Conflict',
    message: 'Operation cannot be fulfilled on pods/binding "r-deleting": pod r-deleting is being deleted, cannot be assigned to a host',
  },
  {
    name: 'a name that differs from the URL',
    run: async () => {
      await makePod('r-name');
      return post(`/api/v1/namespaces/${NS}/pods/r-name/binding`, binding('other'));
    },
    code: 400,
    reason: 'BadRequest',
    message: 'name in URL does not match name in Binding object',
  },
  {
    name: 'a missing pod',
    run: () => post(`/api/v1/namespaces/${NS}/pods/r-missing/binding`, binding('r-missing')),
    code: 404,
    reason: 'NotFound',
    message: 'pods "r-missing" not found',
  },
  {
    name: 'a missing pod through the bindings collection',
    run: () => post(`/api/v1/namespaces/${NS}/bindings`, binding('r-missing-2')),
    code: 404,
    reason: 'NotFound',
    message: 'pods "r-missing-2" not found',
  },
  {
    name: 'no target name',
    run: async () => {
      await makePod('r-target');
      return post(`/api/v1/namespaces/${NS}/pods/r-target/binding`, binding('r-target', {}));
    },
    code: 422,
    reason: 'Invalid',
    message: 'Binding "r-target" is invalid: target.name: Required value',
    causes: [{ field: 'target.name', reason: 'FieldValueRequired' }],
  },
  {
    name: 'a target that is not a Node',
    run: async () => {
      await makePod('r-kind');
      return post(`/api/v1/namespaces/${NS}/pods/r-kind/binding`, binding('r-kind', { kind: 'Pod', name: 'x' }));
    },
    code: 422,
    reason: 'Invalid',
    message: /^Binding "r-kind" is invalid: target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"$/,
    causes: [{ field: 'target.kind', reason: 'FieldValueNotSupported' }],
  },
  {
    name: 'a Binding without a name through the bindings collection',
    run: () => post(`/api/v1/namespaces/${NS}/bindings`, binding('')),
    code: 400,
    reason: 'BadRequest',
    message: 'Name parameter required.',
  },
  {
    name: 'a stale resourceVersion precondition',
    run: async () => {
      await makePod('r-rv');
      return post(`/api/v1/namespaces/${NS}/pods/r-rv/binding`, binding('r-rv', { name: 'n' }, { resourceVersion: '1' }));
    },
    code: 409,
    reason: 'Conflict',
    message: /^Operation cannot be fulfilled on pods "r-rv": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: \d+$/,
  },
  {
    name: 'another uid as precondition',
    run: async () => {
      await makePod('r-uid');
      return post(`/api/v1/namespaces/${NS}/pods/r-uid/binding`, binding('r-uid', { name: 'n' }, { uid: 'not-the-pod' }));
    },
    code: 409,
    reason: 'Conflict',
    message: /^Operation cannot be fulfilled on pods "r-uid": Precondition failed: UID in precondition: not-the-pod, UID in object meta: /,
  },
  {
    name: 'a Binding of another namespace',
    run: async () => {
      await makePod('r-ns');
      return post(`/api/v1/namespaces/${NS}/pods/r-ns/binding`, binding('r-ns', { name: 'n' }, { namespace: 'default' }));
    },
    code: 400,
    reason: 'BadRequest',
    message: 'the namespace of the provided object does not match the namespace sent on the request',
  },
  {
    name: 'malformed JSON',
    run: () => post(`/api/v1/namespaces/${NS}/pods/p1/binding`, '{"apiVersion":"v1","kind":"Binding",'),
    code: 400,
    reason: 'BadRequest',
    message: /^/,
  },
  {
    name: 'a target that is a string',
    run: () => post(`/api/v1/namespaces/${NS}/pods/p1/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p1' }, target: 'node-1' }),
    code: 400,
    reason: 'BadRequest',
    message: /cannot be handled as a Binding/,
  },
  {
    name: 'a body of another kind',
    run: () => post(`/api/v1/namespaces/${NS}/pods/p1/binding`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1' } }),
    code: 400,
    reason: 'BadRequest',
    message: /Binding/,
  },
  {
    name: 'a body over 3 MiB',
    run: () => post(`/api/v1/namespaces/${NS}/pods/p1/binding`, binding('p1', { name: 'x'.repeat(3 * 1024 * 1024) })),
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: /^/,
  },
  {
    name: 'a GET of the bindings collection',
    run: () => call(server, creds, { path: `/api/v1/namespaces/${NS}/bindings` }),
    code: 405,
    reason: 'MethodNotAllowed',
    message: /^/,
  },
];

describe('refusals answer kube-apiserver\'s Status', () => {
  for (const r of refusals) {
    test(r.name, async () => {
      const a = await r.run();
      expect(a.status, a.body.toString().slice(0, 500)).toBe(r.code);
      const status = a.json();
      expect(status).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: r.reason, code: r.code });
      if (typeof r.message === 'string') expect(status.message).toBe(r.message);
      else expect(status.message).toMatch(r.message);
      if (r.causes !== undefined) expect(status.details.causes.map((c: { field: string; reason: string }) => ({ field: c.field, reason: c.reason }))).toEqual(r.causes);
    });
  }

  test('a refused bind leaves the pod as it was', async () => {
    const pod = await getPod('r-gated');
    expect(pod.spec.nodeName).toBeUndefined();
    expect(pod.status.conditions ?? []).not.toContainEqual(expect.objectContaining({ type: 'PodScheduled', status: 'True' }));
  });
});

describe('hostile Binding bodies', () => {
  test('prototype-named annotation keys are data: constructor and toString are stored, __proto__ is refused', async () => {
    await makePod('h-proto');
    const refused = await post(
      `/api/v1/namespaces/${NS}/pods/h-proto/binding`,
      `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"h-proto","annotations":{"__proto__":"x"}},"target":{"name":"node-1"}}`,
    );
    expect(refused.status, refused.body.toString()).toBe(422);
    expect(refused.json()).toMatchObject({ reason: 'Invalid', details: { causes: [expect.objectContaining({ field: 'metadata.annotations' })] } });
    expect((await getPod('h-proto')).spec.nodeName).toBeUndefined();

    const a = await post(
      `/api/v1/namespaces/${NS}/pods/h-proto/binding`,
      `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"h-proto","annotations":{"constructor":"y","toString":"z"}},"target":{"name":"node-1"}}`,
    );
    expect(a.status, a.body.toString()).toBe(201);
    const pod = await getPod('h-proto');
    expect(pod.metadata.annotations).toEqual({ constructor: 'y', toString: 'z' });
    expect(pod.spec.nodeName).toBe('node-1');
  });

  test('deeply nested input is refused at decode', async () => {
    const deep = `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"p1"},"target":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
    const a = await post(`/api/v1/namespaces/${NS}/pods/p1/binding`, deep);
    expect(a.status).toBe(400);
    expect(a.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
  });

  test('an anonymous client is refused', async () => {
    const a = await call(server, { ca: creds.ca }, {
      method: 'POST',
      path: `/api/v1/namespaces/${NS}/pods/p1/binding`,
      body: JSON.stringify(binding('p1')),
      headers: { 'content-type': 'application/json' },
    });
    expect([401, 403]).toContain(a.status);
    expect(a.json()).toMatchObject({ kind: 'Status', status: 'Failure' });
    expect((await getPod('p1')).spec.nodeName).toBe('node-1');
  });
});

describe('componentstatuses', () => {
  test('list answers the storage backend only, with the deprecation warning', async () => {
    const a = await call(server, creds, { path: '/api/v1/componentstatuses' });
    expect(a.status).toBe(200);
    expect(a.headers.warning).toBe('299 - "v1 ComponentStatus is deprecated in v1.19+"');
    expect(a.json()).toEqual({
      kind: 'ComponentStatusList',
      apiVersion: 'v1',
      metadata: {},
      items: [{ kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'sqlite-0' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] }],
    });
  });

  test('get of a component that is not there is 404', async () => {
    const a = await call(server, creds, { path: '/api/v1/componentstatuses/scheduler' });
    expect(a.status).toBe(404);
    expect(a.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'componentstatuses "scheduler" not found' });
  });

  test('writes are not served', async () => {
    const a = await post('/api/v1/componentstatuses', { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'scheduler' } });
    expect(a.status).toBe(405);
    expect(a.json()).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed' });
  });

  for (const binary of binaries) {
    test(`${binary.name} get cs prints NAME STATUS MESSAGE ERROR and the warning`, () => {
      const k = kubectl(binary, server.kubeconfig);
      const res = k.run(['get', 'cs']);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain('Warning: v1 ComponentStatus is deprecated in v1.19+');
      const lines = res.stdout.trim().split('\n');
      expect(lines[0]!.split(/\s+/)).toEqual(['NAME', 'STATUS', 'MESSAGE', 'ERROR']);
      expect(lines.slice(1).map((l) => l.trim().split(/\s+/))).toEqual([['sqlite-0', 'Healthy', 'ok']]);
      expect(ok(k, ['get', 'componentstatus', 'sqlite-0', '-o', 'jsonpath={.conditions[0].status}'])).toBe('True');
    });

    test(`${binary.name} binds a pod with create -f of a Binding`, () => {
      const k = kubectl(binary, server.kubeconfig);
      const name = `k-${binary.name.replace(/\W/g, '')}`;
      ok(k, ['-n', NS, 'run', name, '--image=nginx']);
      const out = ok(k, ['-n', NS, 'create', '-f', '-'], JSON.stringify(binding(name, { name: 'node-7' })));
      expect(out).toMatch(/created/);
      expect(ok(k, ['-n', NS, 'get', 'pod', name, '-o', 'jsonpath={.spec.nodeName}'])).toBe('node-7');
    });
  }
});
