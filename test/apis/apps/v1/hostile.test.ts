// Hostile bodies for the apps/v1 and policy/v1 kinds over HTTP (the endpoint
// stack with the built-in kinds): wrong types, nulls inside selectors, prototype
// names as label keys, huge numbers. Each gets a 4xx answer kube would give (or
// is stored as data), never a 500.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Harness } from '../../../endpoints/harness.js';
import { createBuiltinHttpHarness } from '../../../support/store-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createBuiltinHttpHarness();
});
afterAll(async () => {
  await h.close();
});

const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
const deploy = (spec: unknown) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { generateName: 'h-' }, spec });
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

const cases: { name: string; url: string; body: unknown; want: number }[] = [
  { name: 'spec a string', url: DEPLOYMENTS, body: deploy('x'), want: 400 },
  { name: 'selector a list', url: DEPLOYMENTS, body: deploy({ selector: [], template }), want: 400 },
  { name: 'null inside matchExpressions', url: DEPLOYMENTS, body: deploy({ selector: { matchExpressions: [null] }, template }), want: 422 },
  { name: 'matchExpressions item without operator', url: DEPLOYMENTS, body: deploy({ selector: { matchExpressions: [{ key: 'app' }] }, template }), want: 422 },
  { name: 'maxSurge an object', url: DEPLOYMENTS, body: deploy({ selector: { matchLabels: { app: 'a' } }, template, strategy: { rollingUpdate: { maxSurge: {} } } }), want: 400 },
  { name: 'huge percent', url: DEPLOYMENTS, body: deploy({ selector: { matchLabels: { app: 'a' } }, template, strategy: { rollingUpdate: { maxUnavailable: `${'9'.repeat(400)}%` } } }), want: 422 },
  { name: 'template null', url: DEPLOYMENTS, body: deploy({ selector: { matchLabels: { app: 'a' } }, template: null }), want: 422 },
  { name: '__proto__ as a selector key', url: DEPLOYMENTS, body: JSON.parse(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generateName":"h-"},"spec":{"selector":{"matchLabels":{"__proto__":"x"}},"template":${JSON.stringify(template)}}}`), want: 422 },
  {
    name: 'PDB with a null selector expression',
    url: '/apis/policy/v1/namespaces/default/poddisruptionbudgets',
    body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { generateName: 'h-' }, spec: { selector: { matchExpressions: [null] } } },
    want: 422,
  },
  {
    name: 'StatefulSet with a string ordinals',
    url: '/apis/apps/v1/namespaces/default/statefulsets',
    body: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { generateName: 'h-' }, spec: { selector: { matchLabels: { app: 'a' } }, template, ordinals: 'x' } },
    want: 400,
  },
];

for (const c of cases) {
  test(`${c.name}: ${c.want}`, async () => {
    const res = await h.app.inject({ method: 'POST', url: c.url, payload: JSON.stringify(c.body), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(c.want);
    expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure', code: c.want });
  });
}

test('constructor as a label key is data: matched, stored and printed', async () => {
  const labels = { constructor: 'x' };
  const res = await h.app.inject({ method: 'POST', url: DEPLOYMENTS, payload: deploy({ selector: { matchLabels: labels }, template: { ...template, metadata: { labels } } }) as object });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().spec.selector).toEqual({ matchLabels: { constructor: 'x' } });
});
