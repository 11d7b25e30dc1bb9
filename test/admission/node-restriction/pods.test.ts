// NodeRestriction on pods: mirror pods, deletes, status and evictions, with
// kube's messages (plugin/pkg/admission/noderestriction/admission.go).
import { describe, expect, test } from 'vitest';
import { nodeRestriction } from '../../../src/admission/plugins/node-restriction/index.js';
import type { AdmissionAttributes } from '../../../src/admission/plugin.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { forbidden, nodeUser, outcome, OPTIONS, pod, request, type Want } from './fixtures.js';

const OWNER = { apiVersion: 'v1', kind: 'Node', name: 'node-a', uid: 'node-a-uid', controller: true };
const MIRROR = { 'kubernetes.io/config.mirror': 'hash' };

function mirror(spec: Record<string, unknown> = {}, meta: Partial<KubeObject['metadata']> = {}, nodeName = 'node-a'): KubeObject {
  return pod('web', nodeName, spec, { annotations: MIRROR, ownerReferences: [OWNER], ...meta });
}

const create = (object: KubeObject, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => request({ object, ...over });
const refused = (why: string, name = 'web'): Want => forbidden(`pods "${name}"`, why);
const references = (what: string): Want => refused(`node "node-a" can not create pods that reference ${what}`);

const withStatus = (base: KubeObject, status: Record<string, unknown>, labels?: Record<string, string>): KubeObject => ({
  ...base,
  metadata: { ...base.metadata, ...(labels === undefined ? {} : { labels }) },
  status,
});
const A1 = pod('a1', 'node-a', {}, { labels: { app: 'a' } });
const statusUpdate = (oldObject: KubeObject, object: KubeObject, user = nodeUser('node-a')): AdmissionAttributes =>
  request({ operation: 'UPDATE', subresource: 'status', name: oldObject.metadata.name!, object, oldObject, user });
const CLAIMS = { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'a1-gpu' }] };
const eviction = (name: string, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes =>
  request({ subresource: 'eviction', name, object: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } }, ...over });

