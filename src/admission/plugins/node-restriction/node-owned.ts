// Objects a node owns by name or by field (kube's admitLease, admitCSINode,
// admitResourceSlice, admitPVCStatus, admitCSR): the Node authorizer allows the
// verbs but cannot see a new object's name or content; these checks can. A node
// writes only its own Lease and CSINode, ResourceSlices of its own, PVC status
// fields the kubelet maintains, and kubelet CSRs for its own name.
import { getField, ownField } from '../../../schema/field-path.js';
import type { KubeObject } from '../../../schema/object.js';
import { forbid, q, semanticEqual, str, type NodeRequest } from './request.js';

/** kube's NamespaceNodeLease. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** The name a write is for: the object's on create (kube reads it there), the request's otherwise. */
const targetName = (req: NodeRequest): string => (req.attrs.operation === 'CREATE' ? str(getField(req.attrs.object, 'metadata.name')) : req.attrs.name);

export function admitLease(req: NodeRequest): void {
  const { attrs, nodeName } = req;
  if (attrs.namespace !== NODE_LEASE_NAMESPACE) throw forbid(attrs, `can only access leases in the ${q(NODE_LEASE_NAMESPACE)} system namespace`);
  if (targetName(req) !== nodeName) throw forbid(attrs, 'can only access node lease with the same name as the requesting node');
}

export function admitCSINode(req: NodeRequest): void {
  if (targetName(req) !== req.nodeName) throw forbid(req.attrs, 'can only access CSINode with the same name as the requesting node');
}

/**
 * Creates and deletes of ResourceSlices carry their node in spec.nodeName; the
 * authorizer checks the rest through its graph. Deletes come one object at a
 * time, deletecollection included.
 */
export function admitResourceSlice(req: NodeRequest): void {
  const { attrs, nodeName } = req;
  const ownNode = (slice: KubeObject | undefined): boolean => {
    const value = getField(slice, 'spec.nodeName');
    return typeof value === 'string' && value === nodeName;
  };
  if (attrs.operation === 'CREATE' && !ownNode(attrs.object)) throw forbid(attrs, 'can only create ResourceSlice with the same NodeName as the requesting node');
  if (attrs.operation === 'DELETE' && !ownNode(attrs.oldObject)) throw forbid(attrs, 'can only delete ResourceSlice with the same NodeName as the requesting node');
}

/** A PVC without what a node may change in its status (and without what never counts). */
function comparablePVC(pvc: KubeObject | undefined, expansionRecovery: boolean): KubeObject {
  const copy = structuredClone(pvc ?? { metadata: {} }) as KubeObject;
  const meta = ownField(copy, 'metadata');
  if (meta !== null && typeof meta === 'object') {
    delete (meta as Record<string, unknown>).resourceVersion;
    delete (meta as Record<string, unknown>).managedFields;
  }
  const status = ownField(copy, 'status');
  if (status !== null && typeof status === 'object') {
    const s = status as Record<string, unknown>;
    delete s.capacity;
    delete s.conditions;
    if (expansionRecovery) {
      delete s.allocatedResourceStatuses;
      delete s.allocatedResources;
    }
  }
  return copy;
}

/** Dotted paths where two JSON values differ; kube prints a full diff here, this names the fields. */
function differingPaths(a: unknown, b: unknown, at: string, out: string[]): void {
  if (semanticEqual(a, b)) return;
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObj(a) || !isObj(b)) {
    out.push(at === '' ? '.' : at);
    return;
  }
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    differingPaths(Object.hasOwn(a, k) ? a[k] : undefined, Object.hasOwn(b, k) ? b[k] : undefined, at === '' ? k : `${at}.${k}`, out);
  }
}

export function admitPVCStatus(req: NodeRequest): void {
  const { attrs, nodeName } = req;
  if (attrs.operation !== 'UPDATE') throw forbid(attrs, `unexpected operation ${q(attrs.operation)}`);
  const recovery = req.options.features?.recoverVolumeExpansionFailure !== false;
  const before = comparablePVC(attrs.oldObject, recovery);
  const after = comparablePVC(attrs.object, recovery);
  if (semanticEqual(before, after)) return;
  const paths: string[] = [];
  differingPaths(before, after, '', paths);
  // kube's own text says status.quantity (the field is status.capacity).
  throw forbid(attrs, `node ${q(nodeName)} is not allowed to update fields other than status.quantity and status.conditions: changed ${paths.join(', ')}`);
}

const KUBELET_SIGNERS: ReadonlySet<string> = new Set(['kubernetes.io/kubelet-serving', 'kubernetes.io/kube-apiserver-client-kubelet']);

/** Kubelet CSRs must be for CN=system:node:<its own name>; other signers are their approvers' business. */
export function admitCSR(req: NodeRequest): void {
  const { attrs, nodeName, options } = req;
  if (attrs.operation !== 'CREATE' || options.features?.allowInsecureKubeletCertificateSigningRequests === true) return;
  if (!KUBELET_SIGNERS.has(str(getField(attrs.object, 'spec.signerName')))) return;
  let commonName: string;
  try {
    // spec.request is []byte: base64 in JSON, checked when the body was decoded.
    commonName = options.csrCommonName(Buffer.from(str(getField(attrs.object, 'spec.request')), 'base64'));
  } catch (err) {
    throw forbid(attrs, `unable to parse csr: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (commonName !== `system:node:${nodeName}`) throw forbid(attrs, `can only create a node CSR with CN=system:node:${nodeName}`);
}
