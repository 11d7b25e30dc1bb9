// `kubectl get prioritylevelconfigurations`: NAME TYPE NOMINALCONCURRENCYSHARES
// QUEUES HANDSIZE QUEUELENGTHLIMIT AGE; `<none>` where a level is not Limited or
// does not queue.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableCell, type TableDefinition } from '../../../registry/table.js';
import { objectAt, stringAt } from '../../core/v1/helpers.js';

const num = (v: unknown): TableCell => (typeof v === 'number' ? v : 0);

export const priorityLevelConfigurationTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Type', description: 'Limited or Exempt.' }),
    column({ name: 'NominalConcurrencyShares', type: 'string', description: 'The share of the server concurrency this level is assured.' }),
    column({ name: 'Queues', type: 'string', description: 'Number of queues.' }),
    column({ name: 'HandSize', type: 'string', description: 'Queues a flow is shuffle-sharded to.' }),
    column({ name: 'QueueLengthLimit', type: 'string', description: 'Requests a queue may hold.' }),
    AGE_COLUMN,
  ],
  cells: (pl, now) => {
    const spec = objectAt(pl, 'spec');
    const limited = objectAt(spec, 'limited');
    const queuing = objectAt(objectAt(limited, 'limitResponse'), 'queuing');
    return [
      nameOf(pl),
      stringAt(spec, 'type'),
      limited === undefined ? '<none>' : num(limited.nominalConcurrencyShares),
      queuing === undefined ? '<none>' : num(queuing.queues),
      queuing === undefined ? '<none>' : num(queuing.handSize),
      queuing === undefined ? '<none>' : num(queuing.queueLengthLimit),
      ageOf(pl, now),
    ];
  },
};
