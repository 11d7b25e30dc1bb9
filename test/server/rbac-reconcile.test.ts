// kube's policy comparator as the bootstrap reconciliation uses it
// (pkg/registry/rbac/validation/policy_comparator.go): when one stored rule
// covers a wanted one, and how a wanted rule is broken down into the rules that
// get appended when nothing covers them.
import { describe, expect, test } from 'vitest';
import { breakdownRule, ruleCovers, ruleView, uncoveredRules } from '../../src/apis/rbac/reconcile.js';

const v = (rule: Readonly<Record<string, readonly string[] | undefined>>) => ruleView(rule);

describe('ruleCovers', () => {
  test.each([
    { name: 'same rule', owner: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, wanted: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, want: true },
    { name: 'verb *', owner: { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, wanted: { verbs: ['delete'], apiGroups: [''], resources: ['pods'] }, want: true },
    { name: 'missing verb', owner: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, wanted: { verbs: ['list'], apiGroups: [''], resources: ['pods'] }, want: false },
    { name: 'group *', owner: { verbs: ['get'], apiGroups: ['*'], resources: ['pods'] }, wanted: { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, want: true },
    { name: 'other group', owner: { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, wanted: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, want: false },
    { name: 'resource *', owner: { verbs: ['get'], apiGroups: [''], resources: ['*'] }, wanted: { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, want: true },
    { name: '*/subresource', owner: { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, wanted: { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }, want: true },
    { name: '*/subresource does not cover the parent', owner: { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, wanted: { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] }, want: false },
    { name: 'names: unrestricted owner covers a named rule', owner: { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }, wanted: { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, want: true },
    { name: 'names: a named owner does not cover all names', owner: { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, wanted: { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }, want: false },
    { name: 'url prefix *', owner: { verbs: ['get'], nonResourceURLs: ['/api/*'] }, wanted: { verbs: ['get'], nonResourceURLs: ['/api/v1'] }, want: true },
    { name: 'url exact', owner: { verbs: ['get'], nonResourceURLs: ['/healthz'] }, wanted: { verbs: ['get'], nonResourceURLs: ['/healthz/etcd'] }, want: false },
    { name: 'a url rule covers no resource', owner: { verbs: ['*'], nonResourceURLs: ['*'] }, wanted: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, want: false },
  ])('$name', ({ owner, wanted, want }) => {
    expect(ruleCovers(v(owner), v(wanted))).toBe(want);
  });
});

test('breakdown: group x resource x verb (x name), then url x verb', () => {
  expect(breakdownRule(v({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'secrets'] })).map((r) => `${r.verbs[0]} ${r.resources[0]}`)).toEqual([
    'get pods', 'list pods', 'get secrets', 'list secrets',
  ]);
  expect(breakdownRule(v({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] })).map((r) => r.nonResourceURLs[0])).toEqual(['/a', '/b']);
});

test('uncovered: only the parts no stored rule grants', () => {
  const stored = [v({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] })];
  const missing = uncoveredRules(stored, [v({ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] })]);
  expect(missing.map((r) => r.verbs)).toEqual([['watch']]);
});
