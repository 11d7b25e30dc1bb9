// authentication.k8s.io/v1: SelfSubjectReview (`kubectl auth whoami`). TokenReview
// joins it when tokens are reviewed over the API.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { selfSubjectReviews } from './self-subject-reviews.js';

export { selfSubjectReviews };

export function authenticationV1(): ResourceDefinition[] {
  return [selfSubjectReviews];
}
