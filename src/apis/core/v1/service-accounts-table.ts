// `kubectl get serviceaccounts`: NAME SECRETS AGE.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { arrayAt } from './helpers.js';

export const serviceAccountTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'Secrets', description: 'Number of secrets listed in the service account.' }), AGE_COLUMN],
  cells: (sa, now) => [nameOf(sa), arrayAt(sa, 'secrets').length, ageOf(sa, now)],
};
