// Which zero values survive decoding.
//
// Go's generated marshallers write every non-pointer field, zero or not, so a
// kubectl request carries `generateName: ""`, `stdin: false`, `generation: 0`…
// Go's JSON, which clients and kube-apiserver show, omits those (`omitempty`), and
// Go itself cannot tell them from absent. Pointer fields are the exception: there a
// zero on the wire is a choice (`replicas: 0`, `automountServiceAccountToken: false`,
// `storageClassName: ""`, `gracePeriodSeconds: 0`) and must survive.
//
// The .proto files do not say which Go fields are pointers, so the decoder drops
// zero scalars except (a) fields OpenAPI lists as required, which Go writes without
// omitempty (SubjectAccessReviewStatus.allowed, PriorityClass.value: the generator
// marks them), and (b) the fields below (`<Message>.<jsonName>`, any package
// version): pointer fields whose zero means something other than "unset". Keyed by
// message because names repeat with other meanings: DeploymentStatus.replicas is a
// plain int.
// TODO(#3): derive this from Go type information if the reference set ever carries it.
export const KEEP_ZERO: ReadonlySet<string> = new Set([
  // workloads
  'DeploymentSpec.replicas',
  'DeploymentSpec.revisionHistoryLimit',
  'DeploymentSpec.progressDeadlineSeconds',
  'ReplicaSetSpec.replicas',
  'ReplicationControllerSpec.replicas',
  'StatefulSetSpec.replicas',
  'StatefulSetSpec.revisionHistoryLimit',
  'DaemonSetSpec.revisionHistoryLimit',
  'RollingUpdateStatefulSetStrategy.partition',
  'ScaleSpec.replicas',
  'HorizontalPodAutoscalerSpec.minReplicas',
  'JobSpec.parallelism',
  'JobSpec.completions',
  'JobSpec.backoffLimit',
  'JobSpec.backoffLimitPerIndex',
  'JobSpec.maxFailedIndexes',
  'JobSpec.activeDeadlineSeconds',
  'JobSpec.ttlSecondsAfterFinished',
  'JobSpec.suspend',
  'JobSpec.manualSelector',
  'CronJobSpec.startingDeadlineSeconds',
  'CronJobSpec.successfulJobsHistoryLimit',
  'CronJobSpec.failedJobsHistoryLimit',
  'CronJobSpec.suspend',
  // pods and containers
  'PodSpec.terminationGracePeriodSeconds',
  'PodSpec.activeDeadlineSeconds',
  'PodSpec.automountServiceAccountToken',
  'PodSpec.enableServiceLinks',
  'PodSpec.shareProcessNamespace',
  'PodSpec.setHostnameAsFQDN',
  'PodSpec.hostUsers',
  'PodSpec.priority',
  'ServiceAccount.automountServiceAccountToken',
  'SecurityContext.privileged',
  'SecurityContext.allowPrivilegeEscalation',
  'SecurityContext.readOnlyRootFilesystem',
  'SecurityContext.runAsNonRoot',
  'SecurityContext.runAsUser',
  'SecurityContext.runAsGroup',
  'PodSecurityContext.runAsNonRoot',
  'PodSecurityContext.runAsUser',
  'PodSecurityContext.runAsGroup',
  'PodSecurityContext.fsGroup',
  'Toleration.tolerationSeconds',
  // volumes and references
  'ConfigMapVolumeSource.defaultMode',
  'ConfigMapVolumeSource.optional',
  'SecretVolumeSource.defaultMode',
  'SecretVolumeSource.optional',
  'ProjectedVolumeSource.defaultMode',
  'DownwardAPIVolumeSource.defaultMode',
  'KeyToPath.mode',
  'DownwardAPIVolumeFile.mode',
  'ConfigMapKeySelector.optional',
  'SecretKeySelector.optional',
  'ConfigMapEnvSource.optional',
  'SecretEnvSource.optional',
  'ConfigMapProjection.optional',
  'SecretProjection.optional',
  'ServiceAccountTokenProjection.expirationSeconds',
  'PersistentVolumeClaimSpec.storageClassName',
  'StorageClass.allowVolumeExpansion',
  'ServiceSpec.allocateLoadBalancerNodePorts',
  'EndpointConditions.ready',
  'EndpointConditions.serving',
  'EndpointConditions.terminating',
  // metadata, deletion, tokens and reviews
  'ObjectMeta.deletionGracePeriodSeconds',
  'OwnerReference.controller',
  'OwnerReference.blockOwnerDeletion',
  'DeleteOptions.gracePeriodSeconds',
  'DeleteOptions.orphanDependents',
  'ConfigMap.immutable',
  'Secret.immutable',
  'TokenRequestSpec.expirationSeconds',
  // non-omitempty fields the reference OpenAPI does not list as required
  'TokenRequestStatus.token',
  'SubjectAccessReviewStatus.allowed',
  'PriorityClass.value',
  'TableColumnDefinition.format',
  'TableColumnDefinition.description',
  'TableColumnDefinition.priority',
]);

/** Whether a zero value of `field` in `message` (short name, e.g. PodSpec) is kept. */
export function keepsZero(message: string, field: string): boolean {
  return KEEP_ZERO.has(`${message}.${field}`);
}
