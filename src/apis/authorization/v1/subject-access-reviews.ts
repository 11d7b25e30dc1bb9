// SubjectAccessReview and LocalSubjectAccessReview: virtual resources asking the
// server's authorizer whether the user the spec names (not the requester) may do
// something; webhook authorizers of other servers and `kubectl auth can-i --as`
// style tools use them. Nothing is stored. The local form is namespaced and may
// only ask about its own namespace (kube's ValidateLocalSubjectAccessReview and
// the LocalSubjectAccessReview REST's checks, with their messages).
import type { Authorizer } from '../../../auth/authz/authorizer.js';
import { invalidValue, path, type FieldError } from '../../../schema/field-errors.js';
import { badRequest, invalid } from '../../../errors/status-error.js';
import { defineResource, type ResourceDefinition } from '../../../registry/define-resource.js';
import type { KubeObject, ObjectMeta } from '../../../schema/object.js';
import { attributesOf, reviewStatus, subjectOf, text, validateReviewSpec, type Attributes } from './review-attributes.js';

const GROUP = 'authorization.k8s.io';

/** Go's zero ObjectMeta compares equal to what a client sends as `metadata: {}` or `creationTimestamp: null`. */
function isEmptyMeta(meta: ObjectMeta, ignore: readonly string[]): boolean {
  return Object.entries(meta).every(([k, v]) => {
    if (ignore.includes(k) || v === null || v === undefined || v === '' || v === 0) return true;
    if (Array.isArray(v)) return v.length === 0;
    return typeof v === 'object' && Object.keys(v).length === 0;
  });
}

function specOf(obj: KubeObject): Attributes {
  const spec = obj.spec;
  return typeof spec === 'object' && spec !== null && !Array.isArray(spec) ? (spec as Attributes) : {};
}

export function validateSubjectAccessReview(obj: KubeObject): FieldError[] {
  const errs = validateReviewSpec(specOf(obj), { subject: true });
  if (!isEmptyMeta(obj.metadata, ['managedFields'])) errs.push(invalidValue(path('metadata'), obj.metadata, 'must be empty'));
  return errs;
}

export function validateLocalSubjectAccessReview(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const errs = validateReviewSpec(spec, { subject: true });
  if (!isEmptyMeta(obj.metadata, ['managedFields', 'namespace'])) errs.push(invalidValue(path('metadata'), obj.metadata, 'must be empty except for namespace'));
  const resource = spec.resourceAttributes;
  const namespace = obj.metadata.namespace ?? '';
  if (typeof resource === 'object' && resource !== null && text(resource as Attributes, 'namespace') !== namespace) {
    errs.push(invalidValue(path('spec', 'resourceAttributes', 'namespace'), text(resource as Attributes, 'namespace'), 'must match metadata.namespace'));
  }
  if (spec.nonResourceAttributes != null) errs.push(invalidValue(path('spec', 'nonResourceAttributes'), spec.nonResourceAttributes, 'disallowed on this kind of request'));
  return errs;
}

function answer(kind: string, obj: KubeObject, status: Record<string, unknown>): KubeObject {
  return { kind, apiVersion: `${GROUP}/v1`, metadata: { ...obj.metadata, creationTimestamp: null }, spec: specOf(obj), status };
}

export function subjectAccessReviews(decide: Authorizer): ResourceDefinition {
  return defineResource({
    group: GROUP,
    version: 'v1',
    kind: 'SubjectAccessReview',
    plural: 'subjectaccessreviews',
    scope: 'Cluster',
    virtualCreate: async (obj) => {
      const errs = validateSubjectAccessReview(obj);
      if (errs.length > 0) throw invalid({ group: GROUP, kind: 'SubjectAccessReview' }, '', errs);
      const spec = specOf(obj);
      return answer('SubjectAccessReview', obj, reviewStatus(await decide(attributesOf(subjectOf(spec), spec))));
    },
  });
}

export function localSubjectAccessReviews(decide: Authorizer): ResourceDefinition {
  return defineResource({
    group: GROUP,
    version: 'v1',
    kind: 'LocalSubjectAccessReview',
    plural: 'localsubjectaccessreviews',
    scope: 'Namespaced',
    virtualCreate: async (obj, ctx) => {
      const namespace = ctx.namespace ?? '';
      // The create handler's EnsureObjectNamespaceMatchesRequestNamespace, before validation.
      const have = obj.metadata.namespace ?? '';
      if (have === '' && namespace !== '') obj.metadata.namespace = namespace;
      else if (have !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      const errs = validateLocalSubjectAccessReview(obj);
      if (errs.length > 0) throw invalid({ group: GROUP, kind: 'LocalSubjectAccessReview' }, '', errs);
      if (namespace === '') throw badRequest(`namespace is required on this type: ${namespace}`);
      const spec = specOf(obj);
      return answer('LocalSubjectAccessReview', obj, reviewStatus(await decide(attributesOf(subjectOf(spec), spec))));
    },
  });
}
