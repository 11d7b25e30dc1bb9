// Subresources through HTTP, routed from the core/v1 declarations: GET and PUT of
// status and scale, /finalize, 404 for undeclared ones, 405 for undeclared verbs,
// and the namespace DELETE lifecycle (Terminating, 409 while finalizers remain,
// gone once /finalize empties them).
import fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { builtinResources } from '../../src/apis/index.js';
import { installResources } from '../../src/endpoints/installer.js';
import { encodeStatusFor } from '../../src/endpoints/negotiation.js';
import { resolveRequestInfo } from '../../src/endpoints/request-info.js';
import { StatusError, internal, isStatusError } from '../../src/errors/status-error.js';
import { createRegistry } from '../../src/registry/registry.js';
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import type { Storage } from '../../src/storage/storage.js';
import { ADMIN, NOW } from './harness.js';

const PODS = '/api/v1/namespaces/default/pods';
const RCS = '/api/v1/namespaces/default/replicationcontrollers';
const NS = '/api/v1/namespaces';

let app: FastifyInstance;
let storage: Storage;

/** The endpoint harness's shape over the built-in kinds (harness.ts serves the example group only). */
beforeEach(async () => {
  storage = createObjectStore({ kv: openMemoryKv() });
  let uid = 0;
  const registry = createRegistry({ storage, resources: builtinResources, admission: createAdmissionChain(), clock: () => NOW, uid: () => `uid-${++uid}` });
  await registry.store({ group: '', version: 'v1', resource: 'namespaces' }).create({ metadata: { name: 'default' } });
  app = fastify();
  app.addHook('onRequest', async (request) => {
    request.kapi = { info: resolveRequestInfo(request.method, request.url), user: ADMIN, auditId: 'test', warnings: [] };
  });
  app.setErrorHandler((err, request, reply) => {
    const status = isStatusError(err) ? err : internal(err);
    const encoded = encodeStatusFor(request, status.toStatus());
    return reply.code(status.code).header('Content-Type', encoded.contentType).send(encoded.body);
  });
  app.setNotFoundHandler((request, reply) => {
    const status = new StatusError({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} });
    return reply.code(404).header('Content-Type', 'application/json').send(JSON.stringify(status.toStatus()));
  });
  installResources(app, { registry });
  await app.ready();
});
afterEach(async () => {
  await app.close();
  await storage.close();
});

async function call(method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH', url: string, payload?: object) {
  const res = await app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
  return { code: res.statusCode, body: res.body === '' ? undefined : res.json() };
}

