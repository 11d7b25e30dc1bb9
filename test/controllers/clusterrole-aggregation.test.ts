// The clusterrole-aggregation-controller: aggregated roles get the rules of the
// roles their selectors match (selectors in order, roles by name, each rule
// once), admin/edit/view chain through each other in one sync, a settled cluster
// is not written again, and hostile roles (match-everything selectors, roles
// selecting each other, huge rule lists, `__proto__` labels and selectors)
// neither crash the controller nor make it write forever.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { bootstrapClusterRoles } from '../../src/apis/rbac/bootstrap-policy.js';
import { createClusterRoleAggregator, type ClusterRoleAggregationClient } from '../../src/controllers/clusterrole-aggregation.js';
import type { KubeObject } from '../../src/schema/object.js';
import { bootstrapNamespaces } from '../../src/server/bootstrap.js';
import { bootstrapRbac } from '../../src/server/bootstrap-rbac.js';
import { startControllers, type RunningControllers } from '../../src/server/controllers.js';
import { createStoreHarness, type StoreHarness } from '../support/store-harness.js';

type Rule = Record<string, unknown>;

interface FakeCluster {
  readonly client: ClusterRoleAggregationClient;
  readonly roles: Map<string, KubeObject>;
  readonly writes: string[];
  readonly warnings: string[];
}

function fakeCluster(roles: readonly KubeObject[]): FakeCluster {
  const map = new Map(roles.map((r) => [r.metadata.name!, structuredClone(r)]));
  const writes: string[] = [];
  return {
    roles: map,
    writes,
    warnings: [],
    client: {
      list: async () => [...map.values()].map((r) => structuredClone(r)),
      updateRules: async (role, rules) => {
        writes.push(role.metadata.name!);
        map.set(role.metadata.name!, { ...structuredClone(role), rules });
      },
    },
  };
}

const role = (name: string, labels: Record<string, string>, rules: Rule[], aggregationRule?: unknown): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, labels },
  rules,
  ...(aggregationRule === undefined ? {} : { aggregationRule }),
});
const selects = (key: string) => ({ clusterRoleSelectors: [{ matchLabels: { [key]: 'true' } }] });
const r = (verb: string, resource: string): Rule => ({ verbs: [verb], apiGroups: [''], resources: [resource] });
const EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';

function aggregator(c: FakeCluster, maxRounds?: number) {
  return createClusterRoleAggregator({ client: c.client, logger: { warn: (_o, msg) => c.warnings.push(msg) }, ...(maxRounds === undefined ? {} : { maxRounds }) });
}

/** Syncs until nothing is written, at most `bound` times; answers how many syncs wrote. */
async function settle(c: FakeCluster, bound = 5): Promise<number> {
  const a = aggregator(c);
  for (let i = 0; i < bound; i++) if ((await a.sync()).updated.length === 0) return i;
  throw new Error(`still writing after ${bound} syncs`);
}

const rulesOf = (c: FakeCluster, name: string) => c.roles.get(name)!.rules as Rule[];

describe('the default policy', () => {
  test('admin, edit and view get their rules in one sync, and a second sync writes nothing', async () => {
    const c = fakeCluster(bootstrapClusterRoles());
    const first = await aggregator(c).sync();
    expect(first).toEqual({ updated: ['admin', 'edit', 'view'], settled: true });
    const view = rulesOf(c, 'view');
    const aggView = rulesOf(c, 'system:aggregate-to-view');
    expect(view).toEqual(aggView);
    // edit: system:aggregate-to-edit's rules, then view's (roles by name), each once.
    expect(rulesOf(c, 'edit')).toEqual([...rulesOf(c, 'system:aggregate-to-edit'), ...view]);
    expect(rulesOf(c, 'admin')).toEqual([...rulesOf(c, 'edit'), ...rulesOf(c, 'system:aggregate-to-admin')]);
    expect((await aggregator(c).sync()).updated).toEqual([]);
  });

  test("a user's role labelled aggregate-to-edit shows up in edit and admin, and leaves when unlabelled", async () => {
    const widgets = { verbs: ['get', 'list'], apiGroups: ['example.com'], resources: ['widgets'] };
    const c = fakeCluster([...bootstrapClusterRoles(), role('widget-editor', { [EDIT]: 'true' }, [widgets])]);
    await settle(c);
    expect(rulesOf(c, 'edit')).toContainEqual(widgets);
    expect(rulesOf(c, 'admin')).toContainEqual(widgets);
    expect(rulesOf(c, 'view')).not.toContainEqual(widgets);
    c.roles.set('widget-editor', role('widget-editor', {}, [widgets]));
    await settle(c);
    expect(rulesOf(c, 'edit')).not.toContainEqual(widgets);
    expect(rulesOf(c, 'admin')).not.toContainEqual(widgets);
  });
});

