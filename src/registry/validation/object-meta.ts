// ObjectMeta checks every write goes through (apimachinery's ValidateObjectMeta
// and ValidateObjectMetaUpdate). The generic store calls these before the kind's
// own strategy.validate, and merges both into one Invalid error, so messages come
// out in kube-apiserver's order: metadata first, then the kind's fields.
import type { NameValidation } from '../define-resource.js';
import type { KubeObject, ObjectMeta } from '../../schema/object.js';
import { type FieldError, type FieldPath, forbiddenField, invalidValue, path, required, tooLong } from '../../schema/field-errors.js';
import { validateImmutableField, validateNonnegative } from './common.js';
import { addLabelErrors, qualifiedNameErrors, validateLabels } from './label-selector.js';
import { isDNS1123Label, isQualifiedName, isValidName, matchesDNS1123Label, matchesQualifiedName, nameValidators } from './names.js';

/** Sum of annotation keys and values (kube's TotalAnnotationSizeLimitB). */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export interface ObjectMetaOptions {
  readonly namespaced: boolean;
  readonly nameValidation: NameValidation;
  /** On create generateName is checked too; name may still be empty only if generateName is set. */
  readonly isCreate: boolean;
}

// The paths of metadata's fields, made once: every write checks them all.
const META = path('metadata');
const META_GENERATE_NAME = META.child('generateName');
const META_NAME = META.child('name');
const META_NAMESPACE = META.child('namespace');
const META_GENERATION = META.child('generation');
const META_LABELS = META.child('labels');
const META_ANNOTATIONS = META.child('annotations');
const META_OWNER_REFERENCES = META.child('ownerReferences');
const META_FINALIZERS = META.child('finalizers');

export function validateObjectMeta(obj: KubeObject, opts: ObjectMetaOptions): FieldError[] {
  const meta: ObjectMeta = obj.metadata ?? {};
  const errs: FieldError[] = [];
  const generateName = meta.generateName ?? '';
  if (opts.isCreate && generateName !== '') {
    for (const msg of nameValidators[opts.nameValidation](generateName, true)) errs.push(invalidValue(META_GENERATE_NAME, generateName, msg));
  }
  const name = meta.name ?? '';
  if (name === '') errs.push(required(META_NAME, 'name or generateName is required'));
  else if (!isValidName(opts.nameValidation, name)) {
    for (const msg of nameValidators[opts.nameValidation](name, false)) errs.push(invalidValue(META_NAME, name, msg));
  }
  addNamespaceErrors(errs, meta.namespace ?? '', opts.namespaced, META_NAMESPACE);
  if (typeof meta.generation === 'number' && meta.generation < 0) errs.push(...validateNonnegative(meta.generation, META_GENERATION));
  if (meta.labels !== undefined) addLabelErrors(errs, meta.labels, META_LABELS);
  if (meta.annotations !== undefined) addAnnotationErrors(errs, meta.annotations, META_ANNOTATIONS);
  if (meta.ownerReferences !== undefined) errs.push(...validateOwnerReferences(meta.ownerReferences, META_OWNER_REFERENCES));
  if (meta.finalizers !== undefined) errs.push(...validateFinalizers(meta.finalizers, META_FINALIZERS));
  return errs;
}

function addNamespaceErrors(errs: FieldError[], ns: string, namespaced: boolean, p: FieldPath): void {
  if (!namespaced) {
    if (ns !== '') errs.push(forbiddenField(p, 'not allowed on this type'));
  } else if (ns === '') errs.push(required(p));
  else if (!matchesDNS1123Label(ns)) for (const msg of isDNS1123Label(ns)) errs.push(invalidValue(p, ns, msg));
}

/**
 * What an update may not change. The store copies generation from the stored
 * object before prepareForUpdate (users cannot set it), so the decrement check
 * only catches strategy bugs, as in kube.
 */