const cases: { name: string; input: AdmissionAttributes; want: Want }[] = [
  // Who is restricted.
  { name: 'a user that is not a node', input: create(pod('web', ''), { user: { username: 'alice', groups: [] } }), want: 'allowed' },
  { name: 'a node user outside system:nodes', input: create(pod('web', ''), { user: { username: 'system:node:node-a', groups: [] } }), want: 'allowed' },
  { name: 'a node whose name is empty', input: create(mirror(), { user: { username: 'system:node:', groups: ['system:nodes'] } }), want: refused('could not determine node from user "system:node:"') },
  // Mirror pods.
  { name: 'its own mirror pod', input: create(mirror()), want: 'allowed' },
  { name: 'a mirror pod with local volumes only', input: create(mirror({ volumes: [{ name: 'h', hostPath: { path: '/x' } }, { name: 'd', projected: { sources: [{ downwardAPI: {} }] } }, { name: 'e' }] })), want: 'allowed' },
  { name: 'a pod that is not a mirror pod', input: create(pod('web', 'node-a')), want: refused('pod does not have "kubernetes.io/config.mirror" annotation, node "node-a" can only create mirror pods') },
  { name: 'a mirror pod for another node', input: create(mirror({}, {}, 'node-b')), want: refused('node "node-a" can only create pods with spec.nodeName set to itself') },
  { name: 'two owners', input: create(mirror({}, { ownerReferences: [OWNER, OWNER] })), want: refused('node "node-a" can only create pods with a single owner reference set to itself') },
  { name: 'no owner', input: create(mirror({}, { ownerReferences: [] })), want: refused('node "node-a" can only create pods with an owner reference set to itself') },
  { name: 'owned by another node', input: create(mirror({}, { ownerReferences: [{ ...OWNER, name: 'node-b' }] })), want: refused('node "node-a" can only create pods with an owner reference set to itself') },
  { name: 'owner that is not the controller', input: create(mirror({}, { ownerReferences: [{ ...OWNER, controller: false }] })), want: refused('node "node-a" can only create pods with a controller owner reference set to itself') },
  { name: 'owner blocking deletion', input: create(mirror({}, { ownerReferences: [{ ...OWNER, blockOwnerDeletion: true }] })), want: refused('node "node-a" must not set blockOwnerDeletion on an owner reference') },
  { name: 'owner with a stale node uid', input: create(mirror({}, { ownerReferences: [{ ...OWNER, uid: 'old' }] })), want: refused('node node-a UID mismatch: expected old got node-a-uid') },
  { name: 'its Node object is missing', input: create(mirror({}, { ownerReferences: [{ ...OWNER, name: 'node-b' }] }, 'node-b'), { user: nodeUser('node-b') }), want: { code: 404, message: 'node "node-b" not found' } },
  { name: 'mirror pod with a service account', input: create(mirror({ serviceAccountName: 'default' })), want: references('serviceaccounts') },
  { name: 'mirror pod with a secret env', input: create(mirror({ containers: [{ name: 'c', image: 'i', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] }] })), want: references('secrets') },
  { name: 'mirror pod with an init container config map', input: create(mirror({ initContainers: [{ name: 'i', image: 'i', envFrom: [{ configMapRef: { name: 'cm' } }] }] })), want: references('configmaps') },
  { name: 'mirror pod with a claim', input: create(mirror({ volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] })), want: references('persistentvolumeclaims') },
  { name: 'mirror pod with an ephemeral volume', input: create(mirror({ volumes: [{ name: 'v', ephemeral: { volumeClaimTemplate: { spec: {} } } }] })), want: references('persistentvolumeclaims (via ephemeral volumes)') },
  { name: 'mirror pod with a projected token', input: create(mirror({ volumes: [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] })), want: references('serviceaccounts (via projected volumes)') },
  { name: 'mirror pod with a trust bundle', input: create(mirror({ volumes: [{ name: 'v', projected: { sources: [{ clusterTrustBundle: { path: 'b' } }] } }] })), want: references('clustertrustbundles') },
  { name: 'mirror pod with a CSI volume', input: create(mirror({ volumes: [{ name: 'v', csi: { driver: 'd' } }] })), want: references('csidrivers (via CSI volumes)') },
  { name: 'mirror pod with a ResourceClaim', input: create(mirror({ resourceClaims: [{ name: 'gpu', resourceClaimName: 'c' }] })), want: references('resourceclaims') },
  { name: 'mirror pod with an unknown volume type', input: create(mirror({ volumes: [{ name: 'weird', teleport: {} }] })), want: refused('error checking mirror pod for API references: unknown volume type for volume  "weird"') },
  { name: 'mirror pod with an unknown projection', input: create(mirror({ volumes: [{ name: 'p', projected: { sources: [{ teleport: {} }] } }] })), want: refused('error checking mirror pod for API references: unknown source for projected volume "p"') },
  { name: 'an own __proto__ annotation is not the mirror annotation', input: create(pod('web', 'node-a', {}, { annotations: JSON.parse('{"__proto__":"x"}') })), want: refused('pod does not have "kubernetes.io/config.mirror" annotation, node "node-a" can only create mirror pods') },
  { name: 'updating a pod', input: request({ operation: 'UPDATE', name: 'a1', object: A1, oldObject: A1 }), want: refused('unexpected operation "UPDATE", node "node-a" can only create and delete mirror pods', 'a1') },
  // Deletes (checked in the validating phase, on the stored pod).
  { name: 'deleting its pod', input: request({ operation: 'DELETE', name: 'a1', oldObject: A1 }), want: 'allowed' },
  { name: "deleting another node's pod", input: request({ operation: 'DELETE', name: 'b1', oldObject: pod('b1', 'node-b') }), want: refused('node "node-a" can only delete pods with spec.nodeName set to itself', 'b1') },
  { name: 'deleting by lookup', input: request({ operation: 'DELETE', name: 'b1' }), want: refused('node "node-a" can only delete pods with spec.nodeName set to itself', 'b1') },
  { name: 'deleting a pod the lookup does not know', input: request({ operation: 'DELETE', name: 'ghost' }), want: { code: 404, message: 'pod "ghost" not found' } },
  { name: 'deleting when the lookup fails', input: request({ operation: 'DELETE', name: 'explode' }), want: refused('etcd is down', 'explode') },
  // Status.
  { name: 'status of its pod', input: statusUpdate(withStatus(A1, CLAIMS), withStatus(A1, { phase: 'Running', ...CLAIMS })), want: 'allowed' },
  { name: "status of another node's pod", input: statusUpdate(pod('b1', 'node-b'), pod('b1', 'node-b')), want: refused('node "node-a" can only update pod status for pods with spec.nodeName set to itself', 'b1') },
  { name: 'labels through status', input: statusUpdate(A1, withStatus(A1, {}, { app: 'b' })), want: refused('node "node-a" cannot update labels through pod status', 'a1') },
  { name: 'claim statuses through status', input: statusUpdate(withStatus(A1, CLAIMS), withStatus(A1, { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'other' }] })), want: refused('node "node-a" cannot update resource claim statues', 'a1') },
  { name: 'extended claim status', input: statusUpdate(A1, withStatus(A1, { extendedResourceClaimStatus: { resourceClaimName: 'x', requestMappings: [] } })), want: refused('node "node-a" cannot update extended resource claim status', 'a1') },
  { name: 'status with a create', input: request({ subresource: 'status', name: 'a1', object: A1 }), want: refused('unexpected operation "CREATE"', 'a1') },
  // Evictions.
  { name: 'evicting its pod', input: eviction('a1'), want: 'allowed' },
  { name: 'evicting with the name only in the body', input: eviction('a1', { name: '' }), want: 'allowed' },
  { name: "evicting another node's pod", input: eviction('b1'), want: refused('node node-a can only evict pods with spec.nodeName set to itself', 'b1') },
  { name: 'evicting a missing pod', input: eviction('ghost'), want: { code: 404, message: 'pod "ghost" not found' } },
  { name: 'evicting nothing named', input: eviction('', { name: '' }), want: refused('could not determine pod from request data', 'Unknown') },
  { name: 'eviction update', input: eviction('a1', { operation: 'UPDATE' }), want: refused('unexpected operation UPDATE', 'a1') },
  // Other subresources.
  { name: 'exec is a connect: not this plugin', input: request({ operation: 'CONNECT', subresource: 'exec', name: 'b1' }), want: 'allowed' },
  { name: 'binding a pod', input: request({ subresource: 'binding', name: 'a1', object: { metadata: { name: 'a1' } } }), want: refused("unexpected pod subresource \"binding\", only 'status' and 'eviction' are allowed", 'a1') },
];

describe('NodeRestriction: pods', () => {
  for (const c of cases) {
    test(c.name, async () => {
      expect(await outcome(c.input)).toEqual(c.want);
    });
  }

  test('deletes are not checked in the mutating phase, writes not in the validating one', async () => {
    const plugin = nodeRestriction(OPTIONS);
    const lookup = { getNamespace: async () => undefined };
    await expect(Promise.resolve(plugin.admit!(request({ operation: 'DELETE', name: 'b1', oldObject: pod('b1', 'node-b') }), lookup))).resolves.toBeUndefined();
    await expect(Promise.resolve(plugin.validate!(create(pod('web', 'node-a')), lookup))).resolves.toBeUndefined();
  });
});
