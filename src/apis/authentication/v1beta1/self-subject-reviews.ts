// authentication.k8s.io/v1beta1 SelfSubjectReview: the only version kubectl 1.27 asks for.
import { selfSubjectReviewsAt } from '../self-subject-review.js';

export const selfSubjectReviews = selfSubjectReviewsAt('v1beta1');
