// authorization.k8s.io/v1: SelfSubjectAccessReview (`kubectl auth can-i`), which
// asks the very authorizer the filter chain uses.
import type { Authorizer } from '../../../auth/authz/authorizer.js';
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { selfSubjectAccessReviews } from './self-subject-access-reviews.js';

export { selfSubjectAccessReviews };

export interface AuthorizationV1Dependencies {
  readonly authorizer: Authorizer;
}

export function authorizationV1(deps: AuthorizationV1Dependencies): ResourceDefinition[] {
  return [selfSubjectAccessReviews(deps.authorizer)];
}
