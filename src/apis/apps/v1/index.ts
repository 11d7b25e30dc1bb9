// apps/v1: the group version's kinds, in discovery's order (by resource name).
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { controllerRevisions } from './controller-revisions.js';
import { daemonSets } from './daemon-sets.js';
import { deployments } from './deployments.js';
import { replicaSets } from './replica-sets.js';
import { statefulSets } from './stateful-sets.js';

export { controllerRevisions, daemonSets, deployments, replicaSets, statefulSets };

export function appsV1(): ResourceDefinition[] {
  return [controllerRevisions, daemonSets, deployments, replicaSets, statefulSets];
}
