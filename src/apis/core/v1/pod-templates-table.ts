// `kubectl get podtemplates`: NAME CONTAINERS IMAGES POD LABELS (kube prints no AGE here).
import { NAME_COLUMN, column, formatLabels, nameOf, type TableDefinition } from '../../../registry/table.js';
import { objectAt } from './helpers.js';
import { containerCells } from './shared-table.js';

export const podTemplateTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Containers', description: 'Names of each container in the template.' }),
    column({ name: 'Images', description: 'Images of each container in the template.' }),
    column({ name: 'Pod Labels', description: 'Labels of the pods made from the template.' }),
  ],
  cells: (pt) => {
    const template = objectAt(pt, 'template');
    const { names, images } = containerCells(objectAt(template, 'spec'));
    return [nameOf(pt), names, images, formatLabels(objectAt(template, 'metadata')?.labels)];
  },
};
