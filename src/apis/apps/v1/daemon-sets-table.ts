// `kubectl get daemonsets`: NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE
// NODE SELECTOR AGE, and with -o wide CONTAINERS IMAGES SELECTOR (kube's printDaemonSet).
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, formatLabels, nameOf, type TableDefinition } from '../../../registry/table.js';
import { containerCells } from '../../core/v1/shared-table.js';
import { count, workloadColumns } from './workload-table.js';
import { formatLabelSelector, objectAt } from './workload.js';

export const daemonSetTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Desired', type: 'integer', description: 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).' }),
    column({ name: 'Current', type: 'integer', description: 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.' }),
    column({ name: 'Ready', type: 'integer', description: 'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.' }),
    column({ name: 'Up-to-date', type: 'integer', description: 'The total number of nodes that are running updated daemon pod' }),
    column({ name: 'Available', type: 'integer', description: 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)' }),
    column({ name: 'Node Selector', description: "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node." }),
    AGE_COLUMN,
    ...workloadColumns("A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels."),
  ],
  cells: (ds, now) => {
    const spec = objectAt(ds, 'spec');
    const status = objectAt(ds, 'status');
    const podSpec = objectAt(objectAt(spec, 'template'), 'spec');
    const { names, images } = containerCells(podSpec);
    return [
      nameOf(ds),
      count(status, 'desiredNumberScheduled'),
      count(status, 'currentNumberScheduled'),
      count(status, 'numberReady'),
      count(status, 'updatedNumberScheduled'),
      count(status, 'numberAvailable'),
      formatLabels(podSpec?.nodeSelector),
      ageOf(ds, now),
      names,
      images,
      formatLabelSelector(spec?.selector),
    ];
  },
};
