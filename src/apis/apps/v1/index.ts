// apps/v1: the group version's kinds, in discovery's order. Not served yet:
// the factory answers no kinds until they are written (issue #10).
import type { ResourceDefinition } from '../../../registry/define-resource.js';

export function appsV1(): ResourceDefinition[] {
  return [];
}
