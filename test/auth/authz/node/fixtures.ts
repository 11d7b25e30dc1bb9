// A small cluster for the node authorizer's tests: pods bound to node-a and node-b
// (and one unbound, one mirror pod) using secrets, config maps, claims, a service
// account and a ResourceClaim; PVs bound to the claims; an attachment and a slice.
// Written straight into a memory Storage under the registry's keys.
import type { AuthorizationAttributes } from '../../../../src/auth/authz/authorizer.js';
import { createNodeAuthorization, type NodeAuthorization } from '../../../../src/auth/authz/node/index.js';
import { CLUSTER_ROLES } from '../../../../src/apis/rbac/bootstrap-policy-cluster-roles.js';
import { pods } from '../../../../src/apis/core/v1/pods.js';
import { persistentVolumes } from '../../../../src/apis/core/v1/persistent-volumes.js';
import { volumeAttachments } from '../../../../src/apis/storage/v1/volume-attachments.js';
import { resourceSlices } from '../../../../src/apis/resource/v1/kinds.js';
import { collectionPrefix, objectKey } from '../../../../src/registry/keys.js';
import type { KubeObject } from '../../../../src/schema/object.js';
import type { UserInfo } from '../../../../src/schema/user.js';
import { openMemoryKv } from '../../../../src/storage/memory/memory-kv.js';
import { createObjectStore } from '../../../../src/storage/object-store.js';
import type { Storage } from '../../../../src/storage/storage.js';

export const nodeUser = (node: string): UserInfo => ({ username: `system:node:${node}`, groups: ['system:nodes', 'system:authenticated'] });

export const PREFIXES = {
  pods: collectionPrefix(pods, {}),
  persistentVolumes: collectionPrefix(persistentVolumes, {}),
  volumeAttachments: collectionPrefix(volumeAttachments, {}),
  resourceSlices: collectionPrefix(resourceSlices, {}),
};

export const NODE_RULES = CLUSTER_ROLES.find((r) => r.name === 'system:node')!.rules;

export function pod(name: string, nodeName: string, spec: Record<string, unknown>, meta: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, ...meta },
    spec: { ...(nodeName === '' ? {} : { nodeName }), containers: [{ name: 'c', image: 'i' }], ...spec },
  };
}

export const CLUSTER: readonly KubeObject[] = [
  pod('a1', 'node-a', {
    serviceAccountName: 'sa-a',
    imagePullSecrets: [{ name: 'pull' }],
    containers: [
      {
        name: 'c',
        image: 'i',
        env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 's-env', key: 'k' } } }],
        envFrom: [{ configMapRef: { name: 'cm-envfrom' } }],
      },
    ],
    volumes: [
      { name: 'v1', secret: { secretName: 's-vol' } },
      { name: 'v2', configMap: { name: 'cm-vol' } },
      { name: 'v3', persistentVolumeClaim: { claimName: 'claim-a' } },
      { name: 'v4', projected: { sources: [{ secret: { name: 's-proj' } }, { serviceAccountToken: { path: 't' } }] } },
      { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } },
    ],
    resourceClaims: [{ name: 'gpu', resourceClaimName: 'rc-a' }],
  }),
  pod('b1', 'node-b', {
    serviceAccountName: 'sa-b',
    volumes: [
      { name: 'v1', secret: { secretName: 's-b' } },
      { name: 'v2', configMap: { name: 'cm-b' } },
      { name: 'v3', persistentVolumeClaim: { claimName: 'claim-b' } },
    ],
  }),
  pod('pending', '', { volumes: [{ name: 'v', secret: { secretName: 's-pending' } }] }),
  pod('mirror', 'node-a', { volumes: [{ name: 'v', secret: { secretName: 's-mirror' } }] }, { annotations: { 'kubernetes.io/config.mirror': 'x' } }),
  // Hostile names are ordinary names: a pod and a secret called __proto__.
  pod('__proto__', 'node-a', { volumes: [{ name: 'v', secret: { secretName: '__proto__' } }] }),
  {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'pv-a' },
    spec: {
      claimRef: { namespace: 'default', name: 'claim-a' },
      csi: { driver: 'd', volumeHandle: 'h', nodePublishSecretRef: { namespace: 'default', name: 'csi-node' }, controllerPublishSecretRef: { namespace: 'default', name: 'csi-ctrl' } },
    },
  },
  { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-b' }, spec: { claimRef: { namespace: 'default', name: 'claim-b' } } },
  { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-free' }, spec: {} },
  { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'va-a' }, spec: { attacher: 'd', nodeName: 'node-a', source: {} } },
  { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: { name: 'slice-a' }, spec: { nodeName: 'node-a', driver: 'd', pool: {} } },
];

const DEFINITIONS = { Pod: pods, PersistentVolume: persistentVolumes, VolumeAttachment: volumeAttachments, ResourceSlice: resourceSlices };

export function keyOf(obj: KubeObject): string {
  const def = DEFINITIONS[obj.kind as keyof typeof DEFINITIONS];
  return objectKey(def, { namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' });
}

export async function writeAll(storage: Storage, objects: readonly KubeObject[]): Promise<void> {
  for (const obj of objects) await storage.create(keyOf(obj), obj);
}

export interface Cluster {
  readonly storage: Storage;
  readonly node: NodeAuthorization;
  close(): Promise<void>;
}

export async function startCluster(opts: { objects?: readonly KubeObject[]; storage?: Storage; retryMs?: number } = {}): Promise<Cluster> {
  const storage = opts.storage ?? createObjectStore({ kv: openMemoryKv() });
  await writeAll(storage, opts.objects ?? CLUSTER);
  const node = createNodeAuthorization({ storage, prefixes: PREFIXES, nodeRules: NODE_RULES, retryMs: opts.retryMs ?? 5 });
  await node.synced;
  return {
    storage,
    node,
    async close() {
      node.close();
      await storage.close();
    },
  };
}

/** A resource request by node-a for a core resource in default; override what a row needs. */
export function request(over: Partial<AuthorizationAttributes>): AuthorizationAttributes {
  return {
    user: nodeUser('node-a'),
    verb: 'get',
    isResourceRequest: true,
    path: '',
    namespace: 'default',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'secrets',
    subresource: '',
    name: '',
    ...over,
  };
}
