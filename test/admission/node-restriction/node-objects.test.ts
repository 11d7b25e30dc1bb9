// NodeRestriction on a node's own objects and credentials: its Node (labels,
// taints, configSource), Lease, CSINode, ResourceSlices, PVC status, service
// account tokens (with the audience restriction) and kubelet CSRs, with kube's
// messages (plugin/pkg/admission/noderestriction/admission.go).
import { beforeAll, describe, expect, test } from 'vitest';
import { nodeRestriction } from '../../../src/admission/plugins/node-restriction/index.js';
import type { AdmissionAttributes } from '../../../src/admission/plugin.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { csrRequest, forbidden, outcome, OPTIONS, request, RESOURCES, type Want } from './fixtures.js';

const node = (name: string, labels: Record<string, string> = {}, spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels },
  spec,
});
const NODE_A = node('node-a', { 'kubernetes.io/hostname': 'node-a', 'node-role.kubernetes.io/worker': '' }, { taints: [{ key: 'k', effect: 'NoSchedule' }] });
const nodeWrite = (over: Partial<AdmissionAttributes>): AdmissionAttributes => request({ ...RESOURCES.nodes, name: 'node-a', ...over });
const nodeUpdate = (object: KubeObject): AdmissionAttributes => nodeWrite({ operation: 'UPDATE', object, oldObject: NODE_A });
const relabel = (labels: Record<string, string>): KubeObject => ({ ...NODE_A, metadata: { ...NODE_A.metadata, labels } });
const respec = (spec: Record<string, unknown>): KubeObject => ({ ...NODE_A, spec });

const named = (kind: 'leases' | 'csinodes' | 'slices', op: AdmissionAttributes['operation'], name: string, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes =>
  request({ ...RESOURCES[kind], operation: op, name, ...(op === 'CREATE' ? { object: { metadata: { name } } } : {}), ...over });
const slice = (name: string, nodeName?: string): KubeObject => ({ metadata: { name }, spec: { driver: 'd', ...(nodeName === undefined ? { allNodes: true } : { nodeName }) } });

const PVC: KubeObject = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'default', resourceVersion: '7', labels: { a: 'b' } }, spec: { volumeName: 'pv' }, status: { phase: 'Bound', capacity: { storage: '1Gi' } } };
const pvcStatus = (object: KubeObject, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes =>
  request({ ...RESOURCES.pvcs, operation: 'UPDATE', subresource: 'status', name: 'c', object, oldObject: PVC, ...over });
const grown = (status: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject => ({ ...PVC, metadata: { ...PVC.metadata, resourceVersion: '', ...meta }, status: { ...(PVC.status as object), ...status } });

const tokenRequest = (boundObjectRef: unknown, audiences: string[] = ['vault']): AdmissionAttributes =>
  request({
    ...RESOURCES.serviceaccounts,
    subresource: 'token',
    name: 'default',
    object: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: { name: 'default' }, spec: { audiences, ...(boundObjectRef === undefined ? {} : { boundObjectRef }) } },
  });
const toPod = (name: string, uid = `uid-${name}`) => ({ apiVersion: 'v1', kind: 'Pod', name, uid });
const tokenRefused = (why: string): Want => forbidden('serviceaccounts "default"', why);
const notAuthorized = (audience: string): Want => tokenRefused(`audience "${audience}" not found in pod spec volume, system:node:node-a is not authorized to request tokens for this audience`);

const csr = (signerName: string, request64: string): AdmissionAttributes =>
  request({ ...RESOURCES.csrs, name: 'csr-1', object: { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'csr-1' }, spec: { signerName, request: request64, usages: [] } } });
const CLIENT = 'kubernetes.io/kube-apiserver-client-kubelet';
const requests = { own: '', other: '' };

