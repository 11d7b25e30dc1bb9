// What NodeRestriction's tests share: a request builder, the current state its
// lookups read (pods on node-a and node-b, a PVC -> PV -> CSI driver chain, the
// Node), an authorizer stub that grants node-a one extra audience, a CSR parser
// built on the server's x509 library, and a runner that turns the plugin's answer
// into `'allowed'` or the Status code and message.
import { expect } from 'vitest';
import { nodeRestriction, type NodeRestrictionOptions } from '../../../src/admission/plugins/node-restriction/index.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../../src/admission/plugin.js';
import { x509 } from '../../../src/auth/pki/x509-lib.js';
import { generateKeyPair } from '../../../src/auth/pki/keys.js';
import { StatusError } from '../../../src/errors/status-error.js';
import type { KubeObject } from '../../../src/schema/object.js';
import type { UserInfo } from '../../../src/schema/user.js';

export const nodeUser = (node: string): UserInfo => ({ username: `system:node:${node}`, groups: ['system:nodes', 'system:authenticated'] });
export const NODE_A = nodeUser('node-a');

export type Want = 'allowed' | { readonly code: number; readonly message: string };

const GVR = (group: string, resource: string, version = 'v1') => ({ group, version, resource });

/** Request kinds by `<group>/<resource>`, so a row names only what it is about. */
export const RESOURCES = {
  pods: { resource: GVR('', 'pods'), kind: { group: '', version: 'v1', kind: 'Pod' } },
  nodes: { resource: GVR('', 'nodes'), kind: { group: '', version: 'v1', kind: 'Node' }, namespace: '' },
  pvcs: { resource: GVR('', 'persistentvolumeclaims'), kind: { group: '', version: 'v1', kind: 'PersistentVolumeClaim' } },
  serviceaccounts: { resource: GVR('', 'serviceaccounts'), kind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' } },
  leases: { resource: GVR('coordination.k8s.io', 'leases'), kind: { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' }, namespace: 'kube-node-lease' },
  csinodes: { resource: GVR('storage.k8s.io', 'csinodes'), kind: { group: 'storage.k8s.io', version: 'v1', kind: 'CSINode' }, namespace: '' },
  slices: { resource: GVR('resource.k8s.io', 'resourceslices'), kind: { group: 'resource.k8s.io', version: 'v1', kind: 'ResourceSlice' }, namespace: '' },
  csrs: { resource: GVR('certificates.k8s.io', 'certificatesigningrequests'), kind: { group: 'certificates.k8s.io', version: 'v1', kind: 'CertificateSigningRequest' }, namespace: '' },
  configmaps: { resource: GVR('', 'configmaps'), kind: { group: '', version: 'v1', kind: 'ConfigMap' } },
} as const;

export function request(over: Partial<AdmissionAttributes>): AdmissionAttributes {
  return {
    operation: 'CREATE',
    ...RESOURCES.pods,
    subresource: '',
    namespace: 'default',
    name: '',
    object: undefined,
    oldObject: undefined,
    user: NODE_A,
    dryRun: false,
    ...over,
  };
}

export function pod(name: string, nodeName: string, spec: Record<string, unknown> = {}, meta: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: `uid-${name}`, ...meta }, spec: { nodeName, containers: [{ name: 'c', image: 'i' }], ...spec } };
}

const STATE: ReadonlyMap<string, KubeObject> = new Map<string, KubeObject>([
  [
    'pod/default/a1',
    pod('a1', 'node-a', {
      volumes: [
        { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 't', audience: 'vault' } }, { serviceAccountToken: { path: 'api' } }] } },
        { name: 'data', persistentVolumeClaim: { claimName: 'claim-csi' } },
        { name: 'inline', csi: { driver: 'inline.example' } },
      ],
    }),
  ],
  ['pod/default/b1', pod('b1', 'node-b')],
  ['pod/default/lost', pod('lost', 'node-a', { volumes: [{ name: 'gone', persistentVolumeClaim: { claimName: 'claim-missing' } }] })],
  ['node//node-a', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-a', uid: 'node-a-uid' } }],
  ['pvc/default/claim-csi', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'claim-csi', namespace: 'default' }, spec: { volumeName: 'pv-csi' } }],
  ['pv//pv-csi', { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-csi' }, spec: { csi: { driver: 'csi.example', volumeHandle: 'h' } } }],
  ['csidriver//csi.example', { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'csi.example' }, spec: { tokenRequests: [{ audience: 'csi-aud' }] } }],
  ['csidriver//inline.example', { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'inline.example' }, spec: { tokenRequests: [{ audience: 'inline-aud' }] } }],
]);

const read = (kind: string, namespace: string, name: string): Promise<KubeObject | undefined> => {
  // A read that fails (not a miss): the plugin refuses with the error's text.
  if (name === 'explode') return Promise.reject(new Error('etcd is down'));
  return Promise.resolve(STATE.get(`${kind}/${namespace}/${name}`));
};

export const OPTIONS: NodeRestrictionOptions = {
  lookup: {
    getPod: (ns, name) => read('pod', ns, name),
    getNode: (name) => read('node', '', name),
    getPersistentVolumeClaim: (ns, name) => read('pvc', ns, name),
    getPersistentVolume: (name) => read('pv', '', name),
    getCSIDriver: (name) => read('csidriver', '', name),
  },
  // RBAC's stand-in: node-a may ask for "granted"; "flaky" fails to evaluate.
  authorizeAudience: async (req) =>
    req.audience === 'flaky' ? { allowed: false, error: 'webhook timed out' } : { allowed: req.audience === 'granted' && req.user.username === 'system:node:node-a' },
  csrCommonName: (pem) => {
    const text = pem.toString('utf8');
    if (!text.includes('-----BEGIN CERTIFICATE REQUEST-----')) throw new Error('PEM block type must be CERTIFICATE REQUEST');
    return new x509.Pkcs10CertificateRequest(text).subjectName.getField('CN').at(-1) ?? '';
  },
};

/** A PEM certificate request for `subject`, base64 as spec.request carries it. */
export async function csrRequest(subject: string): Promise<string> {
  const pair = await generateKeyPair();
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: subject, keys: pair.keys, signingAlgorithm: pair.algorithm });
  return Buffer.from(csr.toString('pem')).toString('base64');
}

/** Runs the phase kapi runs for the operation (deletes: validating) and reads the answer. */
export async function outcome(attrs: AdmissionAttributes, plugin: AdmissionPlugin = nodeRestriction(OPTIONS)): Promise<Want> {
  const phase = attrs.operation === 'DELETE' ? plugin.validate! : plugin.admit!;
  try {
    await phase(attrs, { getNamespace: async () => undefined });
    return 'allowed';
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    return { code: (err as StatusError).code, message: (err as StatusError).message };
  }
}

export const forbidden = (subject: string, why: string): Want => ({ code: 403, message: `${subject} is forbidden: ${why}` });
