// `kubectl get priorityclasses`: NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';

export const priorityClassTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Value', type: 'integer', description: 'The priority of pods that name this class.' }),
    column({ name: 'Global-Default', type: 'boolean', description: 'Whether pods without a priority class get this one.' }),
    AGE_COLUMN,
    column({ name: 'PreemptionPolicy', description: 'Whether pods of this class may preempt pods of lower priority.' }),
  ],
  cells: (pc, now) => [
    nameOf(pc),
    typeof pc.value === 'number' ? pc.value : 0,
    pc.globalDefault === true,
    ageOf(pc, now),
    typeof pc.preemptionPolicy === 'string' ? pc.preemptionPolicy : '',
  ],
};
