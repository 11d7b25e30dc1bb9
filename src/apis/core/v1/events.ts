// core/v1 Events, also stored for events.k8s.io/v1 (apis/events/v1). Kube validates
// writes through core/v1 leniently for backward compatibility (ValidateEventCreate
// returns early for v1): no strategy-level metadata checks, names only need to be
// path-safe, and the strict reporting fields apply only to events that carry an
// eventTime. Writes through events.k8s.io/v1 get the strict rules
// (events-validation.ts), chosen by the write context's requestVersion.
import { defineResource } from '../../../registry/define-resource.js';
import { eventTable } from './events-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { validateEventCreate, validateEventUpdate } from './events-validation.js';
import { objectAt, stringAt } from './helpers.js';

function selectableFields(ev: KubeObject): Record<string, string> {
  const involved = objectAt(ev, 'involvedObject');
  const source = stringAt(objectAt(ev, 'source'), 'component');
  const fields: Record<string, string> = {};
  for (const f of ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']) {
    fields[`involvedObject.${f}`] = stringAt(involved, f);
  }
  return {
    ...fields,
    reason: stringAt(ev, 'reason'),
    reportingComponent: stringAt(ev, 'reportingComponent'),
    source: source === '' ? stringAt(ev, 'reportingComponent') : source,
    type: stringAt(ev, 'type'),
  };
}

export const events = defineResource({
  group: '',
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  scope: 'Namespaced',
  table: eventTable,
  shortNames: ['ev'],
  nameValidation: 'path-segment',
  strategy: {
    // The rules depend on the request's version: strict through events.k8s.io/v1.
    validate: validateEventCreate,
    validateUpdate: validateEventUpdate,
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    selectableFields,
  },
});
