// Evicting pods (POST pods/<name>/eviction, a policy/v1 Eviction) through the real
// server, as `kubectl drain` and autoscalers do: discovery, pods the budgets need
// not guard, PodDisruptionBudgets that refuse (never computed, none left, two of
// them) and one that allows (its status taken from), dry runs, preconditions,
// hostile bodies, and `kubectl drain` itself with kubectl 1.27 and 1.33.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminCredentials, call, type Answer, type Credentials } from './support/http.js';
import { kubectl, kubectlBinaries } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
let server: RunningKapi;
let creds: Credentials;
const NS = 'evict';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const PDBS = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`;

beforeAll(async () => {
  server = await startKapi();
  creds = adminCredentials(server.kubeconfig);
  expect((await send('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status).toBe(201);
}, 60_000);
afterAll(async () => server?.stop());

function send(method: string, path: string, body?: unknown): Promise<Answer> {
  return call(server, creds, {
    method,
    path,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    headers: { 'content-type': 'application/json', accept: 'application/json' },
  });
}

const eviction = (name: string, deleteOptions?: object) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...(deleteOptions === undefined ? {} : { deleteOptions }) });
const evict = (name: string, body: unknown = eviction(name), query = '') => send('POST', `${PODS}/${name}/eviction${query}`, body);
const exists = async (name: string) => (await send('GET', `${PODS}/${name}`)).status === 200;

/** A pod; `running` also gives it phase Running and Ready=True through pods/status. */
async function makePod(name: string, labels: Record<string, string>, state: 'pending' | 'running' | 'unready' = 'pending', finalizers?: string[]): Promise<void> {
  const metadata = { name, labels, ...(finalizers === undefined ? {} : { finalizers }) };
  const created = await send('POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  expect(created.status, created.body.toString()).toBe(201);
  if (state === 'pending') return;
  const pod = created.json();
  pod.status = { phase: 'Running', conditions: [{ type: 'Ready', status: state === 'running' ? 'True' : 'False' }] };
  const a = await send('PUT', `${PODS}/${name}/status`, pod);
  expect(a.status, a.body.toString()).toBe(200);
}

/** A PDB; `status` stands for the disruption controller's (kapi has none yet). */
async function makeBudget(name: string, selector: object, spec: object = {}, status?: object): Promise<any> {
  const created = await send('POST', PDBS, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { selector, minAvailable: 1, ...spec } });
  expect(created.status, created.body.toString()).toBe(201);
  if (status === undefined) return created.json();
  const a = await send('PUT', `${PDBS}/${name}/status`, { ...created.json(), status });
  expect(a.status, a.body.toString()).toBe(200);
  return a.json();
}

const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

describe('pods/eviction', () => {
  test('discovery lists pods/eviction as policy/v1 Eviction, create only', async () => {
    const a = await send('GET', '/api/v1');
    const row = a.json().resources.find((r: { name: string }) => r.name === 'pods/eviction');
    expect(row).toMatchObject({ name: 'pods/eviction', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
  });

  test('a pending pod is deleted at once, whatever the budgets say', async () => {
    await makePod('pending', { app: 'guarded' });
    await makeBudget('never-computed', { matchLabels: { app: 'guarded' } });
    const a = await evict('pending');
    expect(a.status, a.body.toString()).toBe(201);
    expect(a.json()).toEqual(SUCCESS);
    expect(await exists('pending')).toBe(false);
  });

  test('a budget whose status was never computed refuses a running pod: 429, Retry-After 10', async () => {
    await makePod('guarded-1', { app: 'guarded' }, 'running');
    const a = await evict('guarded-1');
    expect(a.status).toBe(429);
    expect(a.headers['retry-after']).toBe('10');
    expect(a.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget never-computed is still being processed by the server.' }], retryAfterSeconds: 10 },
      code: 429,
    });
    expect(await exists('guarded-1')).toBe(true);
  });

  test('a budget that allows one disruption: a dry run takes nothing, the eviction takes it, the next is refused', async () => {
    await makePod('web-1', { app: 'web' }, 'running');
    await makePod('web-2', { app: 'web' }, 'running');
    const budget = await makeBudget('web', { matchLabels: { app: 'web' } }, {}, { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 });

    const dry = await evict('web-1', eviction('web-1'), '?dryRun=All');
    expect(dry.status, dry.body.toString()).toBe(201);
    expect(await exists('web-1')).toBe(true);
    expect((await send('GET', `${PDBS}/web`)).json().metadata.resourceVersion).toBe(budget.metadata.resourceVersion);

    const real = await evict('web-1');
    expect(real.status, real.body.toString()).toBe(201);
    expect(await exists('web-1')).toBe(false);
    const status = (await send('GET', `${PDBS}/web`)).json().status;
    expect(status.disruptionsAllowed).toBe(0);
    expect(Object.keys(status.disruptedPods)).toEqual(['web-1']);
    expect(status.conditions).toEqual([expect.objectContaining({ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', observedGeneration: 1 })]);

    const refused = await evict('web-2');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeUndefined();
    expect(refused.json().details).toEqual({ causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 2 currently' }] });
    expect(await exists('web-2')).toBe(true);
  });

  test('an unready pod under an AlwaysAllow budget goes without taking a disruption', async () => {
    await makePod('sick', { app: 'sick' }, 'unready');
    const budget = await makeBudget('sick', { matchLabels: { app: 'sick' } }, { unhealthyPodEvictionPolicy: 'AlwaysAllow' }, { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 1, expectedPods: 1 });
    const a = await evict('sick');
    expect(a.status, a.body.toString()).toBe(201);
    expect(await exists('sick')).toBe(false);
    expect((await send('GET', `${PDBS}/sick`)).json().metadata.resourceVersion).toBe(budget.metadata.resourceVersion);
  });

  test('two matching budgets: kube\'s 500 Status, the pod stays', async () => {
    await makePod('twice', { app: 'twice' }, 'running');
    await makeBudget('twice-a', { matchLabels: { app: 'twice' } });
    await makeBudget('twice-b', { matchExpressions: [{ key: 'app', operator: 'Exists' }] });
    const a = await evict('twice');
    expect(a.status).toBe(500);
    expect(a.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 });
    expect(await exists('twice')).toBe(true);
  });

  test('the delete honours the Eviction\'s preconditions; the pod carries DisruptionTarget until it goes', async () => {
    // A finalizer keeps the deleted pod in sight.
    await makePod('pre', { role: 'free' }, 'running', ['example.com/hold']);
    const stale = await evict('pre', eviction('pre', { preconditions: { resourceVersion: '1' } }));
    expect(stale.status).toBe(409);
    expect(stale.json().message).toMatch(/^Operation cannot be fulfilled on Pod "pre": the ResourceVersion in the precondition \(1\) does not match the ResourceVersion in record \(\d+\)\. The object might have been modified$/);
    expect(await exists('pre')).toBe(true);
    const current = (await send('GET', `${PODS}/pre`)).json();
    const a = await evict('pre', eviction('pre', { preconditions: { uid: current.metadata.uid, resourceVersion: current.metadata.resourceVersion } }));
    expect(a.status, a.body.toString()).toBe(201);
    const held = (await send('GET', `${PODS}/pre`)).json();
    expect(held.metadata.deletionTimestamp).toEqual(expect.any(String));
    expect(held.status.conditions).toContainEqual(expect.objectContaining({ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' }));
  });

  test('refusals: another name, another kind, a missing pod, mismatched dry runs', async () => {
    await makePod('named', { role: 'free' });
    const other = await evict('named', eviction('not-named'));
    expect(other.status).toBe(400);
    expect(other.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'name in URL does not match name in Eviction object' });
    const kind = await evict('named', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'named' } });
    expect(kind.status).toBe(400);
    expect(kind.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    const missing = await evict('absent');
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ reason: 'NotFound', message: 'pods "absent" not found' });
    const mismatch = await evict('named', eviction('named', { dryRun: ['Other'] }), '?dryRun=All');
    expect(mismatch.status).toBe(400);
    expect(mismatch.json().message).toBe('Non-matching dry-run options in request and content: [All] and [Other]');
    expect(await exists('named')).toBe(true);
  });

  test('hostile bodies: malformed, deeply nested, prototype-named keys, oversized, anonymous', async () => {
    await makePod('hostile', { role: 'free' });
    expect((await evict('hostile', '{"apiVersion":"policy/v1","kind":"Eviction",')).status).toBe(400);
    const deep = `{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"hostile"},"deleteOptions":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
    const nested = await evict('hostile', deep);
    expect(nested.status).toBe(400);
    expect(nested.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    const big = await evict('hostile', JSON.stringify({ ...eviction('hostile'), metadata: { name: 'hostile', annotations: { a: 'x'.repeat(4 * 1024 * 1024) } } }));
    expect(big.status).toBe(413);
    const anonymous = await call(server, { ca: creds.ca }, { method: 'POST', path: `${PODS}/hostile/eviction`, body: JSON.stringify(eviction('hostile')), headers: { 'content-type': 'application/json' } });
    expect([401, 403]).toContain(anonymous.status);
    expect(await exists('hostile')).toBe(true);
    // Prototype-named keys are undeclared fields: dropped, and the eviction goes ahead.
    const proto = await evict('hostile', '{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"hostile"},"__proto__":{"x":1},"constructor":{"deleteOptions":{"dryRun":["All"]}}}');
    expect(proto.status, proto.body.toString()).toBe(201);
    expect(await exists('hostile')).toBe(false);
  });
});

