// `kubectl get configmaps`: NAME DATA AGE; DATA counts keys of data and binaryData.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { keyCount } from './shared-table.js';

export const configMapTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'Data', description: 'Number of keys in data and binaryData.' }), AGE_COLUMN],
  cells: (cm, now) => [nameOf(cm), keyCount(cm.data) + keyCount(cm.binaryData), ageOf(cm, now)],
};
