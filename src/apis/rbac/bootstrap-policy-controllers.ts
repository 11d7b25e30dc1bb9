// The system:controller:* ClusterRoles of kube-apiserver 1.36's default policy
// (kube's bootstrappolicy/controller_policy.go under 1.36's default feature gates,
// as its testdata/controller-roles.yaml shows them). Each is bound by a
// ClusterRoleBinding of the same name to the controller's service account in
// kube-system (the name without the prefix), which bootstrap-policy.ts derives.
// Left out, as in a default 1.36 cluster: roles and rules only gates off by
// default add (DRADeviceTaints' device taint rules, the workload/pod-group
// scheduling rules, the ClusterTrustBundle publisher, the pod certificate request
// cleaner, the storage version garbage collector, the resource pool status one).
import { CORE, EVENTS, READ, rule, type PolicyRule } from './bootstrap-policy-rules.js';

export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

export interface BootstrapControllerRole {
  /** The controller's name: its role is system:controller:<name>, its service account kube-system/<name>. */
  readonly controller: string;
  readonly rules: readonly PolicyRule[];
}

const APPS_EXT = ['apps', 'extensions'];
const STORAGE = ['storage.k8s.io'];
const RESOURCE = ['resource.k8s.io'];
const NETWORKING = ['networking.k8s.io'];

