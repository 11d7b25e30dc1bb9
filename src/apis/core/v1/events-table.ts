// `kubectl get events`: LAST SEEN TYPE REASON OBJECT MESSAGE, and with -o wide
// SUBOBJECT SOURCE FIRST SEEN COUNT NAME. Events written through events.k8s.io
// leave first/lastTimestamp empty and carry eventTime and series instead, which
// the times and count fall back to.
import { NAME_COLUMN, column, nameOf, since, type TableDefinition } from '../../../registry/table.js';
import { objectAt, stringAt } from './helpers.js';

function firstNonEmpty(a: string, b: string): string {
  return a !== '' ? a : b;
}

export const eventTable: TableDefinition = {
  columns: [
    column({ name: 'Last Seen', description: 'Time since the event was last observed.' }),
    column({ name: 'Type', description: 'Normal or Warning.' }),
    column({ name: 'Reason', description: 'Why the event happened, in CamelCase.' }),
    column({ name: 'Object', description: 'The object the event is about, as kind/name.' }),
    column({ name: 'Subobject', priority: 1, description: 'The part of the object (field path) the event is about.' }),
    column({ name: 'Source', priority: 1, description: 'The component (and host) that reported the event.' }),
    column({ name: 'Message', description: 'What happened, for people.' }),
    column({ name: 'First Seen', priority: 1, description: 'Time since the event was first observed.' }),
    column({ name: 'Count', priority: 1, description: 'How many times the event was observed.' }),
    { ...NAME_COLUMN, priority: 1 },
  ],
  cells: (ev, now) => {
    const involved = objectAt(ev, 'involvedObject');
    const source = objectAt(ev, 'source');
    const series = objectAt(ev, 'series');
    const first = stringAt(ev, 'firstTimestamp') !== '' ? since(ev.firstTimestamp, now) : since(ev.eventTime, now);
    let last = stringAt(ev, 'lastTimestamp') !== '' ? since(ev.lastTimestamp, now) : first;
    let count = typeof ev.count === 'number' ? ev.count : 0;
    if (series !== undefined) {
      last = since(series.lastObservedTime, now);
      count = typeof series.count === 'number' ? series.count : 0;
    } else if (count === 0) count = 1; // singleton events leave count unset
    const kind = stringAt(involved, 'kind').toLowerCase();
    const name = stringAt(involved, 'name');
    const component = firstNonEmpty(stringAt(source, 'component'), stringAt(ev, 'reportingComponent'));
    const instance = firstNonEmpty(stringAt(source, 'host'), stringAt(ev, 'reportingInstance'));
    return [
      last,
      stringAt(ev, 'type'),
      stringAt(ev, 'reason'),
      name === '' ? kind : `${kind}/${name}`,
      stringAt(involved, 'fieldPath'),
      instance === '' ? component : `${component}, ${instance}`,
      stringAt(ev, 'message').trim(),
      first,
      count,
      nameOf(ev),
    ];
  },
};
