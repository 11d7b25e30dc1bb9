// apiextensions.k8s.io/v1: CustomResourceDefinition, stored and served with
// kube's create and update validation basics. The custom resources themselves
// are not served yet (TODO(#10)).
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { customResourceDefinitions } from './custom-resource-definitions.js';

export { customResourceDefinitions };

export function apiextensionsV1(): ResourceDefinition[] {
  return [customResourceDefinitions];
}
