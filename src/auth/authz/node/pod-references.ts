// What a pod or a persistent volume names, for the node authorizer's graph: the
// secrets, config maps, claims and service account a kubelet must read to run the
// pod. Follows kube's pkg/api/v1/pod VisitPodSecretNames / VisitPodConfigmapNames,
// pkg/api/v1/persistentvolume VisitPVSecretNames, component-helpers' ephemeral
// VolumeClaimName and dynamic-resource-allocation's resourceclaim.Name. Objects come
// from storage, already schema-typed; reads still go through own members only.
import type { KubeObject } from '../../../schema/object.js';
import { getField, ownField } from '../../../schema/field-path.js';

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Every container kind kube's VisitContainers(AllContainers) walks: init, regular, ephemeral. */
function containers(pod: KubeObject): unknown[] {
  const spec = ownField(pod, 'spec');
  return [...list(ownField(spec, 'initContainers')), ...list(ownField(spec, 'containers')), ...list(ownField(spec, 'ephemeralContainers'))];
}

function volumes(pod: KubeObject): unknown[] {
  return list(getField(pod, 'spec.volumes'));
}

/** Names, without the empty ones (kube's skipEmptyNames). */
function named(names: readonly unknown[]): string[] {
  return names.map(str).filter((n) => n !== '');
}

/** Volume sources whose secret is `<source>.secretRef.name`. */
const SECRET_REF_SOURCES = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'] as const;

export function podSecretNames(pod: KubeObject): string[] {
  const names: unknown[] = list(getField(pod, 'spec.imagePullSecrets')).map((r) => ownField(r, 'name'));
  for (const c of containers(pod)) {
    for (const from of list(ownField(c, 'envFrom'))) names.push(getField(from, 'secretRef.name'));
    for (const env of list(ownField(c, 'env'))) names.push(getField(env, 'valueFrom.secretKeyRef.name'));
  }
  for (const v of volumes(pod)) {
    names.push(getField(v, 'azureFile.secretName'), getField(v, 'secret.secretName'), getField(v, 'csi.nodePublishSecretRef.name'));
    for (const source of SECRET_REF_SOURCES) names.push(getField(v, [source, 'secretRef', 'name']));
    for (const p of list(getField(v, 'projected.sources'))) names.push(getField(p, 'secret.name'));
  }
  return named(names);
}

export function podConfigMapNames(pod: KubeObject): string[] {
  const names: unknown[] = [];
  for (const c of containers(pod)) {
    for (const from of list(ownField(c, 'envFrom'))) names.push(getField(from, 'configMapRef.name'));
    for (const env of list(ownField(c, 'env'))) names.push(getField(env, 'valueFrom.configMapKeyRef.name'));
  }
  for (const v of volumes(pod)) {
    names.push(getField(v, 'configMap.name'));
    for (const p of list(getField(v, 'projected.sources'))) names.push(getField(p, 'configMap.name'));
  }
  return named(names);
}

/** PVCs of `persistentVolumeClaim` volumes, and of generic ephemeral volumes (`<pod>-<volume>`). */
export function podClaimNames(pod: KubeObject): string[] {
  const names: string[] = [];
  for (const v of volumes(pod)) {
    const claim = str(getField(v, 'persistentVolumeClaim.claimName'));
    if (claim !== '') names.push(claim);
    else if (ownField(v, 'ephemeral') !== undefined) names.push(`${pod.metadata.name ?? ''}-${str(ownField(v, 'name'))}`);
  }
  return names;
}

/**
 * ResourceClaims the pod uses: a claim named in the spec, a claim generated from
 * a template once status.resourceClaimStatuses names it (none yet: no edge), and
 * the claim for extended resources (status.extendedResourceClaimStatus).
 */
export function podResourceClaimNames(pod: KubeObject): string[] {
  const statuses = list(getField(pod, 'status.resourceClaimStatuses'));
  const names: unknown[] = [];
  for (const claim of list(getField(pod, 'spec.resourceClaims'))) {
    const direct = ownField(claim, 'resourceClaimName');
    if (typeof direct === 'string') names.push(direct);
    else if (typeof ownField(claim, 'resourceClaimTemplateName') === 'string') {
      const status = statuses.find((s) => str(ownField(s, 'name')) === str(ownField(claim, 'name')));
      names.push(ownField(status, 'resourceClaimName'));
    }
  }
  names.push(getField(pod, 'status.extendedResourceClaimStatus.resourceClaimName'));
  return named(names);
}

export interface SecretRef {
  readonly namespace: string;
  readonly name: string;
}

/**
 * The secrets of a PV the kubelet reads (kube's kubeletVisible ones: CSI's
 * controller publish/expand secrets are the attacher's, not the node's). Sources
 * with an optional secret namespace fall back to the claim's namespace.
 */
export function pvKubeletSecrets(pv: KubeObject): SecretRef[] {
  const source = ownField(pv, 'spec');
  const claimNs = str(getField(source, 'claimRef.namespace'));
  const refs: SecretRef[] = [];
  const add = (namespace: unknown, name: unknown, fallback: boolean): void => {
    const ns = str(namespace);
    if (str(name) !== '') refs.push({ namespace: ns === '' && fallback ? claimNs : ns, name: str(name) });
  };
  if (ownField(source, 'azureFile') !== undefined) add(getField(source, 'azureFile.secretNamespace'), getField(source, 'azureFile.secretName'), true);
  for (const s of ['cephfs', 'flexVolume', 'rbd', 'scaleIO', 'iscsi'] as const) {
    add(getField(source, [s, 'secretRef', 'namespace']), getField(source, [s, 'secretRef', 'name']), true);
  }
  // Cinder and StorageOS take the reference's namespace as written.
  for (const s of ['cinder', 'storageos'] as const) add(getField(source, [s, 'secretRef', 'namespace']), getField(source, [s, 'secretRef', 'name']), false);
  for (const s of ['nodePublishSecretRef', 'nodeStageSecretRef', 'nodeExpandSecretRef'] as const) {
    add(getField(source, ['csi', s, 'namespace']), getField(source, ['csi', s, 'name']), false);
  }
  return refs;
}
