// `kubectl get replicasets`: NAME DESIRED CURRENT READY AGE, and with -o wide
// CONTAINERS IMAGES SELECTOR (kube's printReplicaSet).
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { containerCells } from '../../core/v1/shared-table.js';
import { count, workloadColumns } from './workload-table.js';
import { formatLabelSelector, objectAt } from './workload.js';

export const replicaSetTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Desired', type: 'integer', description: 'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1.' }),
    column({ name: 'Current', type: 'integer', description: 'Replicas is the most recently observed number of non-terminating pods.' }),
    column({ name: 'Ready', type: 'integer', description: 'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.' }),
    AGE_COLUMN,
    ...workloadColumns("Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels."),
  ],
  cells: (rs, now) => {
    const spec = objectAt(rs, 'spec');
    const status = objectAt(rs, 'status');
    const { names, images } = containerCells(objectAt(objectAt(spec, 'template'), 'spec'));
    return [nameOf(rs), count(spec, 'replicas'), count(status, 'replicas'), count(status, 'readyReplicas'), ageOf(rs, now), names, images, formatLabelSelector(spec?.selector)];
  },
};
