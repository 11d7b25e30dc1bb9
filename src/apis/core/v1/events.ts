// core/v1 Events. Kube validates them leniently for backward compatibility
// (ValidateEventCreate returns early for v1): no strategy-level metadata checks,
// names only need to be path-safe, and the strict reporting fields apply only to
// events that carry an eventTime (those written by the events.k8s.io clients).
import { defineResource } from '../../../registry/define-resource.js';
import { eventTable } from './events-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, invalidValue, path, required } from '../../../schema/field-errors.js';
import { isQualifiedName } from '../../../registry/validation/names.js';
import { objectAt, stringAt } from './helpers.js';

const LIMITS = { reportingInstance: 128, action: 128, reason: 128, message: 1024 } as const;

export function validateEvent(ev: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const ns = ev.metadata.namespace ?? '';
  const involvedNs = stringAt(objectAt(ev, 'involvedObject'), 'namespace');
  const mismatch = invalidValue(path('involvedObject', 'namespace'), involvedNs, 'does not match event.namespace');
  const hasEventTime = ev.eventTime !== undefined && ev.eventTime !== null && ev.eventTime !== '';
  if (!hasEventTime) {
    // Old clients may leave involvedObject.namespace empty for events in "default".
    if (involvedNs === '' ? ns !== '' && ns !== 'default' : ns !== involvedNs) errs.push(mismatch);
    return errs;
  }
  if (involvedNs === '' && ns !== 'default' && ns !== 'kube-system') errs.push(mismatch);
  const controller = stringAt(ev, 'reportingComponent');
  // Error paths use kube's internal field name, reportingController.
  if (controller === '') errs.push(required(path('reportingController')));
  for (const msg of isQualifiedName(controller)) errs.push(invalidValue(path('reportingController'), controller, msg));
  for (const field of ['reportingInstance', 'action', 'reason'] as const) {
    const v = stringAt(ev, field);
    if (v === '') errs.push(required(path(field)));
    if (v.length > LIMITS[field]) errs.push(invalidValue(path(field), '', `can have at most ${LIMITS[field]} characters`));
  }
  if (stringAt(ev, 'message').length > LIMITS.message) errs.push(invalidValue(path('message'), '', `can have at most ${LIMITS.message} characters`));
  return errs;
}

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
    validate: validateEvent,
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    selectableFields,
  },
});
