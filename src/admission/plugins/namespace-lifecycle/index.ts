// NamespaceLifecycle (kube's plugin/pkg/admission/namespace/lifecycle): content may
// only be created in a namespace that exists and is not terminating, and the
// namespaces the system itself needs may never be deleted. Namespaces themselves and
// cluster-scoped kinds pass; deletes of other content always pass so a terminating
// namespace can be emptied.
import { forbidden, notFound } from '../../../errors/status-error.js';
import type { AdmissionAttributes, AdmissionLookup, AdmissionPlugin } from '../../plugin.js';

/** kube-apiserver's immortal namespaces. */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);

/** Access reviews answer about a namespace without putting anything in it. */
const ACCESS_REVIEWS = new Set(['localsubjectaccessreviews', 'subjectaccessreviews', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews']);

function isNamespace(attrs: AdmissionAttributes): boolean {
  return attrs.kind.group === '' && attrs.kind.kind === 'Namespace';
}

async function validate(attrs: AdmissionAttributes, lookup: AdmissionLookup): Promise<void> {
  if (attrs.operation === 'DELETE' && isNamespace(attrs) && IMMORTAL_NAMESPACES.has(attrs.name)) {
    throw forbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, attrs.name, 'this namespace may not be deleted');
  }
  if (attrs.namespace === '' || isNamespace(attrs)) return;
  if (attrs.operation === 'DELETE') return;
  if (attrs.resource.group === 'authorization.k8s.io' && ACCESS_REVIEWS.has(attrs.resource.resource)) return;

  const namespace = await lookup.getNamespace(attrs.namespace);
  if (namespace === undefined) throw notFound({ group: '', resource: 'namespaces' }, attrs.namespace);
  if (attrs.operation !== 'CREATE') return;
  const phase = (namespace.status as { phase?: string } | undefined)?.phase;
  if (phase === 'Terminating' || namespace.metadata.deletionTimestamp !== undefined) {
    throw forbidden(
      { group: attrs.resource.group, resource: attrs.resource.resource },
      attrs.name,
      `unable to create new content in namespace ${attrs.namespace} because it is being terminated`,
    );
  }
}

export function namespaceLifecycle(): AdmissionPlugin {
  return { name: 'NamespaceLifecycle', validate };
}
