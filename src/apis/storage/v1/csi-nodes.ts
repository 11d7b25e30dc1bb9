// CSINodes: the CSI drivers registered on a node (written by kubelets), one entry
// per driver with its node ID and topology keys.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, duplicate, invalidValue, path, required, tooLong } from '../../../schema/field-errors.js';
import { isQualifiedName } from '../../../registry/validation/names.js';
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { arrayAt, objectAt, stringAt } from '../../core/v1/helpers.js';
import { validateCsiDriverName } from './shared.js';

const NODE_ID_MAX = 192;

export function validateCsiNode(node: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const dp = path('spec', 'drivers');
  const seen = new Set<string>();
  arrayAt(objectAt(node, 'spec'), 'drivers').forEach((d, i) => {
    const p = dp.index(i);
    const name = stringAt(d, 'name');
    errs.push(...validateCsiDriverName(name, p.child('name')));
    if (name !== '' && seen.has(name)) errs.push(duplicate(p.child('name'), name));
    seen.add(name);
    const nodeID = stringAt(d, 'nodeID');
    if (nodeID === '') errs.push(required(p.child('nodeID')));
    else if (nodeID.length > NODE_ID_MAX) errs.push(tooLong(p.child('nodeID'), NODE_ID_MAX));
    const keys = Array.isArray(d.topologyKeys) ? (d.topologyKeys as unknown[]) : [];
    const seenKeys = new Set<unknown>();
    keys.forEach((k, j) => {
      const key = typeof k === 'string' ? k : '';
      if (key === '') errs.push(required(p.child('topologyKeys').index(j)));
      else for (const msg of isQualifiedName(key)) errs.push(invalidValue(p.child('topologyKeys').index(j), key, msg));
      if (seenKeys.has(k)) errs.push(duplicate(p.child('topologyKeys').index(j), k));
      seenKeys.add(k);
    });
    const count = objectAt(d, 'allocatable')?.count;
    if (typeof count === 'number' && count < 0) errs.push(invalidValue(p.child('allocatable', 'count'), count, 'must be greater than or equal to 0'));
  });
  return errs;
}

export const csiNodeTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'Drivers', type: 'integer', description: 'Number of CSI drivers registered on the node.' }), AGE_COLUMN],
  cells: (node, now) => [nameOf(node), arrayAt(objectAt(node, 'spec'), 'drivers').length, ageOf(node, now)],
};

export const csiNodes = defineResource({
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSINode',
  plural: 'csinodes',
  scope: 'Cluster',
  table: csiNodeTable,
  strategy: {
    validate: validateCsiNode,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
  },
});
