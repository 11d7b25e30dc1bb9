// authorization.k8s.io/v1: the access reviews, all asking the very authorizer the
// filter chain uses (main.ts hands it in): SelfSubjectAccessReview (`kubectl auth
// can-i`), SubjectAccessReview and LocalSubjectAccessReview (about another user),
// and SelfSubjectRulesReview (`kubectl auth can-i --list`), which needs the rules
// the authorizer can enumerate: the rulesFor of the same authorizer mode
// (auth/authz/create.ts), or, when none is handed in, one that probes the authorizer.
import type { Authorizer } from '../../../auth/authz/authorizer.js';
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { probingRulesResolver, type RulesResolver } from './rules-resolver.js';
import { selfSubjectAccessReviews } from './self-subject-access-reviews.js';
import { selfSubjectRulesReviews } from './self-subject-rules-reviews.js';
import { localSubjectAccessReviews, subjectAccessReviews } from './subject-access-reviews.js';

export { selfSubjectAccessReviews, selfSubjectRulesReviews, localSubjectAccessReviews, subjectAccessReviews };
export { probingRulesResolver, type RulesResolver } from './rules-resolver.js';

export interface AuthorizationV1Dependencies {
  readonly authorizer: Authorizer;
  /** What SelfSubjectRulesReview enumerates; absent: probingRulesResolver(authorizer). */
  readonly rulesResolver?: RulesResolver;
}

/** In discovery's order. */
export function authorizationV1(deps: AuthorizationV1Dependencies): ResourceDefinition[] {
  return [
    localSubjectAccessReviews(deps.authorizer),
    selfSubjectAccessReviews(deps.authorizer),
    selfSubjectRulesReviews(deps.rulesResolver ?? probingRulesResolver(deps.authorizer)),
    subjectAccessReviews(deps.authorizer),
  ];
}
