// `kubectl get deployments`: NAME READY UP-TO-DATE AVAILABLE AGE (kube types the
// counters as strings and sends integers), and with
// -o wide CONTAINERS IMAGES SELECTOR (kube's printDeployment).
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { containerCells } from '../../core/v1/shared-table.js';
import { count, workloadColumns } from './workload-table.js';
import { objectAt, selectorOf } from './workload.js';
import { renderLabelSelector } from '../../../schema/label-selector.js';

/** The wide Selector of a Deployment: the selector's text, `<invalid>` when it does not convert. */
function selectorText(selector: unknown): string {
  const s = selectorOf(selector);
  if (s.kind === 'invalid') return '<invalid>';
  return s.kind === 'requirements' ? renderLabelSelector(s.reqs) : '';
}

export const deploymentTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Ready', description: 'Number of the pod with ready state' }),
    column({ name: 'Up-to-date', description: 'Total number of non-terminating pods targeted by this deployment that have the desired template spec.' }),
    column({ name: 'Available', description: 'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.' }),
    AGE_COLUMN,
    ...workloadColumns('Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template\'s labels.'),
  ],
  cells: (d, now) => {
    const spec = objectAt(d, 'spec');
    const status = objectAt(d, 'status');
    const { names, images } = containerCells(objectAt(objectAt(spec, 'template'), 'spec'));
    return [
      nameOf(d),
      `${count(status, 'readyReplicas')}/${count(spec, 'replicas')}`,
      count(status, 'updatedReplicas'),
      count(status, 'availableReplicas'),
      ageOf(d, now),
      names,
      images,
      selectorText(spec?.selector),
    ];
  },
};
