// authentication.k8s.io/v1: SelfSubjectReview (`kubectl auth whoami`) and
// TokenReview, which asks the server's authenticator about a bearer token.
// TokenReview needs that authenticator at run time; without one (tools and tests
// that serve the built-in kinds with no server around them) it is not served.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { selfSubjectReviews } from './self-subject-reviews.js';
import { tokenReviews, type TokenReviewDependencies } from './token-reviews.js';

export { selfSubjectReviews, tokenReviews };

export type AuthenticationV1Dependencies = TokenReviewDependencies;

/** In discovery's order: selfsubjectreviews, tokenreviews. */
export function authenticationV1(deps?: AuthenticationV1Dependencies): ResourceDefinition[] {
  return deps === undefined ? [selfSubjectReviews] : [selfSubjectReviews, tokenReviews(deps)];
}
