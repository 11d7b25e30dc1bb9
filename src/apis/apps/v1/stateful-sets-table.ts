// `kubectl get statefulsets`: NAME READY AGE, and with -o wide CONTAINERS
// IMAGES (kube's printStatefulSet; READY is ready/desired).
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { containerCells } from '../../core/v1/shared-table.js';
import { CONTAINERS_COLUMN, IMAGES_COLUMN, count } from './workload-table.js';
import { objectAt } from './workload.js';

export const statefulSetTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'Ready', description: 'Number of the pod with ready state' }), AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN],
  cells: (sts, now) => {
    const spec = objectAt(sts, 'spec');
    const { names, images } = containerCells(objectAt(objectAt(spec, 'template'), 'spec'));
    return [nameOf(sts), `${count(objectAt(sts, 'status'), 'readyReplicas')}/${count(spec, 'replicas')}`, ageOf(sts, now), names, images];
  },
};