describe('kubectl drain evicts through pods/eviction', () => {
  for (const binary of binaries) {
    test(`${binary.name}: drain --force empties the node and cordons it`, async () => {
      const k = kubectl(binary, server.kubeconfig);
      const node = `drain-${binary.name.replace(/\W/g, '-')}`;
      expect((await send('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: node } })).status).toBe(201);
      for (const name of [`${node}-a`, `${node}-b`]) {
        const a = await send('POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName: node, containers: [{ name: 'c', image: 'nginx' }] } });
        expect(a.status).toBe(201);
      }
      const res = k.run(['drain', node, '--force', '--ignore-daemonsets', '--timeout=30s', '-v=6']);
      expect(res.code, res.stderr).toBe(0);
      expect(`${res.stdout}${res.stderr}`).toContain(`node/${node} drained`);
      // Through the eviction API, not plain deletes (kubectl falls back to those when it is not served).
      expect(res.stderr).toMatch(new RegExp(`POST[^\\n]*/pods/${node}-a/eviction[^\\n]*201`));
      expect(await exists(`${node}-a`)).toBe(false);
      expect(await exists(`${node}-b`)).toBe(false);
      expect((await send('GET', `/api/v1/nodes/${node}`)).json().spec.unschedulable).toBe(true);
    });
  }
});
