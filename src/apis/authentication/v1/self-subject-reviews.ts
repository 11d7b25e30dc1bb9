// authentication.k8s.io/v1 SelfSubjectReview (kubectl 1.28+ tries this first).
import { selfSubjectReviewsAt } from '../self-subject-review.js';

export const selfSubjectReviews = selfSubjectReviewsAt('v1');
