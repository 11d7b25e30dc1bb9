// The Node mode's decisions over a fixed cluster (fixtures.ts), one row per kube
// behaviour of plugin/pkg/auth/authorizer/node/node_authorizer.go, reasons as kube
// words them. Graph changes over time are in graph-updates.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuthorizationAttributes, AuthorizationResult } from '../../../../src/auth/authz/authorizer.js';
import { NODE_RULES_UNSUPPORTED } from '../../../../src/auth/authz/node/index.js';
import { nodeUser, request, startCluster, type Cluster } from './fixtures.js';

const ALLOW: AuthorizationResult = { decision: 'Allow', reason: '' };
const none = (reason = ''): AuthorizationResult => ({ decision: 'NoOpinion', reason });
const unrelated = (node = 'node-a'): AuthorizationResult => none(`no relationship found between node '${node}' and this object`);
const B = nodeUser('node-b');

const cases: { name: string; input: Partial<AuthorizationAttributes>; want: AuthorizationResult }[] = [
  // Who is a node.
  { name: 'a user that is not a node', input: { user: { username: 'alice', groups: ['system:authenticated'] }, name: 's-vol' }, want: none() },
  { name: 'node name without the system:nodes group', input: { user: { username: 'system:node:node-a', groups: [] }, name: 's-vol' }, want: none() },
  { name: 'a node whose name is empty', input: { user: { username: 'system:node:', groups: ['system:nodes'] }, name: 's-vol' }, want: none('unknown node for user "system:node:"') },
  // Secrets and config maps its pods use.
  { name: 'secret of a secret volume', input: { name: 's-vol' }, want: ALLOW },
  { name: 'secret of an env valueFrom', input: { name: 's-env' }, want: ALLOW },
  { name: 'image pull secret', input: { name: 'pull' }, want: ALLOW },
  { name: 'secret of a projected volume', input: { name: 's-proj' }, want: ALLOW },
  { name: 'config map of envFrom', input: { resource: 'configmaps', name: 'cm-envfrom' }, want: ALLOW },
  { name: 'config map of a volume', input: { resource: 'configmaps', name: 'cm-vol' }, want: ALLOW },
  { name: 'watch of one named secret', input: { verb: 'watch', name: 's-vol' }, want: ALLOW },
  { name: "another node's pod's secret", input: { name: 's-b' }, want: unrelated() },
  { name: "node-b reads node-a's secret", input: { user: B, name: 's-vol' }, want: unrelated('node-b') },
  { name: 'node-b reads its own secret', input: { user: B, name: 's-b' }, want: ALLOW },
  { name: 'secret of an unbound pod', input: { name: 's-pending' }, want: unrelated() },
  { name: 'secret of a mirror pod grants nothing', input: { name: 's-mirror' }, want: unrelated() },
  { name: 'a secret in another namespace', input: { namespace: 'kube-system', name: 's-vol' }, want: unrelated() },
  { name: 'writing a secret', input: { verb: 'update', name: 's-vol' }, want: none('can only read resources of this type') },
  { name: 'secret subresource', input: { subresource: 'x', name: 's-vol' }, want: none('cannot read subresource') },
  { name: 'secrets across namespaces', input: { verb: 'list', namespace: '' }, want: none('can only read namespaced object of this type') },
  { name: 'listing secrets', input: { verb: 'list' }, want: none('No Object name found') },
  // Claims, volumes and their secrets.
  { name: 'claim of its pod', input: { resource: 'persistentvolumeclaims', name: 'claim-a' }, want: ALLOW },
  { name: 'claim of a generic ephemeral volume', input: { resource: 'persistentvolumeclaims', name: 'a1-scratch' }, want: ALLOW },
  { name: 'listing claims', input: { resource: 'persistentvolumeclaims', verb: 'list' }, want: none('can only get individual resources of this type') },
  { name: 'claim status patch', input: { resource: 'persistentvolumeclaims', subresource: 'status', verb: 'patch', name: 'claim-a' }, want: ALLOW },
  { name: 'claim status get', input: { resource: 'persistentvolumeclaims', subresource: 'status', name: 'claim-a' }, want: none('can only get/update/patch this type') },
  { name: "another node's claim status", input: { resource: 'persistentvolumeclaims', subresource: 'status', verb: 'update', name: 'claim-b' }, want: unrelated() },
  { name: 'PV bound to its claim', input: { resource: 'persistentvolumes', namespace: '', name: 'pv-a' }, want: ALLOW },
  { name: "PV bound to another node's claim", input: { resource: 'persistentvolumes', namespace: '', name: 'pv-b' }, want: unrelated() },
  { name: 'PV bound to nothing', input: { resource: 'persistentvolumes', namespace: '', name: 'pv-free' }, want: unrelated() },
  { name: "CSI node-publish secret of its PV", input: { name: 'csi-node' }, want: ALLOW },
  { name: 'CSI controller-publish secret is not for kubelets', input: { name: 'csi-ctrl' }, want: unrelated() },
  { name: 'ResourceClaim of its pod', input: { apiGroup: 'resource.k8s.io', resource: 'resourceclaims', name: 'rc-a' }, want: ALLOW },
  { name: 'its VolumeAttachment', input: { apiGroup: 'storage.k8s.io', resource: 'volumeattachments', namespace: '', name: 'va-a' }, want: ALLOW },
  { name: "node-b reads node-a's VolumeAttachment", input: { user: B, apiGroup: 'storage.k8s.io', resource: 'volumeattachments', namespace: '', name: 'va-a' }, want: unrelated('node-b') },
  // Service accounts.
  { name: 'token for its pod service account', input: { resource: 'serviceaccounts', subresource: 'token', verb: 'create', name: 'sa-a' }, want: ALLOW },
  { name: "token for another node's service account", input: { resource: 'serviceaccounts', subresource: 'token', verb: 'create', name: 'sa-b' }, want: unrelated() },
  { name: 'get of its pod service account', input: { resource: 'serviceaccounts', name: 'sa-a' }, want: ALLOW },
  { name: 'listing service accounts', input: { resource: 'serviceaccounts', verb: 'list' }, want: none('can only create tokens for individual service accounts') },
  { name: 'creating a service account', input: { resource: 'serviceaccounts', verb: 'create', name: 'sa-a' }, want: none('can only create token subresource of serviceaccount') },
  // Its own Lease, CSINode, Node.
  { name: 'its lease', input: { apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', verb: 'update', name: 'node-a' }, want: ALLOW },
  { name: 'creating a lease (name checked by NodeRestriction)', input: { apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', verb: 'create' }, want: ALLOW },
  { name: "another node's lease", input: { apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'node-b' }, want: none('can only access node lease with the same name as the requesting node') },
  { name: 'a lease elsewhere', input: { apiGroup: 'coordination.k8s.io', resource: 'leases', name: 'node-a' }, want: none('can only access leases in the "kube-node-lease" system namespace') },
  { name: 'listing leases', input: { apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', verb: 'list' }, want: none('can only get, create, update, patch, or delete a node lease') },
  { name: 'its CSINode', input: { apiGroup: 'storage.k8s.io', resource: 'csinodes', namespace: '', verb: 'patch', name: 'node-a' }, want: ALLOW },
  { name: "another node's CSINode", input: { apiGroup: 'storage.k8s.io', resource: 'csinodes', namespace: '', name: 'node-b' }, want: none('can only access CSINode with the same name as the requesting node') },
  { name: 'CSINode subresource', input: { apiGroup: 'storage.k8s.io', resource: 'csinodes', namespace: '', subresource: 's', name: 'node-a' }, want: none('cannot authorize CSINode subresources') },
  { name: 'its Node', input: { resource: 'nodes', namespace: '', name: 'node-a' }, want: ALLOW },
  { name: 'another Node', input: { resource: 'nodes', namespace: '', name: 'node-b' }, want: none("node 'node-a' cannot read 'node-b', only its own Node object") },
  { name: 'listing Nodes', input: { resource: 'nodes', namespace: '', verb: 'list' }, want: none("node 'node-a' cannot read all nodes, only its own Node object") },
  { name: 'Node status patch (NodeRestriction limits it)', input: { resource: 'nodes', namespace: '', subresource: 'status', verb: 'patch', name: 'node-b' }, want: ALLOW },
  { name: 'deleting a Node', input: { resource: 'nodes', namespace: '', verb: 'delete', name: 'node-a' }, want: none() },
  // Pods.
  { name: 'its pod', input: { resource: 'pods', name: 'a1' }, want: ALLOW },
  { name: "another node's pod", input: { resource: 'pods', name: 'b1' }, want: unrelated() },
  { name: 'pods listed with its spec.nodeName', input: { resource: 'pods', namespace: '', verb: 'list', fieldSelector: 'spec.nodeName=node-a' }, want: ALLOW },
  { name: 'pods watched with == and another term', input: { resource: 'pods', namespace: '', verb: 'watch', fieldSelector: 'status.phase!=Failed,spec.nodeName==node-a' }, want: ALLOW },
  { name: "pods listed with another node's name", input: { resource: 'pods', namespace: '', verb: 'list', fieldSelector: 'spec.nodeName=node-b' }, want: none('can only list/watch pods with spec.nodeName field selector') },
  { name: 'pods listed with != its name', input: { resource: 'pods', namespace: '', verb: 'list', fieldSelector: 'spec.nodeName!=node-a' }, want: none('can only list/watch pods with spec.nodeName field selector') },
  { name: 'a selector that does not parse', input: { resource: 'pods', namespace: '', verb: 'list', fieldSelector: 'spec.nodeName=node-a,x=bad\\q' }, want: none('can only list/watch pods with spec.nodeName field selector') },
  { name: 'an escaped comma is part of the value', input: { resource: 'pods', namespace: '', verb: 'list', fieldSelector: 'spec.nodeName=node-a\\,x' }, want: none('can only list/watch pods with spec.nodeName field selector') },
  { name: 'watch of one pod by name', input: { resource: 'pods', verb: 'watch', name: 'a1' }, want: ALLOW },
  { name: 'creating a pod (mirror pods; NodeRestriction limits it)', input: { resource: 'pods', verb: 'create' }, want: ALLOW },
  { name: 'pod status update', input: { resource: 'pods', subresource: 'status', verb: 'update', name: 'b1' }, want: ALLOW },
  { name: 'pod eviction', input: { resource: 'pods', subresource: 'eviction', verb: 'create', name: 'a1' }, want: ALLOW },
  { name: 'pod exec', input: { resource: 'pods', subresource: 'exec', verb: 'create', name: 'a1' }, want: none() },
  // ResourceSlices.
  { name: 'its ResourceSlice', input: { apiGroup: 'resource.k8s.io', resource: 'resourceslices', namespace: '', verb: 'update', name: 'slice-a' }, want: ALLOW },
  { name: "node-b's view of node-a's ResourceSlice", input: { user: B, apiGroup: 'resource.k8s.io', resource: 'resourceslices', namespace: '', name: 'slice-a' }, want: unrelated('node-b') },
  { name: 'ResourceSlices listed by node', input: { apiGroup: 'resource.k8s.io', resource: 'resourceslices', namespace: '', verb: 'deletecollection', fieldSelector: 'spec.nodeName=node-a' }, want: ALLOW },
  { name: 'ResourceSlices listed unscoped', input: { apiGroup: 'resource.k8s.io', resource: 'resourceslices', namespace: '', verb: 'list' }, want: none('can only list/watch/deletecollection resourceslices with nodeName field selector') },
  { name: 'ResourceSlice with an odd verb', input: { apiGroup: 'resource.k8s.io', resource: 'resourceslices', namespace: '', verb: 'escalate' }, want: none('only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection') },
  // Everything else: the static system:node rules.
  { name: 'creating events', input: { resource: 'events', verb: 'create' }, want: ALLOW },
  { name: 'reading endpoints', input: { resource: 'endpoints', name: 'x' }, want: ALLOW },
  { name: 'deleting deployments', input: { apiGroup: 'apps', resource: 'deployments', verb: 'delete', name: 'd' }, want: none() },
  { name: 'a non-resource URL', input: { isResourceRequest: false, path: '/healthz', resource: '', namespace: '' }, want: none() },
  // Hostile names.
  { name: 'a secret named __proto__ used by its pod', input: { name: '__proto__' }, want: ALLOW },
  { name: "node-b and node-a's __proto__ secret", input: { user: B, name: '__proto__' }, want: unrelated('node-b') },
  { name: 'a pod named __proto__', input: { resource: 'pods', name: '__proto__' }, want: ALLOW },
  { name: 'a secret named constructor', input: { name: 'constructor' }, want: unrelated() },
  { name: 'a name with a slash', input: { name: 's-vol/../s-b' }, want: unrelated() },
  { name: 'a namespace with a slash', input: { namespace: 'default/s-vol', name: 's-vol' }, want: unrelated() },
  { name: 'a resource named __proto__', input: { resource: '__proto__', name: 'x' }, want: none() },
];

describe('Node authorizer', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(async () => {
    await cluster.close();
  });

  for (const c of cases) {
    test(c.name, async () => {
      expect(await cluster.node.mode.authorize(request(c.input))).toEqual(c.want);
    });
  }

  const rules = [
    { name: 'a node: nothing enumerated, incomplete', input: nodeUser('node-a'), want: { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: NODE_RULES_UNSUPPORTED } },
    { name: 'a node without a name is still a node', input: { username: 'system:node:', groups: ['system:nodes'] }, want: { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: NODE_RULES_UNSUPPORTED } },
    { name: 'anyone else: nothing, complete', input: { username: 'alice', groups: [] }, want: { resourceRules: [], nonResourceRules: [], incomplete: false } },
  ];
  for (const c of rules) {
    test(`rulesFor: ${c.name}`, async () => {
      expect(await cluster.node.mode.rulesFor(c.input, 'default')).toEqual(c.want);
    });
  }
});
