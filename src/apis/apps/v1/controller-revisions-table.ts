// `kubectl get controllerrevisions`: NAME CONTROLLER REVISION AGE (kube's
// printControllerRevision: the controller owner as `kind.group/name`, lower-cased).
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import type { KubeObject } from '../../../schema/object.js';

/** formatResourceName of the controlling owner reference; `<none>` without one. */
function controllerOf(cr: KubeObject): string {
  const owner = (cr.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  if (owner === undefined) return '<none>';
  const apiVersion = owner.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = owner.kind ?? '';
  if (kind === '' && group === '') return owner.name ?? '';
  return `${(group === '' ? kind : `${kind}.${group}`).toLowerCase()}/${owner.name ?? ''}`;
}

export const controllerRevisionTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Controller', description: 'Controller of the object' }),
    column({ name: 'Revision', type: 'integer', description: 'Revision indicates the revision of the state represented by Data.' }),
    AGE_COLUMN,
  ],
  cells: (cr, now) => [nameOf(cr), controllerOf(cr), typeof cr.revision === 'number' ? cr.revision : 0, ageOf(cr, now)],
};
