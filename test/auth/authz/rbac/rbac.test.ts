// RBAC decisions, rule listing and escalation checks over an in-memory policy index,
// each row a fact of kube's RBAC authorizer (rbac/v1 helpers, DefaultRuleResolver,
// ConfirmNoEscalation) with its texts.
import { describe, expect, test } from 'vitest';
import type { AuthorizationAttributes } from '../../../../src/auth/authz/authorizer.js';
import { createEscalationGuard } from '../../../../src/auth/authz/rbac/escalation.js';
import { PolicyIndex } from '../../../../src/auth/authz/rbac/policy-index.js';
import { createRbacMode } from '../../../../src/auth/authz/rbac/rbac.js';
import { compactRules, compactString, covers, policyRuleOf, ruleAllows } from '../../../../src/auth/authz/rbac/rules.js';
import { StatusError } from '../../../../src/errors/status-error.js';
import type { KubeObject } from '../../../../src/schema/object.js';
import type { UserInfo } from '../../../../src/schema/user.js';

const user = (username: string, groups: string[] = ['system:authenticated']): UserInfo => ({ username, groups });
const resource = (u: UserInfo, verb: string, res: string, extra: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: u, verb, isResourceRequest: true, path: '', namespace: 'team', apiGroup: '', apiVersion: 'v1', resource: res, subresource: '', name: '', ...extra,
});
const path = (u: UserInfo, verb: string, p: string): AuthorizationAttributes => ({ ...resource(u, verb, ''), isResourceRequest: false, path: p, namespace: '' });

