// Namespaces: cluster scoped, named as DNS labels. Create forces status Active and
// the 'kubernetes' finalizer that the namespace lifecycle controller removes (via
// /finalize) once it has deleted the contents; DELETE therefore only marks the
// namespace Terminating first (see src/controllers/namespace-lifecycle.ts).
import { defineResource } from '../../../registry/define-resource.js';
import { namespaceTable } from './namespaces-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, invalidValue, path } from '../../../schema/field-errors.js';
import { isQualifiedName } from '../../../registry/validation/names.js';
import { ensureObject, objectAt, stringAt } from './helpers.js';

export const FINALIZER_KUBERNETES = 'kubernetes';
/** Label kube stamps on every namespace so selectors can pick namespaces by name. */
export const LABEL_METADATA_NAME = 'kubernetes.io/metadata.name';
const STANDARD_FINALIZERS = new Set([FINALIZER_KUBERNETES, 'orphan', 'foregroundDeletion']);

function stampNameLabel(ns: KubeObject): void {
  ns.metadata.labels = { ...(ns.metadata.labels ?? {}), [LABEL_METADATA_NAME]: ns.metadata.name ?? '' };
}

function prepareForCreate(ns: KubeObject): void {
  ns.status = { phase: 'Active' };
  const spec = ensureObject(ns, 'spec');
  const finalizers = Array.isArray(spec.finalizers) ? (spec.finalizers as string[]) : [];
  spec.finalizers = finalizers.includes(FINALIZER_KUBERNETES) ? finalizers : [...finalizers, FINALIZER_KUBERNETES];
}

/** spec.finalizers only change through /finalize; status only through /status. */
function prepareForUpdate(next: KubeObject, prev: KubeObject): void {
  const prevFinalizers = objectAt(prev, 'spec')?.finalizers;
  const spec = ensureObject(next, 'spec');
  if (prevFinalizers === undefined) delete spec.finalizers;
  else spec.finalizers = structuredClone(prevFinalizers);
  if (Object.keys(spec).length === 0 && prev.spec === undefined) delete next.spec;
}

export function validateNamespace(ns: KubeObject): FieldError[] {
  const finalizers = objectAt(ns, 'spec')?.finalizers;
  if (!Array.isArray(finalizers)) return [];
  const p = path('spec', 'finalizers');
  const errs: FieldError[] = [];
  for (const f of finalizers as string[]) {
    for (const msg of isQualifiedName(f)) errs.push(invalidValue(p, f, msg));
    if (!f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
      errs.push(invalidValue(p, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  return errs;
}

/** kube's text for a DELETE of a namespace that is already terminating (namespace REST storage). */
export const NAMESPACE_TERMINATING_CONFLICT =
  'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.';

function specFinalizers(ns: KubeObject): readonly string[] {
  const finalizers = objectAt(ns, 'spec')?.finalizers;
  return Array.isArray(finalizers) ? (finalizers as string[]) : [];
}

/** ValidateNamespaceStatusUpdate: the phase follows deletionTimestamp (kube names the field status.Phase). */
function validateStatusUpdate(next: KubeObject): FieldError[] {
  const phase = stringAt(next.status, 'phase');
  const deleting = next.metadata.deletionTimestamp !== undefined && next.metadata.deletionTimestamp !== null;
  const p = path('status', 'Phase');
  if (!deleting && phase !== 'Active') return [invalidValue(p, phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  if (deleting && phase !== 'Terminating') return [invalidValue(p, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
  return [];
}

export const namespaces = defineResource({
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  scope: 'Cluster',
  table: namespaceTable,
  shortNames: ['ns'],
  // kube serves no deletecollection for namespaces.
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  nameValidation: 'label',
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    // The name label is a default, and again canonical: a generated name is only known after defaulting.
    defaults: (ns) => {
      if ((ns.metadata.name ?? '') !== '') stampNameLabel(ns);
    },
    prepareForCreate,
    prepareForUpdate,
    validate: validateNamespace,
    canonicalize: stampNameLabel,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    returnDeletedObject: true,
    selectableFields: (ns) => ({ 'status.phase': stringAt(ns.status, 'phase') }),
    // DELETE marks the namespace Terminating and keeps it until /finalize empties spec.finalizers.
    deletionHold: {
      finalizers: specFinalizers,
      markDeleting: (ns) => {
        ns.status = { ...(objectAt(ns, 'status') ?? {}), phase: 'Terminating' };
      },
      conflictWhilePending: NAMESPACE_TERMINATING_CONFLICT,
    },
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: validateStatusUpdate },
    finalize: { verbs: ['update'], path: 'spec.finalizers' },
  },
});