function cases(): { name: string; input: AdmissionAttributes; want: Want }[] {
  return [
    // Its Node object.
    { name: 'registering itself with kubelet labels', input: nodeWrite({ object: node('node-a', { 'kubernetes.io/os': 'linux', 'node.kubernetes.io/instance-type': 'm', 'x.kubelet.kubernetes.io/y': '1', 'example.com/z': '1' }) }), want: 'allowed' },
    { name: 'labels named __proto__ are ordinary labels', input: nodeUpdate(relabel(JSON.parse('{"kubernetes.io/hostname":"node-a","node-role.kubernetes.io/worker":"","__proto__":"x","__proto__/y":"z"}'))), want: 'allowed' },
    {
      name: 'a restricted label beside __proto__',
      input: nodeUpdate(relabel(JSON.parse('{"kubernetes.io/hostname":"node-a","node-role.kubernetes.io/worker":"","__proto__":"x","node-restriction.kubernetes.io/__proto__":"z"}'))),
      want: forbidden('nodes "node-a"', 'is not allowed to modify labels: node-restriction.kubernetes.io/__proto__'),
    },
    { name: 'registering another node', input: nodeWrite({ name: 'node-b', object: node('node-b') }), want: forbidden('nodes "node-b"', 'node "node-a" is not allowed to modify node "node-b"') },
    {
      name: 'registering with restricted labels (sorted)',
      input: nodeWrite({ object: node('node-a', { 'node-restriction.kubernetes.io/x': '', 'foo.node-restriction.kubernetes.io/y': '', 'kubernetes.io/role': 'r', 'k8s.io/x': '', 'node-role.kubernetes.io/master': '' }) }),
      want: forbidden('nodes "node-a"', 'node "node-a" is not allowed to set the following labels: foo.node-restriction.kubernetes.io/y, k8s.io/x, kubernetes.io/role, node-restriction.kubernetes.io/x, node-role.kubernetes.io/master'),
    },
    { name: 'registering with a configSource', input: nodeWrite({ object: node('node-a', {}, { configSource: { configMap: {} } }) }), want: forbidden('nodes "node-a"', 'node "node-a" is not allowed to create pods with a non-nil configSource') },
    { name: 'updating kubelet labels', input: nodeUpdate(relabel({ ...NODE_A.metadata.labels, 'topology.kubernetes.io/zone': 'z' })), want: 'allowed' },
    { name: 'removing a role label', input: nodeUpdate(relabel({ 'kubernetes.io/hostname': 'node-a' })), want: forbidden('nodes "node-a"', 'is not allowed to modify labels: node-role.kubernetes.io/worker') },
    { name: 'changing its taints', input: nodeUpdate(respec({})), want: forbidden('nodes "node-a"', 'node "node-a" is not allowed to modify taints') },
    { name: 'setting a new configSource', input: nodeUpdate(respec({ ...NODE_A.spec as object, configSource: { configMap: {} } })), want: forbidden('nodes "node-a"', 'node "node-a" is not allowed to update configSource to a new non-nil configSource') },
    { name: 'status update of itself', input: nodeWrite({ operation: 'UPDATE', subresource: 'status', object: NODE_A, oldObject: NODE_A }), want: 'allowed' },
    { name: 'deleting itself', input: nodeWrite({ operation: 'DELETE', oldObject: NODE_A }), want: 'allowed' },
    { name: 'deleting another node', input: nodeWrite({ operation: 'DELETE', name: 'node-b' }), want: forbidden('nodes "node-b"', 'node "node-a" is not allowed to modify node "node-b"') },
    { name: 'a node named __proto__', input: nodeWrite({ name: '__proto__', object: node('__proto__') }), want: forbidden('nodes "__proto__"', 'node "node-a" is not allowed to modify node "__proto__"') },
    // Lease, CSINode, ResourceSlices.
    { name: 'creating its lease', input: named('leases', 'CREATE', 'node-a'), want: 'allowed' },
    { name: "creating another node's lease", input: named('leases', 'CREATE', 'node-b'), want: forbidden('leases.coordination.k8s.io "node-b"', 'can only access node lease with the same name as the requesting node') },
    { name: 'a lease elsewhere', input: named('leases', 'UPDATE', 'node-a', { namespace: 'default' }), want: forbidden('leases.coordination.k8s.io "node-a"', 'can only access leases in the "kube-node-lease" system namespace') },
    { name: "deleting another node's lease", input: named('leases', 'DELETE', 'node-b'), want: forbidden('leases.coordination.k8s.io "node-b"', 'can only access node lease with the same name as the requesting node') },
    { name: 'its CSINode', input: named('csinodes', 'CREATE', 'node-a'), want: 'allowed' },
    { name: "another node's CSINode", input: named('csinodes', 'UPDATE', 'node-b'), want: forbidden('csinodes.storage.k8s.io "node-b"', 'can only access CSINode with the same name as the requesting node') },
    { name: 'creating its ResourceSlice', input: named('slices', 'CREATE', 's', { object: slice('s', 'node-a') }), want: 'allowed' },
    { name: "creating another node's ResourceSlice", input: named('slices', 'CREATE', 's', { object: slice('s', 'node-b') }), want: forbidden('resourceslices.resource.k8s.io "s"', 'can only create ResourceSlice with the same NodeName as the requesting node') },
    { name: 'creating a slice for all nodes', input: named('slices', 'CREATE', 's', { object: slice('s') }), want: forbidden('resourceslices.resource.k8s.io "s"', 'can only create ResourceSlice with the same NodeName as the requesting node') },
    { name: 'deleting its ResourceSlice', input: named('slices', 'DELETE', 's', { oldObject: slice('s', 'node-a') }), want: 'allowed' },
    { name: "deleting another node's ResourceSlice", input: named('slices', 'DELETE', 's', { oldObject: slice('s', 'node-b') }), want: forbidden('resourceslices.resource.k8s.io "s"', 'can only delete ResourceSlice with the same NodeName as the requesting node') },
    // PVC status.
    { name: 'PVC capacity, conditions and allocation', input: pvcStatus(grown({ capacity: { storage: '2Gi' }, conditions: [{ type: 'Resizing' }], allocatedResources: { storage: '2Gi' } })), want: 'allowed' },
    { name: 'PVC phase through status', input: pvcStatus(grown({ phase: 'Lost' })), want: forbidden('persistentvolumeclaims "c"', 'node "node-a" is not allowed to update fields other than status.quantity and status.conditions: changed status.phase') },
    { name: 'PVC labels through status', input: pvcStatus(grown({}, { labels: {} })), want: forbidden('persistentvolumeclaims "c"', 'node "node-a" is not allowed to update fields other than status.quantity and status.conditions: changed metadata.labels.a') },
    { name: 'PVC status create', input: pvcStatus(PVC, { operation: 'CREATE' }), want: forbidden('persistentvolumeclaims "c"', 'unexpected operation "CREATE"') },
    { name: 'writing a PVC', input: request({ ...RESOURCES.pvcs, name: 'c', object: PVC }), want: forbidden('persistentvolumeclaims "c"', 'may only update PVC status') },
    // Tokens.
    { name: 'a token for its pod, audience of a projected token', input: tokenRequest(toPod('a1')), want: 'allowed' },
    { name: 'the API server audience, projected without one', input: tokenRequest(toPod('a1'), []), want: 'allowed' },
    { name: 'the audience of the CSI driver behind its claim', input: tokenRequest(toPod('a1'), ['csi-aud']), want: 'allowed' },
    { name: 'the audience of an inline CSI volume', input: tokenRequest(toPod('a1'), ['inline-aud']), want: 'allowed' },
    { name: 'an audience RBAC grants', input: tokenRequest(toPod('a1'), ['granted']), want: 'allowed' },
    { name: 'an audience nothing grants', input: tokenRequest(toPod('a1'), ['other']), want: notAuthorized('other') },
    { name: 'an audience whose authorization fails', input: tokenRequest(toPod('a1'), ['flaky']), want: tokenRefused('audience "flaky" not found in pod spec volume, error authorizing system:node:node-a to request tokens for this audience: webhook timed out') },
    { name: 'two audiences', input: tokenRequest(toPod('a1'), ['vault', 'csi-aud']), want: tokenRefused('node may only request 0 or 1 audiences') },
    { name: "a pod whose claim can't be read", input: tokenRequest(toPod('lost'), ['x']), want: tokenRefused('error validating audience "x": persistentvolumeclaim "claim-missing" not found') },
    { name: 'a token bound to nothing', input: tokenRequest(undefined), want: tokenRefused('node requested token not bound to a pod') },
    { name: 'a token bound to a secret', input: tokenRequest({ ...toPod('a1'), kind: 'Secret' }), want: tokenRefused('node requested token not bound to a pod') },
    { name: 'a pod binding without a uid', input: tokenRequest(toPod('a1', '')), want: tokenRefused('node requested token with a pod binding without a uid') },
    { name: 'a recreated pod', input: tokenRequest(toPod('a1', 'stale')), want: tokenRefused('the UID in the bound object reference (stale) does not match the UID in record. The object might have been deleted and then recreated') },
    { name: "another node's pod", input: tokenRequest(toPod('b1')), want: tokenRefused('node requested token bound to a pod scheduled on a different node') },
    { name: 'a missing pod', input: tokenRequest(toPod('ghost')), want: { code: 404, message: 'pod "ghost" not found' } },
    { name: 'creating a service account is not its business here', input: request({ ...RESOURCES.serviceaccounts, name: 'sa', object: { metadata: { name: 'sa' } } }), want: 'allowed' },
    // Kubelet CSRs.
    { name: 'a client CSR for itself', input: csr(CLIENT, requests.own), want: 'allowed' },
    { name: 'a serving CSR for another node', input: csr('kubernetes.io/kubelet-serving', requests.other), want: forbidden('certificatesigningrequests.certificates.k8s.io "csr-1"', 'can only create a node CSR with CN=system:node:node-a') },
    { name: 'a CSR for another signer', input: csr('example.com/signer', requests.other), want: 'allowed' },
    { name: 'a CSR that does not parse', input: csr(CLIENT, Buffer.from('garbage').toString('base64')), want: forbidden('certificatesigningrequests.certificates.k8s.io "csr-1"', 'unable to parse csr: PEM block type must be CERTIFICATE REQUEST') },
    // Everything else passes.
    { name: 'a config map', input: request({ ...RESOURCES.configmaps, name: 'cm', object: { metadata: { name: 'cm' } } }), want: 'allowed' },
  ];
}

