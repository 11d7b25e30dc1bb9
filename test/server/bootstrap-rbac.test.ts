// The default RBAC policy is ensured as kube-apiserver 1.36's rbac/bootstrap-roles
// hook ensures it: the same objects as kube's bootstrappolicy testdata (every
// name, the counts per kind, a sample of exact objects), reconciled on every
// start (missing rules and subjects added, nothing taken away, autoupdate=false
// left alone, a changed roleRef recreated), and a restart writes nothing.
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createAdmissionChain } from '../../src/admission/chain.js';
import { createRegistry } from '../../src/registry/registry.js';
import type { KubeObject } from '../../src/schema/object.js';
import { bootstrapNamespaces } from '../../src/server/bootstrap.js';
import { bootstrapRbac } from '../../src/server/bootstrap-rbac.js';
import { builtinKinds, createStoreHarness, type StoreHarness } from '../support/store-harness.js';

const gvr = (resource: string) => ({ group: 'rbac.authorization.k8s.io', version: 'v1', resource });
const CR = gvr('clusterroles');
const CRB = gvr('clusterrolebindings');
const ROLES = gvr('roles');
const RBS = gvr('rolebindings');

/** Every ClusterRole of testdata/cluster-roles.yaml and controller-roles.yaml under 1.36's default gates. */
const CLUSTER_ROLE_NAMES = [
  'admin', 'cluster-admin', 'edit', 'system:aggregate-to-admin', 'system:aggregate-to-edit', 'system:aggregate-to-view', 'system:auth-delegator',
  'system:basic-user', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
  'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', 'system:certificates.k8s.io:kube-apiserver-client-approver',
  'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', 'system:certificates.k8s.io:kubelet-serving-approver',
  'system:certificates.k8s.io:legacy-unknown-approver', 'system:discovery', 'system:heapster', 'system:kube-aggregator',
  'system:kube-controller-manager', 'system:kube-dns', 'system:kube-scheduler', 'system:kubelet-api-admin', 'system:monitoring', 'system:node',
  'system:node-bootstrapper', 'system:node-problem-detector', 'system:node-proxier', 'system:persistent-volume-provisioner',
  'system:public-info-viewer', 'system:service-account-issuer-discovery', 'system:volume-scheduler', 'view',
];
const CONTROLLERS = [
  'attachdetach-controller', 'certificate-controller', 'clusterrole-aggregation-controller', 'cronjob-controller', 'daemon-set-controller',
  'deployment-controller', 'device-taint-eviction-controller', 'disruption-controller', 'endpoint-controller', 'endpointslice-controller',
  'endpointslicemirroring-controller', 'ephemeral-volume-controller', 'expand-controller', 'generic-garbage-collector', 'horizontal-pod-autoscaler',
  'job-controller', 'legacy-service-account-token-cleaner', 'namespace-controller', 'node-controller', 'persistent-volume-binder',
  'pod-garbage-collector', 'pv-protection-controller', 'pvc-protection-controller', 'replicaset-controller', 'replication-controller',
  'resource-claim-controller', 'resourcequota-controller', 'root-ca-cert-publisher', 'route-controller', 'selinux-warning-controller',
  'service-account-controller', 'service-cidrs-controller', 'service-controller', 'statefulset-controller', 'ttl-after-finished-controller',
  'ttl-controller', 'validatingadmissionpolicy-status-controller', 'volumeattributesclass-protection-controller',
];
const CLUSTER_ROLE_BINDING_NAMES = [
  'cluster-admin', 'system:basic-user', 'system:discovery', 'system:kube-controller-manager', 'system:kube-dns', 'system:kube-scheduler',
  'system:monitoring', 'system:node', 'system:node-proxier', 'system:public-info-viewer', 'system:service-account-issuer-discovery',
  'system:volume-scheduler',
];

const fixture = (name: string) => (load(readFileSync(new URL(`../testdata/rbac-bootstrap/${name}`, import.meta.url), 'utf8')) as { items: KubeObject[] }).items;

/** The object as kube's testdata prints it: no server-set metadata, no empty rules. */
function comparable(obj: KubeObject): KubeObject {
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, generation: _g, managedFields: _m, ...meta } = obj.metadata;
  const out: KubeObject = { ...obj, metadata: meta };
  if (out.rules === null || (Array.isArray(out.rules) && out.rules.length === 0)) delete out.rules;
  return out;
}

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
  await bootstrapNamespaces(h.registry);
});
afterEach(async () => {
  await h.close();
});