describe('ruleAllows', () => {
  const bob = user('bob');
  const cases: { name: string; rule: Record<string, unknown>; attrs: AuthorizationAttributes; want: boolean }[] = [
    { name: 'exact verb, group, resource', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, attrs: resource(bob, 'get', 'pods'), want: true },
    { name: 'another verb', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, attrs: resource(bob, 'list', 'pods'), want: false },
    { name: 'verb *', rule: { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, attrs: resource(bob, 'delete', 'pods'), want: true },
    { name: 'another group', rule: { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, attrs: resource(bob, 'get', 'pods'), want: false },
    { name: 'group *', rule: { verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }, attrs: resource(bob, 'get', 'deployments', { apiGroup: 'apps' }), want: true },
    { name: 'a resource does not cover its subresource', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, attrs: resource(bob, 'get', 'pods', { subresource: 'log' }), want: false },
    { name: 'resource/subresource', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, attrs: resource(bob, 'get', 'pods', { subresource: 'log' }), want: true },
    { name: '*/subresource', rule: { verbs: ['get'], apiGroups: [''], resources: ['*/status'] }, attrs: resource(bob, 'get', 'services', { subresource: 'status' }), want: true },
    { name: '*/subresource is not the resource', rule: { verbs: ['get'], apiGroups: [''], resources: ['*/status'] }, attrs: resource(bob, 'get', 'services'), want: false },
    { name: 'resource * covers subresources', rule: { verbs: ['get'], apiGroups: [''], resources: ['*'] }, attrs: resource(bob, 'get', 'pods', { subresource: 'exec' }), want: true },
    { name: 'resourceNames match the name', rule: { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, attrs: resource(bob, 'get', 'configmaps', { name: 'a' }), want: true },
    { name: 'resourceNames refuse a list (no name)', rule: { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, attrs: resource(bob, 'list', 'configmaps'), want: false },
    { name: 'non-resource exact', rule: { verbs: ['get'], nonResourceURLs: ['/healthz'] }, attrs: path(bob, 'get', '/healthz'), want: true },
    { name: 'non-resource prefix *', rule: { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, attrs: path(bob, 'get', '/healthz/ping'), want: true },
    { name: 'non-resource prefix needs the prefix', rule: { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, attrs: path(bob, 'get', '/healthz'), want: false },
    { name: 'a resource rule never allows a path', rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, attrs: path(bob, 'get', '/metrics'), want: false },
    { name: 'a path rule never allows a resource', rule: { verbs: ['*'], nonResourceURLs: ['*'] }, attrs: resource(bob, 'get', 'pods'), want: false },
    { name: 'prototype-named resource', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, attrs: resource(bob, 'get', '__proto__'), want: false },
  ];
  for (const c of cases) test(c.name, () => expect(ruleAllows(c.attrs, policyRuleOf(c.rule))).toBe(c.want));
});

function obj(kind: string, name: string, namespace: string | undefined, body: Record<string, unknown>): KubeObject {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name, ...(namespace === undefined ? {} : { namespace }) }, ...body } as KubeObject;
}

function policy(): PolicyIndex {
  const index = new PolicyIndex();
  index.replaceClusterRoles([
    obj('ClusterRole', 'pod-reader', undefined, { rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }] }),
    obj('ClusterRole', 'metrics', undefined, { rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] }),
    obj('ClusterRole', 'role-admin', undefined, { rules: [{ verbs: ['get', 'list', 'create', 'update', 'delete'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'] }] }),
  ]);
  index.replaceRoles([obj('Role', 'cm-editor', 'team', { rules: [{ verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['app'] }] })]);
  index.replaceClusterRoleBindings([
    obj('ClusterRoleBinding', 'readers', undefined, { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'Group', name: 'readers' }] }),
    obj('ClusterRoleBinding', 'metrics', undefined, { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics' }, subjects: [{ kind: 'User', name: 'prom' }] }),
    obj('ClusterRoleBinding', 'ghost', undefined, { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'gone' }, subjects: [{ kind: 'User', name: 'carol' }] }),
    // A cluster binding's service account needs a namespace: without one it matches nobody.
    obj('ClusterRoleBinding', 'sa-no-ns', undefined, { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'builder' }] }),
  ]);
  index.replaceRoleBindings([
    obj('RoleBinding', 'read-in-team', 'team', { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'User', name: 'bob' }] }),
    obj('RoleBinding', 'edit-app', 'team', { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-editor' }, subjects: [{ kind: 'ServiceAccount', name: 'builder' }] }),
    obj('RoleBinding', 'role-admins', 'team', { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'role-admin' }, subjects: [{ kind: 'User', name: 'dave' }] }),
  ]);
  return index;
}

describe('RBAC decisions', () => {
  const rbac = createRbacMode(policy());
  const builder = user('system:serviceaccount:team:builder', ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated']);
  const cases: { name: string; attrs: AuthorizationAttributes; want: { decision: string; reason: string } }[] = [
    {
      name: 'a group bound cluster-wide',
      attrs: resource(user('eve', ['readers']), 'list', 'pods', { namespace: 'other' }),
      want: { decision: 'Allow', reason: 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to Group "readers"' },
    },
    {
      name: 'a role binding to a cluster role applies in its namespace',
      attrs: resource(user('bob'), 'get', 'pods'),
      want: { decision: 'Allow', reason: 'RBAC: allowed by RoleBinding "read-in-team/team" of ClusterRole "pod-reader" to User "bob"' },
    },
    { name: '… and nowhere else', attrs: resource(user('bob'), 'get', 'pods', { namespace: 'other' }), want: { decision: 'NoOpinion', reason: '' } },
    { name: '… nor cluster-wide', attrs: resource(user('bob'), 'list', 'pods', { namespace: '' }), want: { decision: 'NoOpinion', reason: '' } },
    {
      name: 'a service account subject defaults to the binding namespace',
      attrs: resource(builder, 'update', 'configmaps', { name: 'app' }),
      want: { decision: 'Allow', reason: 'RBAC: allowed by RoleBinding "edit-app/team" of Role "cm-editor" to ServiceAccount "builder"' },
    },
    { name: 'resourceNames hold', attrs: resource(builder, 'update', 'configmaps', { name: 'other' }), want: { decision: 'NoOpinion', reason: '' } },
    { name: 'a cluster binding of a service account without namespace matches nobody', attrs: resource(builder, 'list', 'pods', { namespace: 'other' }), want: { decision: 'NoOpinion', reason: '' } },
    { name: 'non-resource rules', attrs: path(user('prom'), 'get', '/metrics'), want: { decision: 'Allow', reason: 'RBAC: allowed by ClusterRoleBinding "metrics" of ClusterRole "metrics" to User "prom"' } },
    { name: 'a missing role is said', attrs: resource(user('carol'), 'get', 'pods'), want: { decision: 'NoOpinion', reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found' } },
    { name: 'an impersonated name is not a group', attrs: resource(user('readers'), 'get', 'pods'), want: { decision: 'NoOpinion', reason: '' } },
    { name: 'prototype-named user and group', attrs: resource(user('__proto__', ['constructor', 'toString']), 'get', 'pods'), want: { decision: 'NoOpinion', reason: '' } },
  ];
  for (const c of cases) test(c.name, async () => expect(await rbac.authorize(c.attrs)).toEqual(c.want));

  test('rulesFor lists what the bindings grant, split as SelfSubjectRulesReview lists them', async () => {
    expect(await rbac.rulesFor(user('bob'), 'team')).toEqual({
      resourceRules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }],
      nonResourceRules: [],
      incomplete: false,
    });
    expect(await rbac.rulesFor(user('carol'), 'team')).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false, evaluationError: 'clusterrole.rbac.authorization.k8s.io "gone" not found' });
  });

  test('an index change decides at once: a new binding, then its removal', async () => {
    const index = policy();
    const mode = createRbacMode(index);
    const frank = resource(user('frank'), 'get', 'pods');
    expect((await mode.authorize(frank)).decision).toBe('NoOpinion');
    const binding = obj('RoleBinding', 'frank', 'team', { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'User', name: 'frank' }] });
    index.putRoleBinding(binding);
    expect((await mode.authorize(frank)).decision).toBe('Allow');
    index.deleteRoleBinding(binding);
    expect((await mode.authorize(frank)).decision).toBe('NoOpinion');
  });
});

