// apiregistration.k8s.io/v1: APIService objects, stored and served with
// kube-aggregator's validation. No local APIServices are bootstrapped and
// nothing is proxied yet (TODO(#10)).
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { apiServices } from './api-services.js';

export { apiServices };

export function apiregistrationV1(): ResourceDefinition[] {
  return [apiServices];
}