const restarted = () => createRegistry({ storage: h.storage, resources: builtinKinds(h.storage), admission: createAdmissionChain(), clock: () => new Date() });
const list = async (r: typeof CR) => (await h.registry.store(r).list({})).items;
const names = async (r: typeof CR) => (await list(r)).map((o) => `${o.metadata.namespace === undefined ? '' : `${o.metadata.namespace}/`}${o.metadata.name}`).sort();
const get = (r: typeof CR, name: string, namespace?: string) => h.registry.store(r).get({ name, ...(namespace === undefined ? {} : { namespace }) });
const put = (r: typeof CR, obj: KubeObject) => h.registry.store(r).update(obj, { name: obj.metadata.name!, ...(obj.metadata.namespace === undefined ? {} : { namespace: obj.metadata.namespace }) });
const rvs = async () => Object.fromEntries((await Promise.all([CR, CRB, ROLES, RBS].map(list))).flat().map((o) => [`${o.kind}/${o.metadata.namespace}/${o.metadata.name}`, o.metadata.resourceVersion]));

describe('the set kube 1.36 ensures', () => {
  test('every name and the count per kind', async () => {
    const result = await bootstrapRbac(h.registry);
    const controllerRoles = CONTROLLERS.map((c) => `system:controller:${c}`);
    expect(await names(CR)).toEqual([...CLUSTER_ROLE_NAMES, ...controllerRoles].sort());
    expect(await names(CRB)).toEqual([...CLUSTER_ROLE_BINDING_NAMES, ...controllerRoles].sort());
    expect((await list(CR)).length).toBe(69);
    expect((await list(CRB)).length).toBe(50);
    // kube's namespaced set, plus kubeadm's cluster-info reader (kapi publishes cluster-info as kubeadm does).
    const kubeadm = 'kube-public/kubeadm:bootstrap-signer-clusterinfo';
    expect(await names(ROLES)).toEqual([...fixture('namespace-roles.yaml').map((o) => `${o.metadata.namespace}/${o.metadata.name}`), kubeadm].sort());
    expect(await names(RBS)).toEqual([...fixture('namespace-role-bindings.yaml').map((o) => `${o.metadata.namespace}/${o.metadata.name}`), kubeadm].sort());
    expect(result.created.length).toBe(69 + 50 + 8 + 8);
  });

  test.each([
    { file: 'cluster-roles-sample.yaml', resource: CR },
    { file: 'cluster-role-bindings-sample.yaml', resource: CRB },
    { file: 'namespace-roles.yaml', resource: ROLES },
    { file: 'namespace-role-bindings.yaml', resource: RBS },
  ])('$file: each object exactly as kube writes it', async ({ file, resource }) => {
    await bootstrapRbac(h.registry);
    for (const want of fixture(file)) {
      const got = await get(resource, want.metadata.name!, want.metadata.namespace);
      expect(comparable(got), `${want.metadata.namespace ?? ''}/${want.metadata.name}`).toEqual(comparable(want));
    }
  });

  test('every object carries the bootstrapping label and the autoupdate annotation', async () => {
    await bootstrapRbac(h.registry);
    for (const obj of (await Promise.all([CR, CRB, ROLES, RBS].map(list))).flat()) {
      expect(obj.metadata.labels?.['kubernetes.io/bootstrapping'], obj.metadata.name).toBe('rbac-defaults');
      expect(obj.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate'], obj.metadata.name).toBe('true');
    }
  });

  test('each controller role is bound to its service account in kube-system', async () => {
    await bootstrapRbac(h.registry);
    for (const c of CONTROLLERS) {
      const b = await get(CRB, `system:controller:${c}`);
      expect(b.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `system:controller:${c}` });
      expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: c, namespace: 'kube-system' }]);
    }
  });
});

describe('restarts', () => {
  test('a restart on the same data writes nothing', async () => {
    await bootstrapRbac(h.registry);
    const before = await rvs();
    const result = await bootstrapRbac(restarted());
    expect(result).toEqual({ created: [], updated: [], recreated: [], protected: [], served: true });
    expect(await rvs()).toEqual(before);
  });

  test('two replicas starting together converge on one copy of each object', async () => {
    const [a, b] = await Promise.all([bootstrapRbac(h.registry), bootstrapRbac(restarted())]);
    expect(a.created.length + b.created.length).toBe(69 + 50 + 8 + 8);
    expect((await list(CR)).length).toBe(69);
    const before = await rvs();
    await bootstrapRbac(restarted());
    expect(await rvs()).toEqual(before);
  });
});

type Rule = Record<string, unknown>;
const rulesOf = (o: KubeObject) => o.rules as Rule[];

