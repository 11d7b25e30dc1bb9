// Objects stored by an earlier kapi, which kept quantities and times as clients
// sent them ("1000m" where kube writes "1"): after a restart on the same data they
// are answered as stored, and writes that change none of their immutable fields
// still go through — `kubectl label` (a patch whose result now carries "1") and a
// PUT of what a GET answered — instead of a pod's "may not change fields".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { KubeObject } from '../../src/schema/object.js';
import { createObjectStore } from '../../src/storage/object-store.js';
import { openSqliteKv } from '../../src/storage/sqlite/index.js';
import { adminCredentials, call, type Credentials } from './support/http.js';
import { kubectl, kubectlBinaries, ok } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

let dataDir: string;
let server: RunningKapi;
let creds: Credentials;
const POD = '/api/v1/namespaces/default/pods/old';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kapi-stored-before-'));
  const first = await startKapi({ dataDir });
  const admin = adminCredentials(first.kubeconfig);
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'old' }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '1' } } }] } };
  const created = await call(first, admin, { method: 'POST', path: '/api/v1/namespaces/default/pods', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  expect(created.status, created.body.toString()).toBe(201);
  expect(await first.stop()).toEqual({ code: 0, signal: null });

  // What an earlier kapi stored for `cpu: 1000m`: the text as sent.
  const kv = openSqliteKv({ path: join(dataDir, 'kapi.db') });
  const storage = createObjectStore({ kv });
  await storage.guaranteedUpdate('/pods/default/old', {
    tryUpdate: ({ current }) => {
      const pod = structuredClone(current!) as KubeObject & { spec: { containers: { resources: { limits: Record<string, string>; requests?: Record<string, string> } }[] } };
      pod.spec.containers[0]!.resources = { limits: { cpu: '1000m' }, requests: { cpu: '1000m' } };
      return pod;
    },
  });
  await kv.close();

  server = await startKapi({ dataDir });
  creds = adminCredentials(server.kubeconfig);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('the stored text is answered as stored', async () => {
  const a = await call(server, creds, { path: POD });
  expect(a.json().spec.containers[0].resources).toEqual({ limits: { cpu: '1000m' }, requests: { cpu: '1000m' } });
});

test('kubectl label and a PUT of the answer go through, and the object is then in kube\'s form', async () => {
  const [binary] = kubectlBinaries([]);
  if (binary !== undefined) ok(kubectl(binary, server.kubeconfig), ['label', 'pod', 'old', 'relabelled=yes']);
  else {
    const patched = await call(server, creds, { method: 'PATCH', path: POD, body: '{"metadata":{"labels":{"relabelled":"yes"}}}', headers: { 'content-type': 'application/merge-patch+json' } });
    expect(patched.status, patched.body.toString()).toBe(200);
  }
  const labelled = (await call(server, creds, { path: POD })).json();
  expect(labelled.metadata.labels).toEqual({ relabelled: 'yes' });
  expect(labelled.spec.containers[0].resources).toEqual({ limits: { cpu: '1' }, requests: { cpu: '1' } });

  const put = await call(server, creds, { method: 'PUT', path: POD, body: JSON.stringify({ ...labelled, metadata: { ...labelled.metadata, annotations: { a: 'b' } } }), headers: { 'content-type': 'application/json' } });
  expect(put.status, put.body.toString()).toBe(200);
  // A real change of an immutable field is still refused.
  const changed = structuredClone(labelled);
  changed.metadata.resourceVersion = put.json().metadata.resourceVersion;
  changed.spec.containers[0].resources.limits.cpu = '2';
  const refused = await call(server, creds, { method: 'PUT', path: POD, body: JSON.stringify(changed), headers: { 'content-type': 'application/json' } });
  expect(refused.status).toBe(422);
  expect(refused.json().message).toContain('pod updates may not change fields other than');
});