export const CONTROLLER_ROLES: readonly BootstrapControllerRole[] = [
  {
    controller: 'attachdetach-controller',
    rules: [
      rule('list watch', CORE, 'persistentvolumeclaims persistentvolumes'),
      rule(READ, CORE, 'nodes'),
      rule('patch update', CORE, 'nodes/status'),
      rule('list watch', CORE, 'pods'),
      EVENTS,
      rule('create delete get list watch', STORAGE, 'volumeattachments'),
      rule(READ, STORAGE, 'csidrivers'),
      rule(READ, STORAGE, 'csinodes'),
    ],
  },
  {
    controller: 'certificate-controller',
    rules: [
      rule('delete get list watch', ['certificates.k8s.io'], 'certificatesigningrequests'),
      rule('update', ['certificates.k8s.io'], 'certificatesigningrequests/approval certificatesigningrequests/status'),
      rule('approve', ['certificates.k8s.io'], 'signers', 'kubernetes.io/kube-apiserver-client-kubelet'),
      rule(
        'sign',
        ['certificates.k8s.io'],
        'signers',
        'kubernetes.io/kube-apiserver-client kubernetes.io/kube-apiserver-client-kubelet kubernetes.io/kubelet-serving kubernetes.io/legacy-unknown',
      ),
      rule('create', ['authorization.k8s.io'], 'subjectaccessreviews'),
      EVENTS,
    ],
  },
  {
    // It must be able to write any rule into a ClusterRole, hence escalate.
    controller: 'clusterrole-aggregation-controller',
    rules: [rule('escalate get list patch update watch', ['rbac.authorization.k8s.io'], 'clusterroles')],
  },
  {
    controller: 'cronjob-controller',
    rules: [
      rule('get list update watch', ['batch'], 'cronjobs'),
      rule('create delete get list patch update watch', ['batch'], 'jobs'),
      rule('update', ['batch'], 'cronjobs/status'),
      rule('update', ['batch'], 'cronjobs/finalizers'),
      rule('delete list watch', CORE, 'pods'),
      EVENTS,
    ],
  },
  {
    controller: 'daemon-set-controller',
    rules: [
      rule(READ, APPS_EXT, 'daemonsets'),
      rule('update', APPS_EXT, 'daemonsets/status'),
      rule('update', APPS_EXT, 'daemonsets/finalizers'),
      rule('list watch', CORE, 'nodes'),
      rule('create delete list patch watch', CORE, 'pods'),
      rule('create', CORE, 'pods/binding'),
      rule('create delete get list patch update watch', ['apps'], 'controllerrevisions'),
      EVENTS,
    ],
  },
  {
    controller: 'deployment-controller',
    rules: [
      rule('get list update watch', APPS_EXT, 'deployments'),
      rule('update', APPS_EXT, 'deployments/status'),
      rule('update', APPS_EXT, 'deployments/finalizers'),
      rule('create delete get list patch update watch', APPS_EXT, 'replicasets'),
      rule('get list update watch', CORE, 'pods'),
      EVENTS,
    ],
  },
  {
    controller: 'device-taint-eviction-controller',
    rules: [
      rule('delete get list watch', CORE, 'pods'),
      rule('patch update', CORE, 'pods/status'),
      rule(READ, RESOURCE, 'resourceclaims'),
      rule(READ, RESOURCE, 'resourceslices'),
      rule(READ, RESOURCE, 'deviceclasses'),
      EVENTS,
    ],
  },
  {
    controller: 'disruption-controller',
    rules: [
      rule(READ, APPS_EXT, 'deployments'),
      rule(READ, APPS_EXT, 'replicasets'),
      rule(READ, CORE, 'replicationcontrollers'),
      rule(READ, ['policy'], 'poddisruptionbudgets'),
      rule(READ, ['apps'], 'statefulsets'),
      rule('update', ['policy'], 'poddisruptionbudgets/status'),
      rule('patch update', CORE, 'pods/status'),
      rule('get', ['*'], '*/scale'),
      EVENTS,
    ],
  },
  {
    controller: 'endpoint-controller',
    rules: [
      rule(READ, CORE, 'pods services'),
      rule('create delete get list update watch', CORE, 'endpoints'),
      rule('create', CORE, 'endpoints/restricted'),
      EVENTS,
    ],
  },
  {
    controller: 'endpointslice-controller',
    rules: [
      rule(READ, CORE, 'nodes pods services'),
      rule('update', CORE, 'services/finalizers'),
      rule('create delete get list update watch', ['discovery.k8s.io'], 'endpointslices'),
      EVENTS,
    ],
  },
  {
    controller: 'endpointslicemirroring-controller',
    rules: [
      rule(READ, CORE, 'endpoints services'),
      rule('update', CORE, 'services/finalizers'),
      rule('update', CORE, 'endpoints/finalizers'),
      rule('create delete get list update watch', ['discovery.k8s.io'], 'endpointslices'),
      EVENTS,
    ],
  },
  {
    controller: 'ephemeral-volume-controller',
    rules: [
      rule(READ, CORE, 'pods'),
      rule('update', CORE, 'pods/finalizers'),
      rule('create get list watch', CORE, 'persistentvolumeclaims'),
      EVENTS,
    ],
  },
  {
    controller: 'expand-controller',
    rules: [
      rule('get list patch update watch', CORE, 'persistentvolumes'),
      rule('patch update', CORE, 'persistentvolumeclaims/status'),
      rule(READ, CORE, 'persistentvolumeclaims'),
      EVENTS,
    ],
  },
  {
    // Lists and watches every kind and edits owner references anywhere.
    controller: 'generic-garbage-collector',
    rules: [rule('delete get list patch update watch', ['*'], '*'), EVENTS],
  },
  {
    controller: 'horizontal-pod-autoscaler',
    rules: [
      rule(READ, ['autoscaling'], 'horizontalpodautoscalers'),
      rule('update', ['autoscaling'], 'horizontalpodautoscalers/status'),
      rule('get update', ['*'], '*/scale'),
      rule('list watch', CORE, 'pods'),
      rule('list watch', ['metrics.k8s.io'], 'pods'),
      rule(READ, ['custom.metrics.k8s.io'], '*'),
      rule(READ, ['external.metrics.k8s.io'], '*'),
      EVENTS,
    ],
  },
  {
    controller: 'job-controller',
    rules: [
      rule('get list patch update watch', ['batch'], 'jobs'),
      rule('update', ['batch'], 'jobs/status'),
      rule('update', ['batch'], 'jobs/finalizers'),
      rule('create delete list patch watch', CORE, 'pods'),
      EVENTS,
    ],
  },
  {
    controller: 'legacy-service-account-token-cleaner',
    rules: [
      rule('get', CORE, 'configmaps', 'kube-apiserver-legacy-service-account-token-tracking'),
      rule('delete patch', CORE, 'secrets'),
    ],
  },
  {
    controller: 'namespace-controller',
    rules: [
      rule('delete get list watch', CORE, 'namespaces'),
      rule('update', CORE, 'namespaces/finalize namespaces/status'),
      rule('delete deletecollection get list watch', ['*'], '*'),
    ],
  },
  {
    controller: 'node-controller',
    rules: [
      rule('delete get list patch update watch', CORE, 'nodes'),
      rule('patch update', CORE, 'nodes/status'),
      rule('patch update', CORE, 'pods/status'),
      rule('delete get list watch', CORE, 'pods'),
      EVENTS,
    ],
  },
  {
    controller: 'persistent-volume-binder',
    rules: [
      rule('create delete get list update watch', CORE, 'persistentvolumes'),
      rule('update', CORE, 'persistentvolumes/status'),
      rule('get list update watch', CORE, 'persistentvolumeclaims'),
      rule('update', CORE, 'persistentvolumeclaims/status'),
      rule('create delete get list watch', CORE, 'pods'),
      rule(READ, STORAGE, 'storageclasses'),
      rule('list watch', CORE, 'nodes'),
      EVENTS,
      rule('watch', CORE, 'events'),
    ],
  },
  {
    controller: 'pod-garbage-collector',
    rules: [rule('delete list watch', CORE, 'pods'), rule(READ, CORE, 'nodes'), rule('patch', CORE, 'pods/status')],
  },
  {
    controller: 'pv-protection-controller',
    rules: [rule('get list update watch', CORE, 'persistentvolumes'), EVENTS],
  },
  {
    controller: 'pvc-protection-controller',
    rules: [
      rule('get list update watch', CORE, 'persistentvolumeclaims'),
      rule('update', CORE, 'persistentvolumeclaims/status'),
      rule(READ, CORE, 'pods'),
      EVENTS,
    ],
  },
  {
    controller: 'replicaset-controller',
    rules: [
      rule('get list update watch', APPS_EXT, 'replicasets'),
      rule('update', APPS_EXT, 'replicasets/status'),
      rule('update', APPS_EXT, 'replicasets/finalizers'),
      rule('create delete list patch watch', CORE, 'pods'),
      EVENTS,
    ],
  },
  {
    controller: 'replication-controller',
    rules: [
      rule('get list update watch', CORE, 'replicationcontrollers'),
      rule('update', CORE, 'replicationcontrollers/status'),
      rule('update', CORE, 'replicationcontrollers/finalizers'),
      rule('create delete list patch watch', CORE, 'pods'),
      EVENTS,
    ],
  },
  {
    controller: 'resource-claim-controller',
    rules: [
      rule(READ, CORE, 'pods'),
      rule('update', CORE, 'pods/finalizers'),
      rule('create delete get list watch', RESOURCE, 'resourceclaims'),
      rule('patch update', RESOURCE, 'resourceclaims resourceclaims/status'),
      rule('patch update', CORE, 'pods/status'),
      EVENTS,
      rule('patch update', RESOURCE, 'resourceclaims/binding'),
    ],
  },
  {
    // Counts every kind a quota can name.
    controller: 'resourcequota-controller',
    rules: [rule('list watch', ['*'], '*'), rule('update', CORE, 'resourcequotas/status'), EVENTS],
  },
  {
    controller: 'root-ca-cert-publisher',
    rules: [rule('create update', CORE, 'configmaps'), EVENTS],
  },
  {
    controller: 'route-controller',
    rules: [rule('list watch', CORE, 'nodes'), rule('patch', CORE, 'nodes/status'), EVENTS],
  },
  {
    controller: 'selinux-warning-controller',
    rules: [EVENTS, rule(READ, CORE, 'persistentvolumes'), rule(READ, CORE, 'persistentvolumeclaims'), rule(READ, CORE, 'pods'), rule(READ, STORAGE, 'csidrivers')],
  },
  {
    controller: 'service-account-controller',
    rules: [rule('create', CORE, 'serviceaccounts'), EVENTS],
  },
  {
    controller: 'service-cidrs-controller',
    rules: [
      rule('get list patch update watch', NETWORKING, 'servicecidrs'),
      rule('patch update', NETWORKING, 'servicecidrs/finalizers'),
      rule('patch update', NETWORKING, 'servicecidrs/status'),
      rule(READ, NETWORKING, 'ipaddresses'),
      EVENTS,
    ],
  },
  {
    controller: 'service-controller',
    rules: [rule(READ, CORE, 'services'), rule('patch update', CORE, 'services/status'), rule('list watch', CORE, 'nodes'), EVENTS],
  },
  {
    controller: 'statefulset-controller',
    rules: [
      rule('list watch', CORE, 'pods'),
      rule(READ, ['apps'], 'statefulsets'),
      rule('update', ['apps'], 'statefulsets/status'),
      rule('update', ['apps'], 'statefulsets/finalizers'),
      rule('create delete get patch update', CORE, 'pods'),
      rule('create delete get list patch update watch', ['apps'], 'controllerrevisions'),
      rule('create get list watch', CORE, 'persistentvolumeclaims'),
      rule('delete update', CORE, 'persistentvolumeclaims'),
      rule('update', CORE, 'pods/finalizers'),
      EVENTS,
    ],
  },
  {
    controller: 'ttl-after-finished-controller',
    rules: [rule('delete get list watch', ['batch'], 'jobs'), EVENTS],
  },
  {
    controller: 'ttl-controller',
    rules: [rule('list patch update watch', CORE, 'nodes'), EVENTS],
  },
  {
    controller: 'validatingadmissionpolicy-status-controller',
    rules: [
      rule(READ, ['admissionregistration.k8s.io'], 'validatingadmissionpolicies'),
      rule('get patch update', ['admissionregistration.k8s.io'], 'validatingadmissionpolicies/status'),
      EVENTS,
    ],
  },
  {
    controller: 'volumeattributesclass-protection-controller',
    rules: [
      rule(READ, CORE, 'persistentvolumeclaims'),
      rule(READ, CORE, 'persistentvolumes'),
      rule('get list update watch', STORAGE, 'volumeattributesclasses'),
      EVENTS,
    ],
  },
];
