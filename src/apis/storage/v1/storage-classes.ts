// StorageClasses: a provisioner and its parameters, both fixed once created, with
// kube's defaults reclaimPolicy Delete and volumeBindingMode Immediate. The class
// annotated as the default is printed with " (default)".
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, forbiddenField, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { deepEqual, validateImmutableField } from '../../../registry/validation/common.js';
import { isQualifiedName } from '../../../registry/validation/names.js';
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { validateParameters } from './shared.js';

const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
const DEFAULT_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

export function isDefaultClass(obj: KubeObject): boolean {
  const annotations = obj.metadata.annotations ?? {};
  return DEFAULT_ANNOTATIONS.some((a) => Object.hasOwn(annotations, a) && annotations[a] === 'true');
}

function applyDefaults(sc: KubeObject): void {
  if (sc.reclaimPolicy === undefined || sc.reclaimPolicy === null) sc.reclaimPolicy = 'Delete';
  if (sc.volumeBindingMode === undefined || sc.volumeBindingMode === null) sc.volumeBindingMode = 'Immediate';
}

export function validateStorageClass(sc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const provisioner = typeof sc.provisioner === 'string' ? sc.provisioner : '';
  if (provisioner === '') errs.push(required(path('provisioner')));
  else for (const msg of isQualifiedName(provisioner.toLowerCase())) errs.push(invalidValue(path('provisioner'), provisioner, msg));
  errs.push(...validateParameters(sc.parameters, path('parameters')));
  if (!RECLAIM_POLICIES.includes(sc.reclaimPolicy as string)) errs.push(notSupported(path('reclaimPolicy'), sc.reclaimPolicy, RECLAIM_POLICIES));
  if (sc.volumeBindingMode === undefined || sc.volumeBindingMode === null) errs.push(required(path('volumeBindingMode')));
  else if (!BINDING_MODES.includes(sc.volumeBindingMode as string)) errs.push(notSupported(path('volumeBindingMode'), sc.volumeBindingMode, BINDING_MODES));
  return errs;
}

export function validateStorageClassUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  const errs = validateStorageClass(next);
  if (!deepEqual(next.parameters, prev.parameters)) errs.push(forbiddenField(path('parameters'), 'updates to parameters are forbidden.'));
  if (next.provisioner !== prev.provisioner) errs.push(forbiddenField(path('provisioner'), 'updates to provisioner are forbidden.'));
  if (next.reclaimPolicy !== prev.reclaimPolicy) errs.push(forbiddenField(path('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'));
  errs.push(...validateImmutableField(next.volumeBindingMode, prev.volumeBindingMode, path('volumeBindingMode')));
  return errs;
}

export const storageClassTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Provisioner', description: 'The volume plugin that provisions volumes of this class.' }),
    column({ name: 'ReclaimPolicy', description: 'What happens to a released volume.' }),
    column({ name: 'VolumeBindingMode', description: 'When volumes are bound and provisioned.' }),
    column({ name: 'AllowVolumeExpansion', type: 'boolean', description: 'Whether volumes may be expanded.' }),
    AGE_COLUMN,
  ],
  cells: (sc, now) => [
    isDefaultClass(sc) ? `${nameOf(sc)} (default)` : nameOf(sc),
    typeof sc.provisioner === 'string' ? sc.provisioner : '',
    typeof sc.reclaimPolicy === 'string' ? sc.reclaimPolicy : 'Delete',
    typeof sc.volumeBindingMode === 'string' ? sc.volumeBindingMode : 'Immediate',
    sc.allowVolumeExpansion === true,
    ageOf(sc, now),
  ],
};

export const storageClasses = defineResource({
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'StorageClass',
  plural: 'storageclasses',
  scope: 'Cluster',
  shortNames: ['sc'],
  table: storageClassTable,
  strategy: {
    defaults: applyDefaults,
    validate: validateStorageClass,
    validateUpdate: validateStorageClassUpdate,
    returnDeletedObject: true,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
});