describe('reconciliation at start', () => {
  test('a deleted role comes back', async () => {
    await bootstrapRbac(h.registry);
    await h.registry.store(CR).delete({ name: 'system:heapster' });
    const result = await bootstrapRbac(restarted());
    expect(result.created).toEqual(['clusterroles//system:heapster']);
    expect(rulesOf(await get(CR, 'system:heapster'))).toHaveLength(2);
  });

  test('a missing rule is added back, broken down as kube adds it; user rules stay', async () => {
    await bootstrapRbac(h.registry);
    const role = await get(CR, 'system:basic-user');
    const userRule = { verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] };
    // The SSAR/SSRR rule loses selfsubjectrulesreviews; a rule of the user's is added.
    await put(CR, { ...role, rules: [{ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] }, rulesOf(role)[1], userRule] });
    const result = await bootstrapRbac(restarted());
    expect(result.updated).toEqual(['clusterroles//system:basic-user']);
    expect(rulesOf(await get(CR, 'system:basic-user'))).toEqual([
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
      { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
      userRule,
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] },
    ]);
  });

  test('a rule covered by a broader one is not added', async () => {
    await bootstrapRbac(h.registry);
    const role = await get(CR, 'system:kube-dns');
    await put(CR, { ...role, rules: [{ verbs: ['*'], apiGroups: [''], resources: ['*'] }] });
    const result = await bootstrapRbac(restarted());
    expect(result.updated).toEqual([]);
  });

  test('an object annotated autoupdate=false is left alone', async () => {
    await bootstrapRbac(h.registry);
    const role = await get(CR, 'system:basic-user');
    await put(CR, { ...role, metadata: { ...role.metadata, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [] });
    const binding = await get(CRB, 'system:discovery');
    await put(CRB, { ...binding, metadata: { ...binding.metadata, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, subjects: [] });
    const before = await rvs();
    const result = await bootstrapRbac(restarted());
    expect([...result.protected].sort()).toEqual(['clusterrolebindings//system:discovery', 'clusterroles//system:basic-user']);
    expect(await rvs()).toEqual(before);
    expect(rulesOf(await get(CR, 'system:basic-user'))).toEqual([]);
  });

  test('labels and annotations are added back; values a user set are kept', async () => {
    await bootstrapRbac(h.registry);
    const role = await get(CR, 'view');
    await put(CR, { ...role, metadata: { ...role.metadata, labels: { 'kubernetes.io/bootstrapping': 'mine', team: 'a' }, annotations: {} } });
    await bootstrapRbac(restarted());
    const after = await get(CR, 'view');
    expect(after.metadata.labels).toEqual({ 'kubernetes.io/bootstrapping': 'mine', team: 'a', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
    expect(after.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
  });

  test('an aggregated role keeps its aggregated rules and gets its selector back', async () => {
    await bootstrapRbac(h.registry);
    const role = await get(CR, 'admin');
    const aggregated = [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }];
    const extra = { matchLabels: { team: 'a' } };
    await put(CR, { ...role, aggregationRule: { clusterRoleSelectors: [extra] }, rules: aggregated });
    await bootstrapRbac(restarted());
    const after = await get(CR, 'admin');
    expect(after.rules).toEqual(aggregated);
    expect(after.aggregationRule).toEqual({ clusterRoleSelectors: [extra, { matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] });
  });

  test('a missing subject is added to a binding; subjects a user added stay', async () => {
    await bootstrapRbac(h.registry);
    const b = await get(RBS, 'system::leader-locking-kube-scheduler', 'kube-system');
    const mine = { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' };
    await put(RBS, { ...b, subjects: [mine] });
    const result = await bootstrapRbac(restarted());
    expect(result.updated).toEqual(['rolebindings/kube-system/system::leader-locking-kube-scheduler']);
    expect((await get(RBS, 'system::leader-locking-kube-scheduler', 'kube-system')).subjects).toEqual([
      mine,
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'system:kube-scheduler' },
      { kind: 'ServiceAccount', name: 'kube-scheduler', namespace: 'kube-system' },
    ]);
  });

  test('a binding to another role is deleted and created again', async () => {
    await bootstrapRbac(h.registry);
    const store = h.registry.store(CRB);
    await store.delete({ name: 'system:monitoring' });
    await store.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:monitoring' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', name: 'bob' }],
    });
    const result = await bootstrapRbac(restarted());
    expect(result.recreated).toEqual(['clusterrolebindings//system:monitoring']);
    const after = await get(CRB, 'system:monitoring');
    expect(after.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:monitoring' });
    expect(after.subjects).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:monitoring' }]);
  });

  test('nothing is ensured when rbac.authorization.k8s.io is not served', async () => {
    const noRbac = createRegistry({
      storage: h.storage,
      resources: builtinKinds(h.storage).filter((d) => d.group !== 'rbac.authorization.k8s.io'),
      admission: createAdmissionChain(),
      clock: () => new Date(),
    });
    expect(await bootstrapRbac(noRbac)).toEqual({ created: [], updated: [], recreated: [], protected: [], served: false });
    expect(await list(CR)).toEqual([]);
  });
});
