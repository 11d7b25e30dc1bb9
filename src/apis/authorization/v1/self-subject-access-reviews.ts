// SelfSubjectAccessReview (`kubectl auth can-i`): a virtual resource asking the
// server's own authorizer whether the requesting user may do something. Nothing is
// stored. The authorizer is the one the filter chain uses, handed in by main.ts.
import { invalid } from '../../../errors/status-error.js';
import { invalidValue, path, type FieldError } from '../../../errors/field-errors.js';
import { defineResource, type ResourceDefinition } from '../../../registry/define-resource.js';
import type { UserInfo } from '../../../schema/user.js';
import type { KubeObject } from '../../../schema/object.js';
// Type only: the review asks the very authorizer the filter chain uses (main.ts hands it in).
import type { AuthorizationAttributes, Authorizer } from '../../../auth/authz/authorizer.js';

type Attributes = Record<string, unknown>;

function text(attrs: Attributes, field: string): string {
  const value = attrs[field];
  return typeof value === 'string' ? value : '';
}

/** kube's ValidateSelfSubjectAccessReviewSpec: exactly one kind of attributes. */
function validateSpec(spec: Attributes): FieldError[] {
  const resource = spec.resourceAttributes;
  const nonResource = spec.nonResourceAttributes;
  if (resource != null && nonResource != null) {
    return [invalidValue(path('spec', 'nonResourceAttributes'), nonResource, 'cannot be specified in combination with resourceAttributes')];
  }
  if (resource == null && nonResource == null) {
    return [invalidValue(path('spec', 'resourceAttributes'), 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified')];
  }
  return [];
}

function question(user: UserInfo, spec: Attributes): AuthorizationAttributes {
  const resource = spec.resourceAttributes as Attributes | null | undefined;
  if (resource != null) {
    return {
      user,
      verb: text(resource, 'verb'),
      isResourceRequest: true,
      path: '',
      namespace: text(resource, 'namespace'),
      apiGroup: text(resource, 'group'),
      apiVersion: text(resource, 'version'),
      resource: text(resource, 'resource'),
      subresource: text(resource, 'subresource'),
      name: text(resource, 'name'),
    };
  }
  const nonResource = (spec.nonResourceAttributes ?? {}) as Attributes;
  return {
    user,
    verb: text(nonResource, 'verb'),
    isResourceRequest: false,
    path: text(nonResource, 'path'),
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

export function selfSubjectAccessReviews(decide: Authorizer): ResourceDefinition {
  return defineResource({
    group: 'authorization.k8s.io',
    version: 'v1',
    kind: 'SelfSubjectAccessReview',
    plural: 'selfsubjectaccessreviews',
    scope: 'Cluster',
    virtualCreate: async (obj, ctx): Promise<KubeObject> => {
      const spec = (obj.spec ?? {}) as Attributes;
      const errs = validateSpec(spec);
      if (errs.length > 0) throw invalid({ group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview' }, '', errs);
      const { decision, reason } = await decide(question(ctx.user, spec));
      const status: Record<string, unknown> = { allowed: decision === 'Allow' };
      // `denied` only for an explicit Deny: no opinion from anyone is "not allowed", not "denied".
      if (decision === 'Deny') status.denied = true;
      if (reason !== '') status.reason = reason;
      return {
        kind: 'SelfSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec,
        status,
      };
    },
  });
}