export function validateObjectMetaUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  const n: ObjectMeta = next.metadata ?? {};
  const o: ObjectMeta = prev.metadata ?? {};
  const p = META;
  const errs: FieldError[] = [];
  if (o.deletionTimestamp !== undefined) errs.push(...validateNoNewFinalizers(n.finalizers, o.finalizers, p.child('finalizers')));
  if ((n.resourceVersion ?? '') === '') errs.push(invalidValue(p.child('resourceVersion'), '', 'must be specified for an update'));
  if ((n.generation ?? 0) < (o.generation ?? 0)) errs.push(invalidValue(p.child('generation'), n.generation ?? 0, 'must not be decremented'));
  // Strings compare as Go's zero value "" when absent; the rest as null.
  for (const f of ['name', 'namespace', 'uid'] as const) errs.push(...validateImmutableField(n[f] ?? '', o[f] ?? '', p.child(f)));
  for (const f of ['creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds'] as const) {
    errs.push(...validateImmutableField(n[f] ?? null, o[f] ?? null, p.child(f)));
  }
  errs.push(...validateLabels(n.labels, p.child('labels')));
  errs.push(...validateAnnotations(n.annotations, p.child('annotations')));
  errs.push(...validateOwnerReferences(n.ownerReferences, p.child('ownerReferences')));
  errs.push(...validateFinalizers(n.finalizers, p.child('finalizers')));
  return errs;
}

export function validateAnnotations(annotations: Record<string, string> | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  addAnnotationErrors(errs, annotations, p);
  return errs;
}

/** validateAnnotations into a list the caller holds: pod templates have annotations of their own. */
export function addAnnotationErrors(errs: FieldError[], annotations: Record<string, string> | undefined, p: FieldPath): void {
  if (annotations === undefined || annotations === null) return;
  let size = 0;
  // A for-in over own keys: Object.entries' order, without its arrays.
  for (const k in annotations) {
    if (!Object.hasOwn(annotations, k)) continue;
    // Annotation keys are qualified names, but case does not matter. A key valid
    // as it is stays valid lower-cased (only the name part may hold capitals), so
    // only a failing key pays for the lower-cased copy.
    if (!matchesQualifiedName(k)) for (const msg of qualifiedNameErrors(k.toLowerCase())) errs.push(invalidValue(p, k, msg));
    size += Buffer.byteLength(k) + Buffer.byteLength(String(annotations[k]));
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(tooLong(p, TOTAL_ANNOTATION_SIZE_LIMIT));
}

export function validateOwnerReferences(refs: ObjectMeta['ownerReferences'], p: FieldPath): FieldError[] {
  if (!Array.isArray(refs)) return [];
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs) {
    const apiVersion = ref.apiVersion ?? '';
    const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    if (version === '') errs.push(invalidValue(p.child('apiVersion'), apiVersion, 'version must not be empty'));
    if ((ref.kind ?? '') === '') errs.push(invalidValue(p.child('kind'), ref.kind ?? '', 'kind must not be empty'));
    if ((ref.name ?? '') === '') errs.push(invalidValue(p.child('name'), ref.name ?? '', 'name must not be empty'));
    if ((ref.uid ?? '') === '') errs.push(invalidValue(p.child('uid'), ref.uid ?? '', 'uid must not be empty'));
    if (ref.controller === true) {
      const current = `${ref.kind}/${ref.name}`;
      if (firstController === '') firstController = current;
      else
        errs.push(
          invalidValue(p, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`),
        );
    }
  }
  return errs;
}

export function validateFinalizers(finalizers: string[] | undefined, p: FieldPath): FieldError[] {
  if (!Array.isArray(finalizers)) return [];
  const errs: FieldError[] = [];
  for (const f of finalizers) for (const msg of isQualifiedName(f)) errs.push(invalidValue(p, f, msg));
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(invalidValue(p, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

function validateNoNewFinalizers(next: string[] | undefined, prev: string[] | undefined, p: FieldPath): FieldError[] {
  const old = new Set(prev ?? []);
  const extra = [...new Set((next ?? []).filter((f) => !old.has(f)))].sort();
  if (extra.length === 0) return [];
  // Go's %#v of a []string, as kube prints it.
  const shown = `[]string{${extra.map((f) => JSON.stringify(f)).join(', ')}}`;
  return [forbiddenField(p, `no new finalizers can be added if the object is being deleted, found new finalizers ${shown}`)];
}

