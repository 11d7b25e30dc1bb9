// authentication.k8s.io/v1beta1: SelfSubjectReview only, for kubectl 1.27.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { selfSubjectReviews } from './self-subject-reviews.js';

export { selfSubjectReviews };

export function authenticationV1beta1(): ResourceDefinition[] {
  return [selfSubjectReviews];
}
