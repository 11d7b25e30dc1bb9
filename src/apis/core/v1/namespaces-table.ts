// `kubectl get namespaces`: NAME STATUS AGE, as kube's namespace printer.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { stringAt } from './helpers.js';

export const namespaceTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'Status', description: 'The lifecycle phase of the namespace.' }), AGE_COLUMN],
  cells: (ns, now) => [nameOf(ns), stringAt(ns.status, 'phase'), ageOf(ns, now)],
};
