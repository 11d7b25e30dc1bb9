// A node's own Node object (kube's admitNode): it may write only itself, never
// set spec.configSource or change its taints, and never add, change or remove a
// label that would steer workloads to it: anything under node-restriction.
// kubernetes.io, and kubernetes.io / k8s.io labels other than the ones the
// kubelet sets itself (k8s.io/kubelet/pkg/apis well_known_labels.go IsKubeletLabel).
import { getField } from '../../../schema/field-path.js';
import { forbid, q, semanticEqual, type NodeRequest } from './request.js';

/** core/v1 LabelNamespaceNodeRestriction. */
export const NODE_RESTRICTION_LABEL_NAMESPACE = 'node-restriction.kubernetes.io';

/** Labels the kubelet sets on its own Node. */
const KUBELET_LABELS: ReadonlySet<string> = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);

/** Label namespaces (and their subdomains) the kubelet may set freely. */
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'] as const;

const labelNamespace = (key: string): string => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');
const inNamespace = (ns: string, domain: string): boolean => ns === domain || ns.endsWith(`.${domain}`);

function isKubeletLabel(key: string): boolean {
  if (KUBELET_LABELS.has(key)) return true;
  return KUBELET_LABEL_NAMESPACES.some((domain) => inNamespace(labelNamespace(key), domain));
}

function isKubernetesLabel(key: string): boolean {
  const ns = labelNamespace(key);
  return inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io');
}

function labelsOf(value: unknown): Map<string, unknown> {
  return new Map(value !== null && typeof value === 'object' ? Object.entries(value) : []);
}

/** Keys added, removed or changed between two label maps. */
function modifiedLabels(next: unknown, prev: unknown): string[] {
  const a = labelsOf(next);
  const b = labelsOf(prev);
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].filter((k) => !a.has(k) || !b.has(k) || a.get(k) !== b.get(k));
}

/** kube's getForbiddenLabels, sorted as sets.String.List() sorts. */
export function forbiddenLabels(next: unknown, prev: unknown): string[] {
  return modifiedLabels(next, prev)
    .filter((key) => inNamespace(labelNamespace(key), NODE_RESTRICTION_LABEL_NAMESPACE) || (isKubernetesLabel(key) && !isKubeletLabel(key)))
    .sort();
}

export function admitNode(req: NodeRequest): void {
  const { attrs, nodeName } = req;
  if (attrs.name !== nodeName) throw forbid(attrs, `node ${q(nodeName)} is not allowed to modify node ${q(attrs.name)}`);
  const node = attrs.object;
  if (attrs.operation === 'CREATE') {
    // kube's text says "pods"; it is the Node's configSource.
    if (getField(node, 'spec.configSource') != null) throw forbid(attrs, `node ${q(nodeName)} is not allowed to create pods with a non-nil configSource`);
    const refused = forbiddenLabels(getField(node, 'metadata.labels'), undefined);
    if (refused.length > 0) throw forbid(attrs, `node ${q(nodeName)} is not allowed to set the following labels: ${refused.join(', ')}`);
  }
  if (attrs.operation === 'UPDATE') {
    const old = attrs.oldObject;
    const configSource = getField(node, 'spec.configSource');
    // Only a new non-nil source counts: old kubelets drop the field in status updates.
    if (configSource != null && !semanticEqual(configSource, getField(old, 'spec.configSource'))) {
      throw forbid(attrs, `node ${q(nodeName)} is not allowed to update configSource to a new non-nil configSource`);
    }
    if (!semanticEqual(getField(node, 'spec.taints'), getField(old, 'spec.taints'))) throw forbid(attrs, `node ${q(nodeName)} is not allowed to modify taints`);
    const refused = forbiddenLabels(getField(node, 'metadata.labels'), getField(old, 'metadata.labels'));
    // kube's update text starts without the node.
    if (refused.length > 0) throw forbid(attrs, `is not allowed to modify labels: ${refused.join(', ')}`);
  }
}
