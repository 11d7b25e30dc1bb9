// events.k8s.io/v1 Event: the core/v1 Event, stored once and served in both
// versions (kube stores events as core/v1). The newer version renames fields and
// marks the old ones deprecated; the conversion is a renaming both ways, so a
// client of either version sees the other's writes. A write is schema-validated
// as events.k8s.io/v1 (eventTime is required there, as kube's ValidateEventCreate
// requires it of events.k8s.io writes), then converted; the kind's rules and
// storage are core/v1's (registry/store/version-codec.ts), and those rules read the
// write context's requestVersion to apply kube's strict events.k8s.io/v1 rules
// (core/v1/events-validation.ts).
import type { TableDefinition } from '../../../registry/table.js';
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { events as coreEvents } from '../../core/v1/events.js';
import { objectAt, stringAt } from '../../core/v1/helpers.js';

/** events.k8s.io/v1 name -> core/v1 name; every other field has one name in both. */
const RENAMED: readonly (readonly [string, string])[] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function rename(obj: KubeObject, pairs: readonly (readonly [string, string])[]): KubeObject {
  const names = new Map(pairs);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    // Defined, not assigned: a client's `__proto__` key stays data.
    Object.defineProperty(out, names.get(key) ?? key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out as KubeObject;
}

export function eventToCore(ev: KubeObject): KubeObject {
  return rename(ev, RENAMED);
}

export function eventFromCore(ev: KubeObject): KubeObject {
  return rename(ev, RENAMED.map(([a, b]) => [b, a] as const));
}

/** The same columns as core/v1 events (kube prints both versions with one printer). */
function convertedTable(table: TableDefinition): TableDefinition {
  return {
    columns: table.columns,
    cells: (obj, now) => table.cells(eventToCore(obj), now),
    ...(table.conditions === undefined ? {} : { conditions: (obj: KubeObject) => table.conditions!(eventToCore(obj)) }),
  };
}

/**
 * kube's field label conversion for events.k8s.io/v1 (AddFieldLabelConversionsForEvent):
 * its own field names, read from the stored core/v1 object, so selectors need no conversion.
 */
function selectableFields(core: KubeObject): Record<string, string> {
  const involved = objectAt(core, 'involvedObject');
  const fields: Record<string, string> = {};
  for (const f of ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']) fields[`regarding.${f}`] = stringAt(involved, f);
  return {
    ...fields,
    reason: stringAt(core, 'reason'),
    reportingController: stringAt(core, 'reportingComponent'),
    type: stringAt(core, 'type'),
  };
}

export const events = defineResource({
  group: 'events.k8s.io',
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  scope: 'Namespaced',
  shortNames: ['ev'],
  nameValidation: 'path-segment',
  ...(coreEvents.table === undefined ? {} : { table: convertedTable(coreEvents.table) }),
  strategy: { ...coreEvents.strategy, selectableFields },
  conversion: { stored: coreEvents, toStored: eventToCore, fromStored: eventFromCore },
});
