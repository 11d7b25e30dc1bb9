// `kubectl get rc`: NAME DESIRED CURRENT READY AGE, and with -o wide CONTAINERS
// IMAGES SELECTOR.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, formatLabels, nameOf, type TableDefinition } from '../../../registry/table.js';
import { objectAt } from './helpers.js';
import { containerCells } from './shared-table.js';

function count(parent: Record<string, unknown> | undefined, field: string): number {
  const v = parent?.[field];
  return typeof v === 'number' ? v : 0;
}

export const replicationControllerTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Desired', type: 'integer', description: 'Replicas the spec asks for.' }),
    column({ name: 'Current', type: 'integer', description: 'Replicas observed.' }),
    column({ name: 'Ready', type: 'integer', description: 'Replicas that are ready.' }),
    AGE_COLUMN,
    column({ name: 'Containers', priority: 1, description: 'Names of each container in the template.' }),
    column({ name: 'Images', priority: 1, description: 'Images of each container in the template.' }),
    column({ name: 'Selector', priority: 1, description: 'Labels of the pods the controller owns.' }),
  ],
  cells: (rc, now) => {
    const spec = objectAt(rc, 'spec');
    const status = objectAt(rc, 'status');
    const { names, images } = containerCells(objectAt(objectAt(spec, 'template'), 'spec'));
    return [nameOf(rc), count(spec, 'replicas'), count(status, 'replicas'), count(status, 'readyReplicas'), ageOf(rc, now), names, images, formatLabels(spec?.selector)];
  },
};
