// SelfSubjectAccessReview (`kubectl auth can-i`): a virtual resource asking the
// server's own authorizer whether the requesting user may do something. Nothing is
// stored. The authorizer is the one the filter chain uses, handed in by main.ts.
import { invalid } from '../../../errors/status-error.js';
import { defineResource, type ResourceDefinition } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
// Type only: the review asks the very authorizer the filter chain uses (main.ts hands it in).
import type { Authorizer } from '../../../auth/authz/authorizer.js';
import { attributesOf, reviewStatus, validateReviewSpec, type Attributes } from './review-attributes.js';

export function selfSubjectAccessReviews(decide: Authorizer): ResourceDefinition {
  return defineResource({
    group: 'authorization.k8s.io',
    version: 'v1',
    kind: 'SelfSubjectAccessReview',
    plural: 'selfsubjectaccessreviews',
    scope: 'Cluster',
    virtualCreate: async (obj, ctx): Promise<KubeObject> => {
      const spec = (obj.spec ?? {}) as Attributes;
      const errs = validateReviewSpec(spec, { subject: false });
      if (errs.length > 0) throw invalid({ group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview' }, '', errs);
      // `denied` only for an explicit Deny: no opinion from anyone is "not allowed", not "denied".
      const status = reviewStatus(await decide(attributesOf(ctx.user, spec)));
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
