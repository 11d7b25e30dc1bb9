// `kubectl get flowschemas`: NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD
// AGE MISSINGPL. MISSINGPL is the Dangling condition's status, `?` until the
// condition is set.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { arrayAt, objectAt, stringAt } from '../../core/v1/helpers.js';

export const flowSchemaTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'PriorityLevel', description: 'The priority level the matching requests are assigned to.' }),
    column({ name: 'MatchingPrecedence', type: 'integer', description: 'Lower values are matched first.' }),
    column({ name: 'DistinguisherMethod', description: 'How matching requests are split into flows.' }),
    AGE_COLUMN,
    column({ name: 'MissingPL', description: 'Whether the referenced priority level does not exist.' }),
  ],
  cells: (fs, now) => {
    const spec = objectAt(fs, 'spec');
    const method = objectAt(spec, 'distinguisherMethod');
    const dangling = arrayAt(objectAt(fs, 'status'), 'conditions').find((c) => c.type === 'Dangling');
    return [
      nameOf(fs),
      stringAt(objectAt(spec, 'priorityLevelConfiguration'), 'name'),
      typeof spec?.matchingPrecedence === 'number' ? spec.matchingPrecedence : 0,
      method === undefined ? '<none>' : stringAt(method, 'type'),
      ageOf(fs, now),
      dangling === undefined ? '?' : stringAt(dangling, 'status'),
    ];
  },
};