describe('NodeRestriction: node objects', () => {
  beforeAll(async () => {
    requests.own = await csrRequest('CN=system:node:node-a, O=system:nodes');
    requests.other = await csrRequest('CN=system:node:node-b, O=system:nodes');
  });

  // Rows are built after the CSRs exist; names are known up front for test().
  for (const { name } of cases()) {
    test(name, async () => {
      const c = cases().find((row) => row.name === name)!;
      expect(await outcome(c.input)).toEqual(c.want);
    });
  }

  const gated: { name: string; input: () => AdmissionAttributes; features: NonNullable<typeof OPTIONS.features>; want: Want }[] = [
    { name: 'without the audience restriction any audience goes', input: () => tokenRequest(toPod('a1'), ['other']), features: { serviceAccountNodeAudienceRestriction: false }, want: 'allowed' },
    { name: 'insecure kubelet CSRs allowed', input: () => csr(CLIENT, requests.other), features: { allowInsecureKubeletCertificateSigningRequests: true }, want: 'allowed' },
    {
      name: 'without expansion recovery, allocatedResources is not the node\'s',
      input: () => pvcStatus(grown({ allocatedResources: { storage: '2Gi' } })),
      features: { recoverVolumeExpansionFailure: false },
      want: forbidden('persistentvolumeclaims "c"', 'node "node-a" is not allowed to update fields other than status.quantity and status.conditions: changed status.allocatedResources'),
    },
  ];
  for (const c of gated) {
    test(`feature gate: ${c.name}`, async () => {
      expect(await outcome(c.input(), nodeRestriction({ ...OPTIONS, features: c.features }))).toEqual(c.want);
    });
  }
});
