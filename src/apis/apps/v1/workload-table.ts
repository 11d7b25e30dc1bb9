// Columns the apps/v1 workload tables share: the counters they print (0 when
// absent) and the wide CONTAINERS IMAGES [SELECTOR] columns of kube's printers.
import { column, type TableColumnDefinition } from '../../../registry/table.js';

export function count(parent: Record<string, unknown> | undefined, field: string): number {
  const v = parent?.[field];
  return typeof v === 'number' ? v : 0;
}

export const CONTAINERS_COLUMN = column({ name: 'Containers', priority: 1, description: 'Names of each container in the template.' });
export const IMAGES_COLUMN = column({ name: 'Images', priority: 1, description: 'Images referenced by each container in the template.' });

/** CONTAINERS, IMAGES and SELECTOR (described as the kind's spec.selector), shown with -o wide. */
export function workloadColumns(selectorDescription: string): TableColumnDefinition[] {
  return [CONTAINERS_COLUMN, IMAGES_COLUMN, column({ name: 'Selector', priority: 1, description: selectorDescription })];
}
