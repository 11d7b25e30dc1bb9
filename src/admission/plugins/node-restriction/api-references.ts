// Whether a mirror pod references other API objects (kube's pkg/api/pod
// HasAPIObjectReference): a node may only create pods that grant it nothing, so
// any service account, secret, config map, claim or API-backed volume refuses
// the pod, naming the first kind found; so does a volume kind it does not know.
// The node graph reads the same fields to grant access (auth/authz/node/
// pod-references.ts); admission may not import auth/, so the list is repeated.
import { getField, ownField } from '../../../schema/field-path.js';
import type { KubeObject } from '../../../schema/object.js';
import { list, q, str } from './request.js';

/** Volume sources that read nothing from the API server. */
const LOCAL_VOLUMES: ReadonlySet<string> = new Set([
  'awsElasticBlockStore', 'azureDisk', 'cephfs', 'cinder', 'downwardAPI', 'emptyDir', 'fc', 'flexVolume', 'flocker', 'gcePersistentDisk',
  'gitRepo', 'hostPath', 'image', 'iscsi', 'nfs', 'photonPersistentDisk', 'portworxVolume', 'quobyte', 'rbd', 'scaleIO', 'storageos', 'vsphereVolume',
]);

/** Volume sources that do, with the words kube names them by. */
const API_VOLUMES: ReadonlyMap<string, string> = new Map([
  ['configMap', 'configmaps (via configmap volumes)'],
  ['secret', 'secrets (via secret volumes)'],
  ['csi', 'csidrivers (via CSI volumes)'],
  ['glusterfs', 'endpoints (via glusterFS volumes)'],
  ['persistentVolumeClaim', 'persistentvolumeclaims'],
  ['ephemeral', 'persistentvolumeclaims (via ephemeral volumes)'],
  ['azureFile', 'secrets (via azureFile volumes)'],
]);

const PROJECTED_SOURCES: ReadonlyMap<string, string> = new Map([
  ['configMap', 'configmaps (via projected volumes)'],
  ['secret', 'secrets (via projected volumes)'],
  ['serviceAccountToken', 'serviceaccounts (via projected volumes)'],
  ['clusterTrustBundle', 'clustertrustbundles'],
  ['podCertificate', 'podcertificates'],
]);

const SECRET_REF_VOLUMES = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'] as const;

function containers(pod: KubeObject): unknown[] {
  const spec = ownField(pod, 'spec');
  return [...list(ownField(spec, 'initContainers')), ...list(ownField(spec, 'containers')), ...list(ownField(spec, 'ephemeralContainers'))];
}

const hasName = (values: readonly unknown[]): boolean => values.some((v) => str(v) !== '');

/** kube's VisitPodSecretNames found anything (empty names skipped). */
function referencesSecrets(pod: KubeObject, volumes: readonly unknown[]): boolean {
  const names: unknown[] = list(getField(pod, 'spec.imagePullSecrets')).map((r) => ownField(r, 'name'));
  for (const c of containers(pod)) {
    for (const from of list(ownField(c, 'envFrom'))) names.push(getField(from, 'secretRef.name'));
    for (const env of list(ownField(c, 'env'))) names.push(getField(env, 'valueFrom.secretKeyRef.name'));
  }
  for (const v of volumes) {
    names.push(getField(v, 'azureFile.secretName'), getField(v, 'secret.secretName'), getField(v, 'csi.nodePublishSecretRef.name'));
    for (const source of SECRET_REF_VOLUMES) names.push(getField(v, [source, 'secretRef', 'name']));
    for (const p of list(getField(v, 'projected.sources'))) names.push(getField(p, 'secret.name'));
  }
  return hasName(names);
}

/** kube's VisitPodConfigmapNames found anything. */
function referencesConfigMaps(pod: KubeObject, volumes: readonly unknown[]): boolean {
  const names: unknown[] = [];
  for (const c of containers(pod)) {
    for (const from of list(ownField(c, 'envFrom'))) names.push(getField(from, 'configMapRef.name'));
    for (const env of list(ownField(c, 'env'))) names.push(getField(env, 'valueFrom.configMapKeyRef.name'));
  }
  for (const v of volumes) {
    names.push(getField(v, 'configMap.name'));
    for (const p of list(getField(v, 'projected.sources'))) names.push(getField(p, 'configMap.name'));
  }
  return hasName(names);
}

/** The source of a volume or projection: its one member besides `name` (and a projection's nothing else). */
const sourcesOf = (v: unknown): string[] => (v !== null && typeof v === 'object' ? Object.keys(v).filter((k) => k !== 'name') : []);

function volumeReference(v: unknown): string | Error | undefined {
  const sources = sourcesOf(v);
  // No source yet: defaulting (which in kapi runs after mutating admission) makes it an emptyDir.
  if (sources.length === 0 || sources.some((s) => LOCAL_VOLUMES.has(s))) return undefined;
  for (const [source, named] of API_VOLUMES) if (sources.includes(source)) return named;
  if (!sources.includes('projected')) return new Error(`unknown volume type for volume  ${q(str(ownField(v, 'name')))}`);
  for (const p of list(getField(v, 'projected.sources'))) {
    const kinds = sourcesOf(p);
    const named = [...PROJECTED_SOURCES].find(([kind]) => kinds.includes(kind));
    if (named !== undefined) return named[1];
    if (kinds.includes('downwardAPI')) continue;
    return new Error(`unknown source for projected volume ${q(str(ownField(v, 'name')))}`);
  }
  return undefined;
}

/** The plural resource a pod references first, an Error for a volume kube cannot judge, or undefined. */
export function apiObjectReference(pod: KubeObject): string | Error | undefined {
  if (str(getField(pod, 'spec.serviceAccountName')) !== '') return 'serviceaccounts';
  const volumes = list(getField(pod, 'spec.volumes'));
  if (referencesSecrets(pod, volumes)) return 'secrets';
  if (referencesConfigMaps(pod, volumes)) return 'configmaps';
  if (list(getField(pod, 'spec.resourceClaims')).length > 0) return 'resourceclaims';
  for (const v of volumes) {
    const found = volumeReference(v);
    if (found !== undefined) return found;
  }
  return undefined;
}
