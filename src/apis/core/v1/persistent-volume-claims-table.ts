// `kubectl get pvc`: NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS
// VOLUMEATTRIBUTESCLASS AGE, and with -o wide VOLUMEMODE. Capacity and access
// modes come from status, and only once the claim names a volume.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { objectAt, stringAt } from './helpers.js';
import { accessModes, quantityCell, storageClassOf } from './shared-table.js';

function unsetOr(value: unknown): string {
  return typeof value === 'string' ? value : '<unset>';
}

export const persistentVolumeClaimTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Status', description: 'The claim phase, or Terminating while deleting.' }),
    column({ name: 'Volume', description: 'The volume bound to the claim.' }),
    column({ name: 'Capacity', description: 'The capacity of the bound volume.' }),
    column({ name: 'Access Modes', description: 'How the bound volume can be mounted.' }),
    column({ name: 'StorageClass', description: 'The storage class of the claim.' }),
    column({ name: 'VolumeAttributesClass', description: 'The volume attributes class, if any.' }),
    AGE_COLUMN,
    column({ name: 'VolumeMode', priority: 1, description: 'Filesystem or Block.' }),
  ],
  cells: (pvc, now) => {
    const spec = objectAt(pvc, 'spec');
    const status = objectAt(pvc, 'status');
    const volume = stringAt(spec, 'volumeName');
    const deleting = pvc.metadata.deletionTimestamp !== undefined && pvc.metadata.deletionTimestamp !== null;
    return [
      nameOf(pvc),
      deleting ? 'Terminating' : stringAt(status, 'phase'),
      volume,
      volume === '' ? '' : quantityCell(status?.capacity, 'storage'),
      volume === '' ? '' : accessModes(status?.accessModes),
      storageClassOf(pvc),
      unsetOr(spec?.volumeAttributesClassName),
      ageOf(pvc, now),
      unsetOr(spec?.volumeMode),
    ];
  },
};
