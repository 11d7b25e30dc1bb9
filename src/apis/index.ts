// Every built-in resource the server serves. main.ts hands this list to the
// installer (routes), discovery and OpenAPI; adding a kind means adding its
// declaration here and nothing else.
import type { ResourceDefinition } from '../registry/define-resource.js';
import { selfSubjectReviews as selfSubjectReviewsV1 } from './authentication/v1/self-subject-reviews.js';
import { selfSubjectReviews as selfSubjectReviewsV1beta1 } from './authentication/v1beta1/self-subject-reviews.js';
import { coreV1Resources } from './core/v1/index.js';

export const builtinResources: readonly ResourceDefinition[] = [...coreV1Resources, selfSubjectReviewsV1, selfSubjectReviewsV1beta1];
