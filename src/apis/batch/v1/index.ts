// batch/v1: the group version's kinds, in discovery's order (kube-apiserver
// installs a group's resources sorted by path, so cronjobs come before jobs).
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { cronJobs } from './cron-jobs.js';
import { jobs } from './jobs.js';

export { cronJobs, jobs };

export function batchV1(): ResourceDefinition[] {
  return [cronJobs, jobs];
}