describe('aggregation rules', () => {
  test.each([
    {
      name: 'selectors in order, roles by name, each rule once',
      roles: [
        role('b', { x: 'true' }, [r('get', 'pods'), r('list', 'pods')]),
        role('a', { x: 'true', y: 'true' }, [r('list', 'pods'), r('get', 'secrets')]),
        role('c', { y: 'true' }, [r('get', 'nodes'), r('get', 'pods')]),
        role('agg', {}, [], { clusterRoleSelectors: [{ matchLabels: { y: 'true' } }, { matchLabels: { x: 'true' } }] }),
      ],
      want: [r('list', 'pods'), r('get', 'secrets'), r('get', 'nodes'), r('get', 'pods')],
    },
    {
      name: 'a role does not aggregate itself',
      roles: [role('agg', { x: 'true' }, [r('get', 'stale')], selects('x'))],
      want: [],
    },
    {
      name: 'matchExpressions select too',
      roles: [
        role('in', { tier: 'gold' }, [r('get', 'pods')]),
        role('out', { tier: 'bronze' }, [r('get', 'nodes')]),
        role('agg', {}, [], { clusterRoleSelectors: [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold', 'silver'] }] }] }),
      ],
      want: [r('get', 'pods')],
    },
    {
      name: 'rules equal field by field are one rule, whatever extra fields a stored rule has',
      roles: [
        role('a', { x: 'true' }, [{ ...r('get', 'pods'), resourceNames: [] }]),
        role('b', { x: 'true' }, [r('get', 'pods')]),
        role('agg', {}, [], selects('x')),
      ],
      want: [r('get', 'pods')],
    },
  ])('$name', async ({ roles, want }) => {
    const c = fakeCluster(roles);
    await settle(c);
    expect(rulesOf(c, 'agg')).toEqual(want);
  });

  test('a write that fails is thrown to the runner (which retries with a backoff)', async () => {
    const c = fakeCluster([role('a', { x: 'true' }, [r('get', 'pods')]), role('agg', {}, [], selects('x'))]);
    const failing = createClusterRoleAggregator({ client: { ...c.client, updateRules: () => Promise.reject(new Error('etcd down')) } });
    await expect(failing.sync()).rejects.toThrow('etcd down');
  });
});

describe('hostile roles', () => {
  test('a selector matching everything takes every other role once and settles', async () => {
    const c = fakeCluster([...bootstrapClusterRoles(), role('everything', {}, [], { clusterRoleSelectors: [{}] })]);
    expect(await settle(c)).toBeLessThanOrEqual(2);
    const all = new Set([...c.roles.values()].filter((x) => x.metadata.name !== 'everything').flatMap((x) => (x.rules as Rule[]).map((y) => JSON.stringify(y))));
    expect(rulesOf(c, 'everything')).toHaveLength(all.size);
  });

  test('two roles that select each other and everything settle without writing forever', async () => {
    const c = fakeCluster([
      role('base', {}, [r('get', 'pods')]),
      role('p', {}, [r('get', 'stale-p')], { clusterRoleSelectors: [{}] }),
      role('q', {}, [r('get', 'stale-q')], { clusterRoleSelectors: [{}] }),
    ]);
    await settle(c);
    const before = c.writes.length;
    expect((await aggregator(c).sync()).updated).toEqual([]);
    expect(c.writes.length).toBe(before);
  });

  test('roles that cannot settle are not written, with a warning', async () => {
    // With one round allowed, p and q still change after it: nothing is written.
    const c = fakeCluster([
      role('base', {}, [r('get', 'pods')]),
      role('p', {}, [r('get', 'stale-p')], { clusterRoleSelectors: [{}] }),
      role('q', {}, [r('get', 'stale-q')], { clusterRoleSelectors: [{}] }),
    ]);
    expect(await aggregator(c, 1).sync()).toEqual({ updated: [], settled: false });
    expect(c.writes).toEqual([]);
    expect(c.warnings).toEqual([expect.stringContaining('do not settle')]);
  });

  test('huge rule lists are aggregated in linear time, duplicates dropped', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => r('get', `kind${i}`));
    const c = fakeCluster([role('a', { x: 'true' }, many), role('b', { x: 'true' }, many), role('agg', {}, [], selects('x'))]);
    const started = performance.now();
    await aggregator(c).sync();
    // A pairwise comparison (kube's ruleExists) would make 4e8 of them here: minutes, not seconds.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(rulesOf(c, 'agg')).toHaveLength(20_000);
  });

  test('`__proto__` labels are ordinary labels; a `__proto__` selector key is skipped, not obeyed', async () => {
    const proto = JSON.parse('{"__proto__": "true"}') as Record<string, string>;
    const c = fakeCluster([
      role('sneaky', proto, [r('get', 'secrets')]),
      role('plain', { x: 'true' }, [r('get', 'pods')]),
      role('agg', {}, [], selects('x')),
      role('bad', {}, [r('get', 'stale')], { clusterRoleSelectors: [{ matchLabels: proto }] }),
      role('bad-shape', {}, [], { clusterRoleSelectors: 'not a list' }),
      role('bad-item', {}, [r('get', 'kept')], { clusterRoleSelectors: ['x', null] }),
    ]);
    await settle(c);
    expect(rulesOf(c, 'agg')).toEqual([r('get', 'pods')]);
    // The invalid selector makes its role skipped (kube's sync fails on it), so it keeps its rules.
    expect(rulesOf(c, 'bad')).toEqual([r('get', 'stale')]);
    expect(rulesOf(c, 'bad-item')).toEqual([r('get', 'kept')]);
    expect(c.warnings.some((w) => w.includes('selector does not convert'))).toBe(true);
    expect(({} as Record<string, unknown>).true).toBeUndefined();
  });
});

describe('clusterrole-aggregation-controller started by --controllers, over the registry', () => {
  let h: StoreHarness;
  let controllers: RunningControllers | undefined;
  const silent = { info: () => undefined, warn: () => undefined };
  const CR = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };
  const viewRules = async () => ((await h.registry.store(CR).get({ name: 'view' })).rules ?? []) as Rule[];
  beforeEach(async () => {
    h = await createStoreHarness();
    await bootstrapNamespaces(h.registry);
    await bootstrapRbac(h.registry);
  });
  afterEach(async () => {
    controllers?.stop();
    await h.close();
  });

  async function until(what: string, check: () => Promise<boolean>, boundMs = 8000): Promise<void> {
    const deadline = Date.now() + boundMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((res) => setTimeout(res, 10));
    }
  }

  test('on by default: view is aggregated, and follows a labelled role', async () => {
    controllers = startControllers({ registry: h.registry, logger: silent, retry: { initialMs: 5, maxMs: 20 } });
    await until('view to be aggregated', async () => (await viewRules()).length > 0);
    await h.registry.store(CR).create(role('gadgets', { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }, [r('get', 'gadgets')]));
    await until('gadgets in view', async () => (await viewRules()).some((x) => JSON.stringify(x) === JSON.stringify(r('get', 'gadgets'))));
  });

  test('switched off (-clusterrole-aggregation): view keeps no rules', async () => {
    const started: unknown[] = [];
    controllers = startControllers({ registry: h.registry, logger: { ...silent, info: (obj: unknown) => started.push(obj) }, controllers: ['*', '-clusterrole-aggregation'] });
    expect((started[0] as { controllers: string[] }).controllers).not.toContain('clusterrole-aggregation-controller');
    expect(await viewRules()).toEqual([]);
  });
});
