// `kubectl get componentstatuses`: NAME STATUS MESSAGE ERROR, as kube's
// printComponentStatus prints them: the Healthy condition's status as Healthy or
// Unhealthy (Unknown without one), its message and its error.
import { NAME_COLUMN, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { arrayAt, stringAt } from './helpers.js';

export const componentStatusTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Status', description: 'Status of the component conditions' }),
    column({ name: 'Message', description: 'Message of the component conditions' }),
    column({ name: 'Error', description: 'Error of the component conditions' }),
  ],
  cells: (cs) => {
    const healthy = arrayAt(cs, 'conditions').find((c) => c.type === 'Healthy');
    if (healthy === undefined) return [nameOf(cs), 'Unknown', '', ''];
    return [nameOf(cs), healthy.status === 'True' ? 'Healthy' : 'Unhealthy', stringAt(healthy, 'message'), stringAt(healthy, 'error')];
  },
};