describe('covers and the texts of missing rules', () => {
  const r = (rule: Record<string, unknown>) => policyRuleOf(rule);
  test('a subset of verbs, groups and resources is covered; */subresource covers any subresource', () => {
    expect(covers([r({ verbs: ['*'], apiGroups: [''], resources: ['pods', '*/status'] })], [r({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'services/status'] })]).covered).toBe(true);
  });
  test('names: an unnamed owner covers named servants, not the other way', () => {
    expect(covers([r({ verbs: ['get'], apiGroups: [''], resources: ['secrets'] })], [r({ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] })]).covered).toBe(true);
    expect(covers([r({ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] })], [r({ verbs: ['get'], apiGroups: [''], resources: ['secrets'] })]).covered).toBe(false);
  });
  test('the missing rules break down and compact as kube prints them', () => {
    const { missing } = covers([], [r({ verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'] }), r({ verbs: ['get'], nonResourceURLs: ['/logs/*'] })]);
    expect(compactRules(missing).map(compactString).sort()).toEqual(['{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}', '{NonResourceURLs:["/logs/*"], Verbs:["get"]}']);
  });
});

describe('escalation prevention', () => {
  const index = policy();
  const rbac = createRbacMode(index);
  const guard = createEscalationGuard({ authorizer: rbac.authorize, index });
  const dave = user('dave', ['system:authenticated']);
  const roleWrite = (rules: Record<string, unknown>[], extra: Partial<Parameters<typeof guard.checkRole>[0]> = {}) =>
    guard.checkRole({ user: dave, resource: 'roles', namespace: 'team', name: '', objectName: 'r', rules: rules.map(policyRuleOf), aggregation: false, ...extra });
  const refusal = async (p: Promise<void>): Promise<StatusError> => {
    const err = await p.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    return err as StatusError;
  };

  test('a role granting what its author holds is written', async () => {
    await expect(roleWrite([{ verbs: ['get'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'] }])).resolves.toBeUndefined();
  });
  test('a role granting more is refused with the rules not held', async () => {
    const err = await refusal(roleWrite([{ verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'] }]));
    expect(err.code).toBe(403);
    expect(err.message).toBe(
      'roles.rbac.authorization.k8s.io "r" is forbidden: user "dave" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
    );
  });
  test('escalate on roles lets any rule through', async () => {
    index.putRoleBinding(obj('RoleBinding', 'esc', 'team', { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'escalator' }, subjects: [{ kind: 'User', name: 'dave' }] }));
    index.putRole(obj('Role', 'escalator', 'team', { rules: [{ verbs: ['escalate'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'] }] }));
    try {
      await expect(roleWrite([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }])).resolves.toBeUndefined();
    } finally {
      index.deleteRoleBinding(obj('RoleBinding', 'esc', 'team', {}));
    }
  });
  test('system:masters may write anything', async () => {
    await expect(roleWrite([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], { user: user('root', ['system:masters']) })).resolves.toBeUndefined();
  });
  test('an aggregationRule needs full authority', async () => {
    const err = await refusal(guard.checkRole({ user: dave, resource: 'clusterroles', namespace: '', name: '', objectName: 'agg', rules: [], aggregation: true }));
    expect(err.message).toBe('clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule');
  });
  test('binding a role one holds is allowed; binding more is refused; a missing role is 404', async () => {
    const bind = (name: string, kind = 'ClusterRole') =>
      guard.checkBinding({ user: dave, resource: 'rolebindings', namespace: 'team', name: 'b', roleRef: { kind, name, apiGroup: 'rbac.authorization.k8s.io' } });
    await expect(bind('role-admin')).resolves.toBeUndefined();
    const err = await refusal(bind('pod-reader'));
    expect(err.code).toBe(403);
    expect(err.message).toMatch(/^rolebindings\.rbac\.authorization\.k8s\.io "b" is forbidden: user "dave" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["get" "list" "watch"\]\}$/);
    const missing = await refusal(bind('nope'));
    expect(missing.code).toBe(404);
    expect(missing.message).toBe('clusterrole.rbac.authorization.k8s.io "nope" not found');
  });
  test('bind on the role lets the binding through', async () => {
    index.putRole(obj('Role', 'binder', 'team', { rules: [{ verbs: ['bind'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['pod-reader'] }] }));
    index.putRoleBinding(obj('RoleBinding', 'binder', 'team', { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'binder' }, subjects: [{ kind: 'User', name: 'dave' }] }));
    await expect(guard.checkBinding({ user: dave, resource: 'rolebindings', namespace: 'team', name: 'b', roleRef: { kind: 'ClusterRole', name: 'pod-reader', apiGroup: 'rbac.authorization.k8s.io' } })).resolves.toBeUndefined();
  });
});
