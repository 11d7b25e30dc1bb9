// `kubectl get pv`: NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM
// STORAGECLASS VOLUMEATTRIBUTESCLASS REASON AGE, and with -o wide VOLUMEMODE.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { objectAt, stringAt } from './helpers.js';
import { accessModes, quantityCell, storageClassOf } from './shared-table.js';

function unsetOr(value: unknown): string {
  return typeof value === 'string' ? value : '<unset>';
}

export const persistentVolumeTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Capacity', description: 'The storage capacity of the volume.' }),
    column({ name: 'Access Modes', description: 'How the volume can be mounted (RWO, ROX, RWX, RWOP).' }),
    column({ name: 'Reclaim Policy', description: 'What happens to the volume when its claim is released.' }),
    column({ name: 'Status', description: 'The volume phase, or Terminating while deleting.' }),
    column({ name: 'Claim', description: 'The bound claim, as namespace/name.' }),
    column({ name: 'StorageClass', description: 'The storage class of the volume.' }),
    column({ name: 'VolumeAttributesClass', description: 'The volume attributes class, if any.' }),
    column({ name: 'Reason', description: 'Why the volume is in its phase.' }),
    AGE_COLUMN,
    column({ name: 'VolumeMode', priority: 1, description: 'Filesystem or Block.' }),
  ],
  cells: (pv, now) => {
    const spec = objectAt(pv, 'spec');
    const status = objectAt(pv, 'status');
    const claim = objectAt(spec, 'claimRef');
    const deleting = pv.metadata.deletionTimestamp !== undefined && pv.metadata.deletionTimestamp !== null;
    return [
      nameOf(pv),
      quantityCell(spec?.capacity, 'storage'),
      accessModes(spec?.accessModes),
      stringAt(spec, 'persistentVolumeReclaimPolicy'),
      deleting ? 'Terminating' : stringAt(status, 'phase'),
      claim === undefined ? '' : `${stringAt(claim, 'namespace')}/${stringAt(claim, 'name')}`,
      storageClassOf(pv),
      unsetOr(spec?.volumeAttributesClassName),
      stringAt(status, 'reason'),
      ageOf(pv, now),
      unsetOr(spec?.volumeMode),
    ];
  },
};
