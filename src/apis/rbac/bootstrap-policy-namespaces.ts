// The Roles and RoleBindings of kube-apiserver 1.36's default policy that live in
// a namespace (kube's bootstrappolicy/namespace_policy.go; testdata
// namespace-roles.yaml and namespace-role-bindings.yaml): leader election for the
// controller manager and scheduler, the authentication ConfigMap reader for
// extension API servers, and the bootstrap signer, token cleaner and cloud
// provider in kube-system and kube-public.
import { CORE, EVENTS, READ, rule, type PolicyRule } from './bootstrap-policy-rules.js';
import type { BootstrapSubject } from './bootstrap-policy-cluster-roles.js';

export interface BootstrapRole {
  readonly namespace: string;
  readonly name: string;
  readonly rules: readonly PolicyRule[];
}

export interface BootstrapRoleBinding {
  readonly namespace: string;
  readonly name: string;
  /** The Role (in the same namespace) it grants. */
  readonly role: string;
  readonly subjects: readonly BootstrapSubject[];
}

const LEADER_LOCKING = [rule('create get list update watch', ['coordination.k8s.io'], 'leases'), rule('create get list update watch', ['coordination.k8s.io'], 'leasecandidates')];

export const NAMESPACED_ROLES: readonly BootstrapRole[] = [
  { namespace: 'kube-system', name: 'extension-apiserver-authentication-reader', rules: [rule(READ, CORE, 'configmaps', 'extension-apiserver-authentication')] },
  { namespace: 'kube-system', name: 'system::leader-locking-kube-controller-manager', rules: LEADER_LOCKING },
  { namespace: 'kube-system', name: 'system::leader-locking-kube-scheduler', rules: LEADER_LOCKING },
  { namespace: 'kube-system', name: 'system:controller:bootstrap-signer', rules: [rule(READ, CORE, 'secrets')] },
  { namespace: 'kube-system', name: 'system:controller:cloud-provider', rules: [rule('create get list watch', CORE, 'configmaps')] },
  { namespace: 'kube-system', name: 'system:controller:token-cleaner', rules: [rule('delete get list watch', CORE, 'secrets'), EVENTS] },
  {
    namespace: 'kube-public',
    name: 'system:controller:bootstrap-signer',
    rules: [rule(READ, CORE, 'configmaps'), rule('update', CORE, 'configmaps', 'cluster-info'), EVENTS],
  },
  // Not kube's default policy but kubeadm's (clusterinfo.CreateClusterInfoRBACRules):
  // kapi publishes kube-public/cluster-info as kubeadm does, so it also lets
  // `kubeadm join --token` read it before it has credentials.
  { namespace: 'kube-public', name: 'kubeadm:bootstrap-signer-clusterinfo', rules: [rule('get', CORE, 'configmaps', 'cluster-info')] },
];

const sa = (name: string): BootstrapSubject => ({ kind: 'ServiceAccount', name, namespace: 'kube-system' });
const user = (name: string): BootstrapSubject => ({ kind: 'User', name });

export const NAMESPACED_ROLE_BINDINGS: readonly BootstrapRoleBinding[] = [
  {
    namespace: 'kube-system',
    name: 'system::extension-apiserver-authentication-reader',
    role: 'extension-apiserver-authentication-reader',
    subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler')],
  },
  {
    namespace: 'kube-system',
    name: 'system::leader-locking-kube-controller-manager',
    role: 'system::leader-locking-kube-controller-manager',
    subjects: [user('system:kube-controller-manager'), sa('kube-controller-manager'), sa('leader-election-controller')],
  },
  {
    namespace: 'kube-system',
    name: 'system::leader-locking-kube-scheduler',
    role: 'system::leader-locking-kube-scheduler',
    subjects: [user('system:kube-scheduler'), sa('kube-scheduler')],
  },
  { namespace: 'kube-system', name: 'system:controller:bootstrap-signer', role: 'system:controller:bootstrap-signer', subjects: [sa('bootstrap-signer')] },
  { namespace: 'kube-system', name: 'system:controller:cloud-provider', role: 'system:controller:cloud-provider', subjects: [sa('cloud-provider')] },
  { namespace: 'kube-system', name: 'system:controller:token-cleaner', role: 'system:controller:token-cleaner', subjects: [sa('token-cleaner')] },
  { namespace: 'kube-public', name: 'system:controller:bootstrap-signer', role: 'system:controller:bootstrap-signer', subjects: [sa('bootstrap-signer')] },
  // kubeadm's, beside its Role above: the user, not a group (an impersonated group is not enough).
  { namespace: 'kube-public', name: 'kubeadm:bootstrap-signer-clusterinfo', role: 'kubeadm:bootstrap-signer-clusterinfo', subjects: [user('system:anonymous')] },
];
