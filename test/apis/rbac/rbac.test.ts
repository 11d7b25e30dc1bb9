// Kind rules of rbac.authorization.k8s.io/v1 through the real store: policy rules
// of roles and cluster roles, aggregation rules, binding defaults, roleRef and
// subject rules, the immutable roleRef, and the bindings' columns.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { clusterRoleBindings, clusterRoles, roleBindings, roles } from '../../../src/apis/rbac/v1/index.js';
import type { ResourceDefinition } from '../../../src/registry/define-resource.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

const RBAC = 'rbac.authorization.k8s.io';
let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

const role = (rules: unknown[]): KubeObject => ({ metadata: { name: 'r', namespace: 'ns' }, rules });
const clusterRole = (rest: Omit<KubeObject, 'metadata'>): KubeObject => ({ metadata: { name: 'cr' }, ...rest });
const binding = (rest: Omit<KubeObject, 'metadata'>): KubeObject => ({ metadata: { name: 'b', namespace: 'ns' }, ...rest });
const clusterBinding = (rest: Omit<KubeObject, 'metadata'>): KubeObject => ({ metadata: { name: 'cb' }, ...rest });
const ref = (kind: string, name = 'view') => ({ apiGroup: RBAC, kind, name });

const createCases: { name: string; def: ResourceDefinition; input: KubeObject; want: string[] }[] = [
  { name: 'role with a resource rule', def: roles, input: role([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]), want: [] },
  {
    name: 'rule without verbs, groups or resources',
    def: roles,
    input: role([{}]),
    want: [
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ],
  },
  {
    name: 'non-resource URLs in a namespaced role',
    def: roles,
    input: role([{ nonResourceURLs: ['/healthz'], verbs: ['get'] }]),
    want: ['rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs'],
  },
  {
    name: 'resource names with several resources',
    def: roles,
    input: role([{ apiGroups: [''], resources: ['pods', 'services'], resourceNames: ['a'], verbs: ['get'] }]),
    want: ['rules[0].resourceNames: Required value: resource names cannot apply to multiple resources'],
  },
  { name: 'cluster role with non-resource URLs', def: clusterRoles, input: clusterRole({ rules: [{ nonResourceURLs: ['/healthz', '/version'], verbs: ['get'] }] }), want: [] },
  {
    name: 'cluster role mixing resources and URLs',
    def: clusterRoles,
    input: clusterRole({ rules: [{ apiGroups: [''], resources: ['pods'], nonResourceURLs: ['/x'], verbs: ['get'] }] }),
    want: ['rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs'],
  },
  {
    name: 'aggregation rule without selectors',
    def: clusterRoles,
    input: clusterRole({ aggregationRule: { clusterRoleSelectors: [] } }),
    want: ['aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil'],
  },
  {
    name: 'aggregation selector with a bad operator',
    def: clusterRoles,
    input: clusterRole({ aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Near' }] }] } }),
    want: ['aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator'],
  },
  { name: 'aggregated cluster role', def: clusterRoles, input: clusterRole({ aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate': 'true' } }] } }), want: [] },
  { name: 'role binding to a cluster role', def: roleBindings, input: binding({ roleRef: ref('ClusterRole'), subjects: [{ kind: 'ServiceAccount', name: 'default' }] }), want: [] },
  {
    name: 'role binding to an unknown kind, no name, wrong group',
    def: roleBindings,
    input: binding({ roleRef: { apiGroup: 'example.com', kind: 'Policy', name: '' } }),
    want: [
      'roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
      'roleRef.kind: Unsupported value: "Policy": supported values: "Role", "ClusterRole"',
      'roleRef.name: Required value',
    ],
  },
  {
    name: 'roleRef name that is not a path segment',
    def: roleBindings,
    input: binding({ roleRef: ref('Role', 'a/b') }),
    want: ['roleRef.name: Invalid value: "a/b": may not contain \'/\''],
  },
  {
    name: 'subjects: unknown kind, nameless user, service account in the rbac group',
    def: roleBindings,
    input: binding({
      roleRef: ref('Role'),
      subjects: [
        { kind: 'Robot', name: 'r' },
        { kind: 'User', name: '' },
        { kind: 'ServiceAccount', apiGroup: RBAC, name: 'Bad_Name' },
        { kind: 'Group', apiGroup: 'example.com', name: 'devs' },
      ],
    }),
    want: [
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      'subjects[1].name: Required value',
      'subjects[1].name: Invalid value: "": user name cannot be empty',
      'subjects[2].name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
      'subjects[2].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
      'subjects[3].apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
    ],
  },
  {
    name: 'cluster role binding to a Role',
    def: clusterRoleBindings,
    input: clusterBinding({ roleRef: ref('Role') }),
    want: ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"'],
  },
  {
    name: 'cluster role binding to a service account without namespace',
    def: clusterRoleBindings,
    input: clusterBinding({ roleRef: ref('ClusterRole'), subjects: [{ kind: 'ServiceAccount', name: 'sa' }] }),
    want: ['subjects[0].namespace: Required value'],
  },
  { name: 'cluster role binding to a namespaced service account', def: clusterRoleBindings, input: clusterBinding({ roleRef: ref('ClusterRole'), subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: 'ns' }] }), want: [] },
];

describe('create', () => {
  for (const c of createCases) {
    test(c.name, async () => {
      const res = await h.create(c.def, c.input);
      expect(res.errors).toEqual(c.want);
      if (c.want.length === 0) expect(res.stored).toBeDefined();
      else expect(res.stored).toBeUndefined();
    });
  }

  test('names only need to be path segments, as kube allows', async () => {
    const ok = await h.create(clusterRoles, { metadata: { name: 'system:controller:Odd_Name' }, rules: [] });
    expect(ok.errors).toEqual([]);
    const bad = await h.create(clusterRoles, { metadata: { name: 'a%b' }, rules: [] });
    expect(bad.causes).toEqual([expect.objectContaining({ field: 'metadata.name', reason: 'FieldValueInvalid' })]);
  });
});

describe('defaults', () => {
  test('roleRef apiGroup and User/Group subjects get the rbac group; service accounts do not', async () => {
    const res = await h.create(roleBindings, binding({ roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'u' }, { kind: 'Group', name: 'g' }, { kind: 'ServiceAccount', name: 's' }] }));
    expect(res.errors).toEqual([]);
    expect(res.stored?.roleRef).toEqual({ apiGroup: RBAC, kind: 'Role', name: 'r' });
    expect(res.stored?.subjects).toEqual([
      { kind: 'User', apiGroup: RBAC, name: 'u' },
      { kind: 'Group', apiGroup: RBAC, name: 'g' },
      { kind: 'ServiceAccount', name: 's' },
    ]);
  });
});

describe('update', () => {
  for (const [def, obj, kind] of [
    [roleBindings, binding({ roleRef: ref('ClusterRole', 'view') }), 'RoleBinding'],
    [clusterRoleBindings, clusterBinding({ roleRef: ref('ClusterRole', 'view') }), 'ClusterRoleBinding'],
  ] as const) {
    test(`${kind}: roleRef cannot change; subjects can`, async () => {
      expect((await h.create(def, obj)).errors).toEqual([]);
      const changed = await h.update(def, { ...obj, roleRef: ref('ClusterRole', 'edit') });
      expect(changed.causes).toEqual([
        { field: 'roleRef', reason: 'FieldValueInvalid', message: 'Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef' },
      ]);
      expect(changed.stored?.roleRef).toEqual(ref('ClusterRole', 'view'));
      const subjects = [{ kind: 'User', apiGroup: RBAC, name: 'alice' }];
      const ok = await h.update(def, { ...obj, subjects });
      expect(ok.errors).toEqual([]);
      expect(ok.stored?.subjects).toEqual(subjects);
    });
  }

  test('PUT creates a missing role (kube allows create on update for RBAC kinds)', async () => {
    const res = await h.update(roles, role([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]));
    expect(res.errors).toEqual([]);
    expect(res.stored?.rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
  });

  test('updates revalidate the rules', async () => {
    expect((await h.create(clusterRoles, clusterRole({ rules: [] }))).errors).toEqual([]);
    const res = await h.update(clusterRoles, clusterRole({ rules: [{ apiGroups: [''], resources: ['pods'] }] }));
    expect(res.errors).toEqual(['rules[0].verbs: Required value: verbs must contain at least one value']);
  });
});

describe('tables', () => {
  const now = new Date('2026-01-02T03:04:05Z');
  const metadata = { name: 'b', creationTimestamp: '2026-01-02T03:04:00Z' };

  test('bindings: NAME ROLE AGE, then USERS GROUPS SERVICEACCOUNTS for -o wide', () => {
    const table = roleBindings.table!;
    expect(table.columns.map((c) => [c.name, c.priority])).toEqual([['Name', 0], ['Role', 0], ['Age', 0], ['Users', 1], ['Groups', 1], ['ServiceAccounts', 1]]);
    const obj: KubeObject = {
      metadata,
      roleRef: ref('ClusterRole', 'view'),
      subjects: [
        { kind: 'User', name: 'a' },
        { kind: 'User', name: 'b' },
        { kind: 'Group', name: 'g' },
        { kind: 'ServiceAccount', namespace: 'ns', name: 'sa' },
      ],
    };
    expect(table.cells(obj, now)).toEqual(['b', 'ClusterRole/view', '5s', 'a, b', 'g', 'ns/sa']);
    expect(clusterRoleBindings.table).toBe(table);
  });

  test('roles and cluster roles print kube\'s default NAME CREATED AT', () => {
    expect(roles.table).toBeUndefined();
    expect(clusterRoles.table).toBeUndefined();
  });
});

describe('hostile values are data', () => {
  test('prototype-named subjects and rule strings are stored as given', async () => {
    const res = await h.create(clusterRoleBindings, clusterBinding({ roleRef: ref('ClusterRole', 'constructor'), subjects: [{ kind: 'User', name: '__proto__' }, { kind: 'Group', name: 'toString' }] }));
    expect(res.errors).toEqual([]);
    expect(res.stored?.subjects).toEqual([
      { kind: 'User', apiGroup: RBAC, name: '__proto__' },
      { kind: 'Group', apiGroup: RBAC, name: 'toString' },
    ]);
    expect(({} as Record<string, unknown>).apiGroup).toBeUndefined();
    const rules = await h.create(clusterRoles, clusterRole({ rules: [{ apiGroups: ['__proto__'], resources: ['constructor'], verbs: ['hasOwnProperty'] }] }));
    expect(rules.errors).toEqual([]);
  });

});
