// pods/ephemeralcontainers and pods/resize through the real server: discovery and
// OpenAPI list them, `kubectl debug` (1.27, 1.33 and the default kubectl) adds an
// ephemeral container, `kubectl patch --subresource resize` moves cpu and memory,
// refusals carry kube's causes and leave the pod as it was, hostile and anonymous
// requests are answered without harm, and what was written survives a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminCredentials, call, type Answer, type Credentials } from './support/http.js';
import { kubectl, kubectlBinaries, ok } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
let dataDir: string;
let server: RunningKapi;
let creds: Credentials;
const NS = 'debug';
const PODS = `/api/v1/namespaces/${NS}/pods`;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kapi-debug-resize-'));
  server = await startKapi({ dataDir });
  creds = adminCredentials(server.kubeconfig);
  expect((await send('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function send(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Answer> {
  return call(server, creds, {
    method,
    path,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    headers: { 'content-type': contentType, accept: 'application/json' },
  });
}

const burstable = { name: 'c', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } } };

async function makePod(name: string, containers: object[] = [burstable]): Promise<any> {
  const a = await send('POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers } });
  expect(a.status, a.body.toString()).toBe(201);
  return a.json();
}

async function stored(name: string): Promise<any> {
  const a = await send('GET', `${PODS}/${name}`);
  expect(a.status).toBe(200);
  return a.json();
}

describe('discovery and OpenAPI', () => {
  test('both subresources are listed as Pod, get/patch/update', async () => {
    const rows = (await send('GET', '/api/v1')).json().resources.filter((r: { name: string }) => r.name === 'pods/ephemeralcontainers' || r.name === 'pods/resize');
    expect(rows.map((r: { name: string }) => r.name).sort()).toEqual(['pods/ephemeralcontainers', 'pods/resize']);
    for (const row of rows) expect(row).toMatchObject({ namespaced: true, kind: 'Pod', verbs: ['get', 'patch', 'update'] });
  });

  test('OpenAPI v2 has their paths', async () => {
    const paths = Object.keys((await send('GET', '/openapi/v2')).json().paths);
    expect(paths).toContain('/api/v1/namespaces/{namespace}/pods/{name}/ephemeralcontainers');
    expect(paths).toContain('/api/v1/namespaces/{namespace}/pods/{name}/resize');
  });
});

describe('kubectl debug adds an ephemeral container', () => {
  for (const binary of binaries) {
    test(`${binary.name}`, async () => {
      const name = `dbg-${binary.name.replace(/\W/g, '-')}`;
      await makePod(name);
      const k = kubectl(binary, server.kubeconfig);
      const out = ok(k, ['-n', NS, 'debug', name, '--image=busybox', '-c', 'debugger']);
      expect(out).not.toContain('disabled');
      const pod = await stored(name);
      expect(pod.metadata.generation).toBe(2);
      expect(pod.spec.ephemeralContainers).toEqual([
        expect.objectContaining({ name: 'debugger', image: 'busybox', terminationMessagePolicy: 'File', terminationMessagePath: '/dev/termination-log', imagePullPolicy: 'Always' }),
      ]);
      // A second one joins the first, aimed at the pod's container.
      expect(ok(k, ['-n', NS, 'debug', name, '--image=alpine', '-c', 'second', '--target=c'])).toContain('Targeting container "c"');
      const two = await stored(name);
      expect(two.metadata.generation).toBe(3);
      expect(two.spec.ephemeralContainers.map((c: { name: string }) => c.name)).toEqual(['debugger', 'second']);
      expect(two.spec.ephemeralContainers[1].targetContainerName).toBe('c');
      const target = k.run(['-n', NS, 'debug', name, '--image=busybox', '--target=nope']);
      expect(target.code).not.toBe(0);
      expect(target.stderr).toMatch(/spec\.ephemeralContainers\[2\]\.targetContainerName: Not found: "nope"/);
      expect(await stored(name)).toEqual(two);
    });
  }
});

describe('pods/ephemeralcontainers over HTTP', () => {
  test('GET answers the pod; a PUT that removes one is refused and stores nothing', async () => {
    await makePod('eph');
    const sub = `${PODS}/eph/ephemeralcontainers`;
    const got = await send('GET', sub);
    expect(got.status).toBe(200);
    expect(got.json()).toMatchObject({ kind: 'Pod', apiVersion: 'v1', metadata: { name: 'eph' } });
    const patched = await send('PATCH', sub, { spec: { ephemeralContainers: [{ name: 'one', image: 'busybox' }] } }, 'application/strategic-merge-patch+json');
    expect(patched.status, patched.body.toString()).toBe(200);
    const before = patched.json();
    const removed = await send('PUT', sub, { ...before, spec: { ...before.spec, ephemeralContainers: [] } });
    expect(removed.status).toBe(422);
    expect(removed.json()).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      details: { name: 'eph', kind: 'Pod', causes: [{ reason: 'FieldValueForbidden', field: 'spec.ephemeralContainers', message: 'Forbidden: existing ephemeral containers "one" may not be removed\n' }] },
    });
    expect(await stored('eph')).toEqual(before);
    // A stale resourceVersion is a conflict, as on any update.
    const stale = await send('PUT', sub, { ...before, metadata: { ...before.metadata, resourceVersion: '1' } });
    expect(stale.status).toBe(409);
  });

  test('hostile input: malformed, deeply nested, prototype-named, oversized, anonymous', async () => {
    await makePod('hostile');
    const sub = `${PODS}/hostile/ephemeralcontainers`;
    const smp = 'application/strategic-merge-patch+json';
    expect((await send('PATCH', sub, '{"spec":', smp)).status).toBe(400);
    const deep = await send('PATCH', sub, `{"spec":{"ephemeralContainers":[${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}]}}`, smp);
    expect(deep.status).toBe(400);
    expect(deep.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    const big = await send('PATCH', sub, JSON.stringify({ spec: { ephemeralContainers: [{ name: 'big', image: 'x'.repeat(4 * 1024 * 1024) }] } }), smp);
    expect(big.status).toBe(413);
    const proto = await send('PATCH', sub, '{"__proto__":{"polluted":1},"spec":{"ephemeralContainers":[{"name":"__proto__","image":"busybox","constructor":{"x":1}}]}}', smp);
    expect(proto.status, proto.body.toString()).toBe(422);
    expect(proto.json().details.causes[0]).toMatchObject({ field: 'spec.ephemeralContainers[0].name' });
    const anonymous = await call(server, { ca: creds.ca }, { method: 'PATCH', path: sub, body: '{"spec":{"ephemeralContainers":[{"name":"a","image":"b"}]}}', headers: { 'content-type': smp } });
    expect([401, 403]).toContain(anonymous.status);
    const pod = await stored('hostile');
    expect(pod.spec.ephemeralContainers).toBeUndefined();
    expect(pod.metadata.generation).toBe(1);
  });
});

