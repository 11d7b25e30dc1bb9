// The ClusterRoles and ClusterRoleBindings kube-apiserver 1.36's
// rbac/bootstrap-roles hook ensures for people and components (the controllers'
// own roles are in bootstrap-policy-controllers.ts), as data: kube's
// plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go with 1.36's default
// feature gates, taken from its testdata/cluster-roles-featuregates.yaml (every
// gate on) and cluster-role-bindings.yaml. Rules that only a gate off by default
// in 1.36 adds are left out: ClusterTrustBundle(Projection) (the
// system:cluster-trust-bundle-discovery role and binding, the node's bundles),
// PodCertificateRequest, CoordinatedLeaderElection (the scheduler's lease
// candidates), DRADeviceTaints, ComponentFlagz/Statusz (/flagz, /statusz).
import { CORE, EVENTS, READ, READ_WRITE, rule, urls, type PolicyRule } from './bootstrap-policy-rules.js';

export const AGGREGATE_TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
export const AGGREGATE_TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
export const AGGREGATE_TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';

export interface BootstrapClusterRole {
  readonly name: string;
  /** Labels besides kubernetes.io/bootstrapping (the aggregate-to-* ones). */
  readonly labels?: Readonly<Record<string, string>>;
  /** An aggregated role: the label whose ClusterRoles' rules it is made of (its rules start empty). */
  readonly aggregatedFrom?: string;
  readonly rules: readonly PolicyRule[];
}

export type BootstrapSubject =
  | { readonly kind: 'User' | 'Group'; readonly name: string }
  | { readonly kind: 'ServiceAccount'; readonly name: string; readonly namespace: string };

export interface BootstrapClusterRoleBinding {
  readonly name: string;
  /** The ClusterRole it grants; kube names each binding after its role. */
  readonly role: string;
  readonly subjects: readonly BootstrapSubject[];
}

const AUTHN = ['authentication.k8s.io'];
const AUTHZ = ['authorization.k8s.io'];
const CERTS = ['certificates.k8s.io'];
const STORAGE = ['storage.k8s.io'];
const RESOURCE = ['resource.k8s.io'];
const COORDINATION = ['coordination.k8s.io'];
const WRITE = 'create delete deletecollection patch update';

const approver = (name: string, signer: string): BootstrapClusterRole => ({
  name: `system:certificates.k8s.io:${name}`,
  rules: [rule('approve', CERTS, 'signers', signer)],
});

