import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import type { AdmissionAttributes } from '../../src/admission/plugin.js';
import { namespaceLifecycle } from '../../src/admission/plugins/namespace-lifecycle/index.js';
import { StatusError } from '../../src/errors/status-error.js';
import type { KubeObject } from '../../src/schema/object.js';
import { createHarness, type Harness } from '../endpoints/harness.js';

const namespaces: Record<string, KubeObject> = {
  active: { metadata: { name: 'active' }, status: { phase: 'Active' } },
  leaving: { metadata: { name: 'leaving', deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { phase: 'Terminating' } },
};
const lookup = { getNamespace: async (name: string) => namespaces[name] };

function attrs(over: Partial<AdmissionAttributes>): AdmissionAttributes {
  return {
    operation: 'CREATE',
    resource: { group: 'example.test', version: 'v1', resource: 'widgets' },
    subresource: '',
    kind: { group: 'example.test', version: 'v1', kind: 'Widget' },
    namespace: 'active',
    name: 'w',
    object: { metadata: { name: 'w' } },
    oldObject: undefined,
    user: undefined,
    dryRun: false,
    ...over,
  };
}

const NS = { resource: { group: '', version: 'v1', resource: 'namespaces' }, kind: { group: '', version: 'v1', kind: 'Namespace' }, namespace: '' };

describe('NamespaceLifecycle', () => {
  const cases: { name: string; attrs: AdmissionAttributes; want: { code: number; message: string } | 'allowed' }[] = [
    { name: 'create in an active namespace', attrs: attrs({}), want: 'allowed' },
    { name: 'create in a missing namespace', attrs: attrs({ namespace: 'gone' }), want: { code: 404, message: 'namespaces "gone" not found' } },
    { name: 'update in a missing namespace', attrs: attrs({ operation: 'UPDATE', namespace: 'gone' }), want: { code: 404, message: 'namespaces "gone" not found' } },
    { name: 'create in a terminating namespace', attrs: attrs({ namespace: 'leaving' }), want: { code: 403, message: 'widgets.example.test "w" is forbidden: unable to create new content in namespace leaving because it is being terminated' } },
    { name: 'update in a terminating namespace', attrs: attrs({ operation: 'UPDATE', namespace: 'leaving' }), want: 'allowed' },
    { name: 'delete in a missing namespace', attrs: attrs({ operation: 'DELETE', namespace: 'gone' }), want: 'allowed' },
    { name: 'cluster-scoped create', attrs: attrs({ namespace: '' }), want: 'allowed' },
    { name: 'creating a namespace', attrs: attrs({ ...NS, name: 'new' }), want: 'allowed' },
    { name: 'deleting kube-system', attrs: attrs({ ...NS, operation: 'DELETE', name: 'kube-system' }), want: { code: 403, message: 'namespaces "kube-system" is forbidden: this namespace may not be deleted' } },
    { name: 'deleting another namespace', attrs: attrs({ ...NS, operation: 'DELETE', name: 'active' }), want: 'allowed' },
    {
      name: 'access reviews in a missing namespace',
      attrs: attrs({ resource: { group: 'authorization.k8s.io', version: 'v1', resource: 'localsubjectaccessreviews' }, namespace: 'gone' }),
      want: 'allowed',
    },
  ];
  const chain = createAdmissionChain({ plugins: [namespaceLifecycle()] });
  for (const c of cases) {
    test(c.name, async () => {
      const run = chain.validate(c.attrs, lookup);
      if (c.want === 'allowed') {
        await expect(run).resolves.toBeUndefined();
        return;
      }
      const err = await run.then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(StatusError);
      expect({ code: (err as StatusError).code, message: (err as StatusError).message }).toEqual(c.want);
    });
  }
});

describe('NamespaceLifecycle through the store', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ namespaces: ['default', 'leaving'] });
  });
  afterEach(async () => {
    await h.close();
  });

  test('a terminating namespace refuses new content over HTTP, nothing is stored', async () => {
    const ns = await h.app.inject({ method: 'GET', url: '/api/v1/namespaces/leaving' });
    await h.app.inject({ method: 'PUT', url: '/api/v1/namespaces/leaving', payload: { ...(ns.json() as object), status: { phase: 'Terminating' } } });
    const res = await h.app.inject({ method: 'POST', url: '/apis/example.test/v1/namespaces/leaving/widgets', payload: { metadata: { name: 'w' } } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ reason: 'Forbidden', details: { name: 'w', group: 'example.test', kind: 'widgets' } });
    expect(await h.storage.count('/example.test/widgets/leaving/')).toBe(0);
  });

  test('the default namespace cannot be deleted', async () => {
    const res = await h.app.inject({ method: 'DELETE', url: '/api/v1/namespaces/default' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('namespaces "default" is forbidden: this namespace may not be deleted');
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/namespaces/default' })).statusCode).toBe(200);
  });
});