describe('pods/resize', () => {
  const smp = 'application/strategic-merge-patch+json';
  const resize = (name: string, resources: object, type = smp) => send('PATCH', `${PODS}/${name}/resize`, { spec: { containers: [{ name: 'c', resources }] } }, type);

  test('cpu and memory move; generation follows; a spec change outside them is dropped', async () => {
    await makePod('rz');
    const a = await send('PATCH', `${PODS}/rz/resize`, { spec: { containers: [{ name: 'c', image: 'ignored', resources: { requests: { cpu: '150m' }, limits: { memory: '256Mi' } } }] } }, smp);
    expect(a.status, a.body.toString()).toBe(200);
    const pod = await stored('rz');
    expect(pod).toEqual(a.json());
    expect(pod.spec.containers[0]).toMatchObject({ image: 'nginx', resources: { requests: { cpu: '150m', memory: '64Mi' }, limits: { cpu: '200m', memory: '256Mi' } } });
    expect(pod.metadata.generation).toBe(2);
  });

  test('refusals: QoS change, a removed limit, a resource other than cpu and memory', async () => {
    await makePod('rz-refused');
    const before = await stored('rz-refused');
    const qos = await resize('rz-refused', { limits: { cpu: '100m', memory: '64Mi' } });
    expect(qos.status).toBe(422);
    expect(qos.json().message).toBe('Pod "rz-refused" is invalid: spec: Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing');
    const removed = await resize('rz-refused', { limits: { memory: null } });
    expect(removed.status).toBe(422);
    expect(removed.json().details.causes).toEqual([{ reason: 'FieldValueForbidden', field: 'spec.containers[0].resources.limits', message: 'Forbidden: resource limits cannot be removed' }]);
    const storage = await resize('rz-refused', { limits: { 'ephemeral-storage': '1Gi' } });
    expect(storage.status).toBe(422);
    expect(storage.json().details.causes).toEqual([{ reason: 'FieldValueForbidden', field: 'spec', message: 'Forbidden: only cpu and memory resources are mutable' }]);
    expect(await stored('rz-refused')).toEqual(before);
  });

  test('a bound pod must fit its node (PodResizeValidator): 403 with kube\'s text and cause', async () => {
    const node = (name: string, labels: Record<string, string>) => send('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name, labels } });
    expect((await node('small', { 'kubernetes.io/os': 'linux' })).status).toBe(201);
    const withStatus = (await send('GET', '/api/v1/nodes/small')).json();
    withStatus.status = { allocatable: { cpu: '1', memory: '1Gi' } };
    expect((await send('PUT', '/api/v1/nodes/small/status', withStatus)).status).toBe(200);
    expect((await node('win', { 'kubernetes.io/os': 'windows' })).status).toBe(201);
    const bound = async (name: string, nodeName: string) => {
      const a = await send('POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName, containers: [burstable] } });
      expect(a.status, a.body.toString()).toBe(201);
    };
    await bound('fits', 'small');
    expect((await resize('fits', { requests: { cpu: '150m' } })).status).toBe(200);
    const tooBig = await resize('fits', { requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '3', memory: '3Gi' } });
    expect(tooBig.status).toBe(403);
    expect(tooBig.json()).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: `pods "fits" is forbidden: node didn't have enough allocatable resources: cpu, requested: 2000, allocatable: 1000; memory, requested: ${2 * 2 ** 30}, allocatable: ${2 ** 30}`,
      details: { name: 'fits', kind: 'pods', causes: [{ reason: 'NodeCapacity' }] },
    });
    expect((await stored('fits')).spec.containers[0].resources.requests.cpu).toBe('150m');
    await bound('on-windows', 'win');
    const win = await resize('on-windows', { requests: { cpu: '150m' } });
    expect(win.status).toBe(403);
    expect(win.json()).toMatchObject({ message: 'pods "on-windows" is forbidden: pod resize is only supported on linux nodes, node "win" is "windows"', details: { causes: [{ reason: 'UnsupportedPlatform' }] } });
    await bound('on-ghost', 'ghost');
    const ghost = await resize('on-ghost', { requests: { cpu: '150m' } });
    expect(ghost.status).toBe(403);
    expect(ghost.json().message).toBe('pods "on-ghost" is forbidden: node "ghost" not found');
    // A resize that changes nothing does not move generation, and needs no node.
    expect((await resize('on-ghost', { requests: { cpu: '100m' } })).status).toBe(200);
  });

  test('kubectl 1.33 patch --subresource resize', async () => {
    const binary = binaries.find((b) => b.name === 'kubectl.1.33');
    if (binary === undefined) return;
    await makePod('rz-kubectl');
    const k = kubectl(binary, server.kubeconfig);
    const patch = JSON.stringify({ spec: { containers: [{ name: 'c', resources: { requests: { cpu: '120m' } } }] } });
    expect(ok(k, ['-n', NS, 'patch', 'pod', 'rz-kubectl', '--subresource', 'resize', '-p', patch])).toContain('pod/rz-kubectl patched');
    expect(ok(k, ['-n', NS, 'patch', 'pod', 'rz-kubectl', '--subresource', 'resize', '-p', patch])).toContain('pod/rz-kubectl patched (no change)');
    expect((await stored('rz-kubectl')).spec.containers[0].resources.requests.cpu).toBe('120m');
  });
});

describe('restart', () => {
  test('ephemeral containers and resized resources are read back after a restart on the same data', async () => {
    const pod = await makePod('kept');
    expect((await send('PATCH', `${PODS}/kept/ephemeralcontainers`, { spec: { ephemeralContainers: [{ name: 'dbg', image: 'busybox' }] } }, 'application/strategic-merge-patch+json')).status).toBe(200);
    expect((await send('PATCH', `${PODS}/kept/resize`, { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '110m' } } }] } }, 'application/strategic-merge-patch+json')).status).toBe(200);
    const before = await stored('kept');
    expect(before.metadata.generation).toBe(pod.metadata.generation + 2);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    server = await startKapi({ dataDir });
    creds = adminCredentials(server.kubeconfig);
    expect(await stored('kept')).toEqual(before);
    // The restarted server still refuses a removal.
    const removed = await send('PUT', `${PODS}/kept/ephemeralcontainers`, { ...before, spec: { ...before.spec, ephemeralContainers: [] } });
    expect(removed.status).toBe(422);
  }, 60_000);
});