export const CLUSTER_ROLES: readonly BootstrapClusterRole[] = [
  // A super-user: every verb on everything, and every URL.
  { name: 'cluster-admin', rules: [rule('*', ['*'], '*'), urls('*', '*')] },
  { name: 'system:discovery', rules: [urls('get', '/api /api/* /apis /apis/* /healthz /livez /openapi /openapi/* /readyz /version /version/')] },
  { name: 'system:monitoring', rules: [urls('get', '/healthz /healthz/* /livez /livez/* /metrics /metrics/slis /readyz /readyz/*')] },
  {
    name: 'system:basic-user',
    rules: [rule('create', AUTHZ, 'selfsubjectaccessreviews selfsubjectrulesreviews'), rule('create', AUTHN, 'selfsubjectreviews')],
  },
  { name: 'system:public-info-viewer', rules: [urls('get', '/healthz /livez /readyz /version /version/')] },
  // The user-facing roles are aggregated from the system:aggregate-to-* roles below (and any user role so labelled).
  { name: 'admin', aggregatedFrom: AGGREGATE_TO_ADMIN, rules: [] },
  { name: 'edit', labels: { [AGGREGATE_TO_ADMIN]: 'true' }, aggregatedFrom: AGGREGATE_TO_EDIT, rules: [] },
  { name: 'view', labels: { [AGGREGATE_TO_EDIT]: 'true' }, aggregatedFrom: AGGREGATE_TO_VIEW, rules: [] },
  {
    name: 'system:aggregate-to-admin',
    labels: { [AGGREGATE_TO_ADMIN]: 'true' },
    rules: [rule('create', AUTHZ, 'localsubjectaccessreviews'), rule(READ_WRITE, ['rbac.authorization.k8s.io'], 'rolebindings roles')],
  },
  {
    name: 'system:aggregate-to-edit',
    labels: { [AGGREGATE_TO_EDIT]: 'true' },
    rules: [
      rule(READ, CORE, 'pods/attach pods/exec pods/portforward pods/proxy secrets services/proxy'),
      rule('impersonate', CORE, 'serviceaccounts'),
      rule(WRITE, CORE, 'pods pods/attach pods/exec pods/portforward pods/proxy'),
      rule('create', CORE, 'pods/eviction'),
      rule(WRITE, CORE, 'configmaps events persistentvolumeclaims replicationcontrollers replicationcontrollers/scale secrets serviceaccounts services services/proxy'),
      rule('create', CORE, 'serviceaccounts/token'),
      rule(WRITE, ['apps'], 'daemonsets deployments deployments/rollback deployments/scale replicasets replicasets/scale statefulsets statefulsets/scale'),
      rule(WRITE, ['autoscaling'], 'horizontalpodautoscalers'),
      rule(WRITE, ['batch'], 'cronjobs jobs'),
      rule(WRITE, ['extensions'], 'daemonsets deployments deployments/rollback deployments/scale ingresses networkpolicies replicasets replicasets/scale replicationcontrollers/scale'),
      rule(WRITE, ['policy'], 'poddisruptionbudgets'),
      rule(WRITE, ['networking.k8s.io'], 'ingresses networkpolicies'),
      rule(READ_WRITE, COORDINATION, 'leases'),
      rule(WRITE, RESOURCE, 'resourceclaims resourceclaimtemplates'),
    ],
  },
  {
    name: 'system:aggregate-to-view',
    labels: { [AGGREGATE_TO_VIEW]: 'true' },
    rules: [
      rule(READ, CORE, 'configmaps endpoints persistentvolumeclaims persistentvolumeclaims/status pods replicationcontrollers replicationcontrollers/scale serviceaccounts services services/status'),
      rule(READ, CORE, 'bindings events limitranges namespaces/status pods/log pods/status replicationcontrollers/status resourcequotas resourcequotas/status'),
      rule(READ, CORE, 'namespaces'),
      rule(READ, ['discovery.k8s.io'], 'endpointslices'),
      rule(READ, ['apps'], 'controllerrevisions daemonsets daemonsets/status deployments deployments/scale deployments/status replicasets replicasets/scale replicasets/status statefulsets statefulsets/scale statefulsets/status'),
      rule(READ, ['autoscaling'], 'horizontalpodautoscalers horizontalpodautoscalers/status'),
      rule(READ, ['batch'], 'cronjobs cronjobs/status jobs jobs/status'),
      rule(READ, ['extensions'], 'daemonsets daemonsets/status deployments deployments/scale deployments/status ingresses ingresses/status networkpolicies replicasets replicasets/scale replicasets/status replicationcontrollers/scale'),
      rule(READ, ['policy'], 'poddisruptionbudgets poddisruptionbudgets/status'),
      rule(READ, ['networking.k8s.io'], 'ingresses ingresses/status networkpolicies'),
      rule(READ, RESOURCE, 'resourceclaims resourceclaims/status resourceclaimtemplates'),
    ],
  },
  { name: 'system:heapster', rules: [rule(READ, CORE, 'events namespaces nodes pods'), rule(READ, ['extensions'], 'deployments')] },
  {
    name: 'system:node',
    rules: [
      rule('create', AUTHN, 'tokenreviews'),
      rule('create', AUTHZ, 'localsubjectaccessreviews subjectaccessreviews'),
      rule(READ, CORE, 'services'),
      rule('create get list watch', CORE, 'nodes'),
      rule('patch update', CORE, 'nodes/status'),
      rule('patch update', CORE, 'nodes'),
      rule('create patch update', CORE, 'events'),
      rule(READ, CORE, 'pods'),
      rule('create delete', CORE, 'pods'),
      rule('patch update', CORE, 'pods/status'),
      rule('create', CORE, 'pods/eviction'),
      rule(READ, CORE, 'configmaps secrets'),
      rule('get', CORE, 'persistentvolumeclaims persistentvolumes'),
      rule('get', CORE, 'endpoints'),
      rule('create get list watch', CERTS, 'certificatesigningrequests'),
      rule('create delete get patch update', COORDINATION, 'leases'),
      rule('get', STORAGE, 'volumeattachments'),
      rule('create', CORE, 'serviceaccounts/token'),
      rule('get patch update', CORE, 'persistentvolumeclaims/status'),
      rule(READ, STORAGE, 'csidrivers'),
      rule('create delete get patch update', STORAGE, 'csinodes'),
      rule(READ, ['node.k8s.io'], 'runtimeclasses'),
      rule('get', RESOURCE, 'resourceclaims'),
      rule('deletecollection', RESOURCE, 'resourceslices'),
      // KubeletServiceAccountTokenForCredentialProviders (on by default since 1.34).
      rule('get', CORE, 'serviceaccounts'),
    ],
  },
  {
    name: 'system:node-proxier',
    rules: [
      rule('list watch', CORE, 'endpoints services'),
      rule(READ, CORE, 'nodes'),
      EVENTS,
      rule('list watch', ['networking.k8s.io'], 'servicecidrs'),
      rule('list watch', ['discovery.k8s.io'], 'endpointslices'),
    ],
  },
  {
    name: 'system:kubelet-api-admin',
    rules: [
      rule(READ, CORE, 'nodes'),
      rule('proxy', CORE, 'nodes'),
      rule('*', CORE, 'nodes/log nodes/metrics nodes/proxy nodes/stats'),
      // KubeletFineGrainedAuthz (on by default since 1.33).
      rule('*', CORE, 'nodes/configz nodes/healthz nodes/pods'),
    ],
  },
  { name: 'system:node-bootstrapper', rules: [rule('create get list watch', CERTS, 'certificatesigningrequests')] },
  { name: 'system:auth-delegator', rules: [rule('create', AUTHN, 'tokenreviews'), rule('create', AUTHZ, 'subjectaccessreviews')] },
  { name: 'system:kube-aggregator', rules: [rule(READ, CORE, 'endpoints services')] },
  {
    name: 'system:kube-controller-manager',
    rules: [
      EVENTS,
      rule('create', COORDINATION, 'leases'),
      rule('get update', COORDINATION, 'leases', 'kube-controller-manager'),
      rule('create', CORE, 'secrets serviceaccounts'),
      rule('delete', CORE, 'secrets'),
      rule('get', CORE, 'configmaps namespaces secrets serviceaccounts'),
      rule('update', CORE, 'secrets serviceaccounts'),
      rule('create', AUTHN, 'tokenreviews'),
      rule('create', AUTHZ, 'subjectaccessreviews'),
      rule('list watch', ['*'], '*'),
      rule('create', CORE, 'serviceaccounts/token'),
    ],
  },
  {
    name: 'system:kube-dns',
    rules: [rule('list watch', CORE, 'endpoints services')],
  },
  {
    name: 'system:persistent-volume-provisioner',
    rules: [
      rule('create delete get list watch', CORE, 'persistentvolumes'),
      rule('get list update watch', CORE, 'persistentvolumeclaims'),
      rule(READ, STORAGE, 'storageclasses'),
      rule('watch', CORE, 'events'),
      EVENTS,
    ],
  },
  {
    name: 'system:kube-scheduler',
    rules: [
      EVENTS,
      rule('create', COORDINATION, 'leases'),
      rule('get update', COORDINATION, 'leases', 'kube-scheduler'),
      rule(READ, CORE, 'nodes'),
      rule('delete get list watch', CORE, 'pods'),
      rule('create', CORE, 'bindings pods/binding'),
      rule('patch update', CORE, 'pods/status'),
      rule(READ, CORE, 'replicationcontrollers services'),
      rule(READ, ['apps', 'extensions'], 'replicasets'),
      rule(READ, ['apps'], 'statefulsets'),
      rule(READ, ['policy'], 'poddisruptionbudgets'),
      rule(READ, CORE, 'persistentvolumeclaims persistentvolumes'),
      rule('create', AUTHN, 'tokenreviews'),
      rule('create', AUTHZ, 'subjectaccessreviews'),
      rule(READ, STORAGE, 'csinodes'),
      rule(READ, STORAGE, 'volumeattachments'),
      rule(READ, CORE, 'namespaces'),
      rule(READ, STORAGE, 'csidrivers'),
      rule(READ, STORAGE, 'csistoragecapacities'),
      // DynamicResourceAllocation (GA since 1.34).
      rule(READ, RESOURCE, 'deviceclasses'),
      rule('get list patch update watch', RESOURCE, 'resourceclaims'),
      rule('get list patch update watch', RESOURCE, 'resourceclaims/status'),
      rule('get list patch update watch', CORE, 'pods/finalizers'),
      rule(READ, RESOURCE, 'resourceslices'),
    ],
  },
  {
    name: 'system:volume-scheduler',
    rules: [rule('get list patch update watch', CORE, 'persistentvolumes'), rule(READ, STORAGE, 'storageclasses'), rule('get list patch update watch', CORE, 'persistentvolumeclaims')],
  },
  {
    name: 'system:node-problem-detector',
    rules: [rule('get', CORE, 'nodes'), rule('patch', CORE, 'nodes/status'), EVENTS],
  },
  {
    name: 'system:service-account-issuer-discovery',
    rules: [urls('get', '/.well-known/openid-configuration /.well-known/openid-configuration/ /openid/v1/jwks /openid/v1/jwks/')],
  },
  { name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', rules: [rule('create', CERTS, 'certificatesigningrequests/nodeclient')] },
  { name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', rules: [rule('create', CERTS, 'certificatesigningrequests/selfnodeclient')] },
  approver('kube-apiserver-client-approver', 'kubernetes.io/kube-apiserver-client'),
  approver('kube-apiserver-client-kubelet-approver', 'kubernetes.io/kube-apiserver-client-kubelet'),
  approver('kubelet-serving-approver', 'kubernetes.io/kubelet-serving'),
  approver('legacy-unknown-approver', 'kubernetes.io/legacy-unknown'),
];

const user = (name: string): BootstrapSubject => ({ kind: 'User', name });
const group = (name: string): BootstrapSubject => ({ kind: 'Group', name });

export const CLUSTER_ROLE_BINDINGS: readonly BootstrapClusterRoleBinding[] = [
  { name: 'cluster-admin', role: 'cluster-admin', subjects: [group('system:masters')] },
  { name: 'system:monitoring', role: 'system:monitoring', subjects: [group('system:monitoring')] },
  { name: 'system:discovery', role: 'system:discovery', subjects: [group('system:authenticated')] },
  { name: 'system:basic-user', role: 'system:basic-user', subjects: [group('system:authenticated')] },
  { name: 'system:public-info-viewer', role: 'system:public-info-viewer', subjects: [group('system:authenticated'), group('system:unauthenticated')] },
  // No subjects: nodes are authorized by the Node authorizer; the binding is kept for clusters that add some.
  { name: 'system:node', role: 'system:node', subjects: [] },
  { name: 'system:node-proxier', role: 'system:node-proxier', subjects: [user('system:kube-proxy')] },
  { name: 'system:kube-controller-manager', role: 'system:kube-controller-manager', subjects: [user('system:kube-controller-manager')] },
  { name: 'system:kube-dns', role: 'system:kube-dns', subjects: [{ kind: 'ServiceAccount', name: 'kube-dns', namespace: 'kube-system' }] },
  { name: 'system:kube-scheduler', role: 'system:kube-scheduler', subjects: [user('system:kube-scheduler')] },
  { name: 'system:volume-scheduler', role: 'system:volume-scheduler', subjects: [user('system:kube-scheduler')] },
  { name: 'system:service-account-issuer-discovery', role: 'system:service-account-issuer-discovery', subjects: [group('system:serviceaccounts')] },
];
