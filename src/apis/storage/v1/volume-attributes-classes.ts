// VolumeAttributesClasses: a CSI driver and the mutable volume attributes it
// applies; both are fixed once created.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import type { FieldError } from '../../../schema/field-errors.js';
import { path } from '../../../schema/field-errors.js';
import { validateImmutableField } from '../../../registry/validation/common.js';
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { validateCsiDriverName, validateParameters } from './shared.js';

export function validateVolumeAttributesClass(vac: KubeObject): FieldError[] {
  return [...validateCsiDriverName(vac.driverName, path('driverName')), ...validateParameters(vac.parameters, path('parameters'), false)];
}

function validateVolumeAttributesClassUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  return [
    ...validateVolumeAttributesClass(next),
    ...validateImmutableField(next.driverName, prev.driverName, path('driverName')),
    ...validateImmutableField(next.parameters, prev.parameters, path('parameters')),
  ];
}

export const volumeAttributesClassTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'DriverName', description: 'The CSI driver the class applies to.' }), AGE_COLUMN],
  cells: (vac, now) => [nameOf(vac), typeof vac.driverName === 'string' ? vac.driverName : '', ageOf(vac, now)],
};

export const volumeAttributesClasses = defineResource({
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'VolumeAttributesClass',
  plural: 'volumeattributesclasses',
  scope: 'Cluster',
  shortNames: ['vac'],
  table: volumeAttributesClassTable,
  strategy: {
    validate: validateVolumeAttributesClass,
    validateUpdate: validateVolumeAttributesClassUpdate,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
});