const pod = { metadata: { name: 'p', labels: { app: 'p' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
const rc = {
  metadata: { name: 'r' },
  spec: { replicas: 1, selector: { app: 'r', tier: 'web' }, template: { metadata: { labels: { app: 'r', tier: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
};

describe('routing of subresources', () => {
  beforeEach(async () => {
    expect((await call('POST', PODS, pod)).code).toBe(201);
    expect((await call('POST', RCS, rc)).code).toBe(201);
  });
  const cases: { name: string; method: 'GET' | 'PUT' | 'POST' | 'DELETE'; url: string; want: { code: number; reason?: string } }[] = [
    { name: 'GET pods/status', method: 'GET', url: `${PODS}/p/status`, want: { code: 200 } },
    { name: 'GET replicationcontrollers/scale', method: 'GET', url: `${RCS}/r/scale`, want: { code: 200 } },
    { name: 'GET of an undeclared subresource', method: 'GET', url: `${PODS}/p/scale`, want: { code: 404, reason: 'NotFound' } },
    { name: 'DELETE pods/status (undeclared verb)', method: 'DELETE', url: `${PODS}/p/status`, want: { code: 405, reason: 'MethodNotAllowed' } },
    { name: 'POST pods/status (undeclared verb)', method: 'POST', url: `${PODS}/p/status`, want: { code: 405, reason: 'MethodNotAllowed' } },
    { name: 'GET namespaces/finalize (update only)', method: 'GET', url: `${NS}/default/finalize`, want: { code: 405, reason: 'MethodNotAllowed' } },
    { name: 'GET status of a missing pod', method: 'GET', url: `${PODS}/nope/status`, want: { code: 404, reason: 'NotFound' } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await call(c.method, c.url, c.method === 'GET' || c.method === 'DELETE' ? undefined : { metadata: { name: 'p' } });
      expect(res.code).toBe(c.want.code);
      if (c.want.reason !== undefined) expect(res.body.reason).toBe(c.want.reason);
    });
  }
});

describe('status', () => {
  test('GET answers the pod; PUT replaces status only', async () => {
    await call('POST', PODS, pod);
    const got = await call('GET', `${PODS}/p/status`);
    expect(got.body).toEqual((await call('GET', `${PODS}/p`)).body);
    const body = { ...got.body, metadata: { ...got.body.metadata, labels: { changed: 'yes' } }, spec: { ...got.body.spec, activeDeadlineSeconds: 5 }, status: { phase: 'Running' } };
    const put = await call('PUT', `${PODS}/p/status`, body);
    expect(put.code).toBe(200);
    expect(put.body.status).toEqual({ phase: 'Running' });
    const stored = (await call('GET', `${PODS}/p`)).body;
    expect(stored.status).toEqual({ phase: 'Running' });
    expect(stored.metadata.labels).toEqual({ app: 'p' });
    expect(stored.spec.activeDeadlineSeconds).toBeUndefined();
    expect(stored.metadata.resourceVersion).toBe(put.body.metadata.resourceVersion);
  });

  test('PUT with a stale resourceVersion is 409 and writes nothing', async () => {
    await call('POST', PODS, pod);
    const got = (await call('GET', `${PODS}/p/status`)).body;
    await call('PUT', `${PODS}/p/status`, { ...got, status: { phase: 'Running' } });
    const stale = await call('PUT', `${PODS}/p/status`, { ...got, status: { phase: 'Failed' } });
    expect(stale.code).toBe(409);
    expect(stale.body.message).toBe('Operation cannot be fulfilled on pods "p": the object has been modified; please apply your changes to the latest version and try again');
    expect((await call('GET', `${PODS}/p`)).body.status).toEqual({ phase: 'Running' });
  });

  test('namespaces/status: the phase must follow deletionTimestamp', async () => {
    const ns = (await call('GET', `${NS}/default/status`)).body;
    const res = await call('PUT', `${NS}/default/status`, { ...ns, status: { phase: 'Terminating' } });
    expect(res.code).toBe(422);
    expect(res.body.message).toBe('Namespace "default" is invalid: status.Phase: Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty');
  });
});

describe('scale', () => {
  beforeEach(async () => {
    await call('POST', RCS, rc);
  });

  test('GET answers an autoscaling/v1 Scale', async () => {
    const stored = (await call('GET', `${RCS}/r`)).body;
    expect((await call('GET', `${RCS}/r/scale`)).body).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'r', namespace: 'default', uid: stored.metadata.uid, resourceVersion: stored.metadata.resourceVersion, creationTimestamp: stored.metadata.creationTimestamp },
      spec: { replicas: 1 },
      status: { replicas: 0, selector: 'app=r,tier=web' },
    });
  });

  test('PUT sets spec.replicas and bumps generation; answers the Scale', async () => {
    const scale = (await call('GET', `${RCS}/r/scale`)).body;
    const put = await call('PUT', `${RCS}/r/scale`, { ...scale, spec: { replicas: 3 } });
    expect(put.code).toBe(200);
    expect(put.body).toMatchObject({ kind: 'Scale', spec: { replicas: 3 }, status: { replicas: 0 } });
    const stored = (await call('GET', `${RCS}/r`)).body;
    expect(stored.spec.replicas).toBe(3);
    expect(stored.metadata.generation).toBe(2);
    expect(stored.metadata.resourceVersion).toBe(put.body.metadata.resourceVersion);
  });

  const failures: { name: string; body: (scale: any) => object; want: { code: number; message: string } }[] = [
    {
      name: 'a wrong kind',
      body: (s) => ({ ...s, kind: 'ReplicationController', apiVersion: 'v1' }),
      want: { code: 400, message: 'the API version in the data (v1) does not match the expected API version (autoscaling/v1)' },
    },
    {
      name: 'negative replicas',
      body: (s) => ({ ...s, spec: { replicas: -1 } }),
      want: { code: 422, message: 'Scale.autoscaling "r" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0' },
    },
    {
      name: 'a stale resourceVersion',
      body: (s) => ({ ...s, metadata: { ...s.metadata, resourceVersion: '1' }, spec: { replicas: 2 } }),
      want: { code: 409, message: 'Operation cannot be fulfilled on replicationcontrollers "r": the object has been modified; please apply your changes to the latest version and try again' },
    },
  ];
  for (const c of failures) {
    test(`PUT refuses ${c.name}`, async () => {
      const scale = (await call('GET', `${RCS}/r/scale`)).body;
      const res = await call('PUT', `${RCS}/r/scale`, c.body(scale));
      expect({ code: res.code, message: res.body.message }).toEqual(c.want);
      expect((await call('GET', `${RCS}/r`)).body.spec.replicas).toBe(1);
    });
  }
});

describe('PATCH of subresources (the patch handler over the subresource view)', () => {
  async function patch(url: string, body: object, type = 'application/merge-patch+json') {
    const res = await app.inject({ method: 'PATCH', url, headers: { 'content-type': type }, payload: JSON.stringify(body) });
    return { code: res.statusCode, body: res.json() };
  }
  const cases: { name: string; url: string; body: object; type?: string; want: { code: number; check: (r: any) => void } }[] = [
    {
      name: 'merge patch of scale sets spec.replicas and answers a Scale',
      url: `${RCS}/r/scale`,
      body: { spec: { replicas: 4 } },
      want: { code: 200, check: (r) => expect(r).toMatchObject({ kind: 'Scale', spec: { replicas: 4 } }) },
    },
    {
      name: 'strategic merge patch of scale uses the Scale kind',
      url: `${RCS}/r/scale`,
      body: { spec: { replicas: 2 } },
      type: 'application/strategic-merge-patch+json',
      want: { code: 200, check: (r) => expect(r).toMatchObject({ kind: 'Scale', spec: { replicas: 2 } }) },
    },
    {
      name: 'merge patch of pods/status changes status only',
      url: `${PODS}/p/status`,
      body: { status: { phase: 'Running' }, spec: { activeDeadlineSeconds: 5 } },
      want: { code: 200, check: (r) => expect([r.status.phase, r.spec.activeDeadlineSeconds]).toEqual(['Running', undefined]) },
    },
    {
      name: 'a stale resourceVersion in the patch is 409',
      url: `${PODS}/p/status`,
      body: { metadata: { resourceVersion: '1' }, status: { phase: 'Running' } },
      want: { code: 409, check: (r) => expect(r.reason).toBe('Conflict') },
    },
    {
      name: 'PATCH of namespaces/finalize is not declared',
      url: `${NS}/default/finalize`,
      body: { spec: { finalizers: [] } },
      want: { code: 405, check: (r) => expect(r.reason).toBe('MethodNotAllowed') },
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      await call('POST', PODS, pod);
      await call('POST', RCS, rc);
      const res = await patch(c.url, c.body, c.type);
      expect(res.code).toBe(c.want.code);
      c.want.check(res.body);
    });
  }
  test('the patched scale is stored with a generation bump', async () => {
    await call('POST', RCS, rc);
    await patch(`${RCS}/r/scale`, { spec: { replicas: 4 } });
    const stored = (await call('GET', `${RCS}/r`)).body;
    expect([stored.spec.replicas, stored.metadata.generation]).toEqual([4, 2]);
  });
});

describe('namespace deletion', () => {
  beforeEach(async () => {
    expect((await call('POST', NS, { metadata: { name: 'team-x' } })).code).toBe(201);
  });

  test('DELETE marks Terminating; DELETE again is 409; /finalize with no finalizers removes it', async () => {
    const first = await call('DELETE', `${NS}/team-x`);
    expect(first.code).toBe(200);
    expect(first.body).toMatchObject({ kind: 'Namespace', metadata: { name: 'team-x', deletionTimestamp: '2026-01-02T03:04:05Z' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating' } });
    expect((await call('GET', `${NS}/team-x`)).body.status.phase).toBe('Terminating');

    const again = await call('DELETE', `${NS}/team-x`);
    expect(again.code).toBe(409);
    expect(again.body).toMatchObject({
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on namespaces "team-x": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
    });

    const current = (await call('GET', `${NS}/team-x`)).body;
    const fin = await call('PUT', `${NS}/team-x/finalize`, { ...current, spec: { finalizers: [] } });
    expect(fin.code).toBe(200);
    expect(fin.body.metadata.name).toBe('team-x');
    expect((await call('GET', `${NS}/team-x`)).code).toBe(404);
  });

  test('/finalize changes only spec.finalizers (and validates them)', async () => {
    const current = (await call('GET', `${NS}/team-x`)).body;
    const bad = await call('PUT', `${NS}/team-x/finalize`, { ...current, spec: { finalizers: ['kubernetes', 'nonstandard'] } });
    expect(bad.code).toBe(422);
    const ok = await call('PUT', `${NS}/team-x/finalize`, { ...current, metadata: { ...current.metadata, labels: { x: 'y' } }, spec: { finalizers: ['kubernetes', 'example.com/mine'] }, status: { phase: 'Terminating' } });
    expect(ok.code).toBe(200);
    const stored = (await call('GET', `${NS}/team-x`)).body;
    expect(stored.spec.finalizers).toEqual(['kubernetes', 'example.com/mine']);
    expect(stored.status.phase).toBe('Active');
    expect(stored.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-x' });
  });

  test('creating content in a Terminating namespace is Forbidden', async () => {
    await call('DELETE', `${NS}/team-x`);
    const res = await call('POST', '/api/v1/namespaces/team-x/configmaps', { metadata: { name: 'c' } });
    expect(res.code).toBe(403);
    expect(res.body.message).toBe('configmaps "c" is forbidden: unable to create new content in namespace team-x because it is being terminated');
  });
});
