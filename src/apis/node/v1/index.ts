// node.k8s.io/v1: runtime classes.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { runtimeClasses } from './runtime-classes.js';

export { runtimeClasses };

export function nodeV1(): ResourceDefinition[] {
  return [runtimeClasses];
}
