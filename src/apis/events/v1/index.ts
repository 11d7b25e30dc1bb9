// events.k8s.io/v1: Event, the core/v1 Event served under its newer field names
// (one stored object; events.ts converts).
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { events } from './events.js';

export { events };

export function eventsV1(): ResourceDefinition[] {
  return [events];
}
