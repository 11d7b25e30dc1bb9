// @kubernetes/client-node against the real server: the typed client a Node
// operator would use, with the admin kubeconfig kapi writes.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiException, CoreV1Api, KubeConfig, AuthenticationV1Api } from '@kubernetes/client-node';
import { startKapi, type RunningKapi } from './support/server.js';

let server: RunningKapi;
let core: CoreV1Api;
let authn: AuthenticationV1Api;

beforeAll(async () => {
  server = await startKapi();
  const kc = new KubeConfig();
  kc.loadFromFile(server.kubeconfig);
  core = kc.makeApiClient(CoreV1Api);
  authn = kc.makeApiClient(AuthenticationV1Api);
}, 60_000);
afterAll(async () => server?.stop());

async function statusOf(call: Promise<unknown>): Promise<{ code: number; body: any }> {
  try {
    await call;
  } catch (err) {
    if (err instanceof ApiException) return { code: err.code, body: JSON.parse(String(err.body)) };
    throw err;
  }
  throw new Error('the call succeeded');
}

test('lists the default namespaces', async () => {
  const list = await core.listNamespace();
  expect(list.items.map((n) => n.metadata?.name).sort()).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
  expect(Number(list.metadata?.resourceVersion)).toBeGreaterThan(0);
});

test('create, read, conflict on a stale replace, delete', async () => {
  const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'from-node' }, data: { a: '1' } } });
  expect(created.metadata?.uid).toBeTruthy();
  const read = await core.readNamespacedConfigMap({ name: 'from-node', namespace: 'default' });
  expect(read.data).toEqual({ a: '1' });

  const updated = await core.replaceNamespacedConfigMap({ name: 'from-node', namespace: 'default', body: { ...read, data: { a: '2' } } });
  expect(updated.data).toEqual({ a: '2' });
  const stale = await statusOf(core.replaceNamespacedConfigMap({ name: 'from-node', namespace: 'default', body: { ...read, data: { a: '3' } } }));
  expect(stale.code).toBe(409);
  expect(stale.body).toMatchObject({ kind: 'Status', reason: 'Conflict' });
  expect((await core.readNamespacedConfigMap({ name: 'from-node', namespace: 'default' })).data).toEqual({ a: '2' });

  await core.deleteNamespacedConfigMap({ name: 'from-node', namespace: 'default' });
  const gone = await statusOf(core.readNamespacedConfigMap({ name: 'from-node', namespace: 'default' }));
  expect(gone.code).toBe(404);
  expect(gone.body).toMatchObject({ reason: 'NotFound', message: 'configmaps "from-node" not found', details: { name: 'from-node', kind: 'configmaps' } });
});

test('generateName and label selectors', async () => {
  const made = await core.createNamespacedSecret({
    namespace: 'default',
    body: { metadata: { generateName: 'token-', labels: { app: 'x' } }, stringData: { k: 'v' } },
  });
  expect(made.metadata?.name).toMatch(/^token-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  expect(made.data).toEqual({ k: Buffer.from('v').toString('base64') });
  const selected = await core.listNamespacedSecret({ namespace: 'default', labelSelector: 'app in (x,y)' });
  expect(selected.items.map((s) => s.metadata?.name)).toEqual([made.metadata?.name]);
  const none = await core.listNamespacedSecret({ namespace: 'default', labelSelector: 'app!=x' });
  expect(none.items).toEqual([]);
});

test('SelfSubjectReview says who we are', async () => {
  const review = await authn.createSelfSubjectReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
  expect(review.status?.userInfo?.username).toBe('kubernetes-admin');
  expect(review.status?.userInfo?.groups).toEqual(['system:masters', 'system:authenticated']);
});
