// CSIStorageCapacities: capacity a driver reports for a storage class in a
// topology segment. Only the capacities change after create.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, invalidValue, path, required } from '../../../schema/field-errors.js';
import { validateImmutableField } from '../../../registry/validation/common.js';
import { isDNS1123Subdomain } from '../../../registry/validation/names.js';
import { validateLabelSelector } from '../../../registry/validation/label-selector.js';
import { NAME_COLUMN, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { isQuantity, parseQuantity, quantitySign, quantityToString } from '../../../schema/quantity.js';

function validateCapacity(value: unknown, field: string): FieldError[] {
  if (value === undefined || value === null) return [];
  const s = typeof value === 'string' ? value : String(value);
  if (!isQuantity(s)) return [];
  return quantitySign(parseQuantity(s)) < 0 ? [invalidValue(path(field), s, 'must be greater than or equal to 0')] : [];
}

export function validateCsiStorageCapacity(c: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const scName = typeof c.storageClassName === 'string' ? c.storageClassName : '';
  if (scName === '') errs.push(required(path('storageClassName')));
  else for (const msg of isDNS1123Subdomain(scName)) errs.push(invalidValue(path('storageClassName'), scName, msg));
  if (c.nodeTopology !== undefined && c.nodeTopology !== null) errs.push(...validateLabelSelector(c.nodeTopology, path('nodeTopology')));
  errs.push(...validateCapacity(c.capacity, 'capacity'), ...validateCapacity(c.maximumVolumeSize, 'maximumVolumeSize'));
  return errs;
}

function validateCsiStorageCapacityUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  return [
    ...validateCsiStorageCapacity(next),
    ...validateImmutableField(next.nodeTopology, prev.nodeTopology, path('nodeTopology')),
    ...validateImmutableField(next.storageClassName, prev.storageClassName, path('storageClassName')),
  ];
}

function formatQuantity(v: unknown): string {
  if (typeof v !== 'string' || !isQuantity(v)) return '<unset>';
  return quantityToString(parseQuantity(v));
}

export const csiStorageCapacityTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'StorageClassName', description: 'The storage class the capacity applies to.' }),
    column({ name: 'Capacity', description: 'The capacity reported.' }),
  ],
  cells: (c) => [nameOf(c), typeof c.storageClassName === 'string' ? c.storageClassName : '', formatQuantity(c.capacity)],
};

export const csiStorageCapacities = defineResource({
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSIStorageCapacity',
  plural: 'csistoragecapacities',
  scope: 'Namespaced',
  table: csiStorageCapacityTable,
  strategy: {
    validate: validateCsiStorageCapacity,
    validateUpdate: validateCsiStorageCapacityUpdate,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
  },
});
