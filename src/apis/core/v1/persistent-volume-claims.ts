// PersistentVolumeClaims: a request for storage. Create starts them Pending; the
// spec is frozen afterwards except for the size (expansion), the volume
// attributes class, and the binder filling in volumeName.
import { defineResource } from '../../../registry/define-resource.js';
import { persistentVolumeClaimTable } from './persistent-volume-claims-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, forbiddenField, invalidValue, path, required } from '../../../schema/field-errors.js';
import { deepEqual } from '../../../registry/validation/common.js';
import { type Json, ensureObject, objectAt, setDefault } from './helpers.js';
import { validateAccessModes } from './persistent-volumes.js';
import { parseQuantity } from './quantity.js';

const IMMUTABLE_SPEC = 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';

function applyDefaults(pvc: KubeObject): void {
  setDefault(ensureObject(pvc, 'spec'), 'volumeMode', 'Filesystem');
}

function prepareForCreate(pvc: KubeObject): void {
  pvc.status = { phase: 'Pending' };
}

export function validatePersistentVolumeClaim(pvc: KubeObject): FieldError[] {
  const spec: Json = objectAt(pvc, 'spec') ?? {};
  const sp = path('spec');
  const errs = validateAccessModes(spec.accessModes, sp.child('accessModes'), 'at least 1 access mode is required');
  const storagePath = sp.child('resources').key('storage');
  const storage = objectAt(objectAt(spec, 'resources'), 'requests')?.storage;
  if (storage === undefined) errs.push(required(storagePath));
  else if (!((parseQuantity(storage) ?? 0) > 0)) errs.push(invalidValue(storagePath, String(storage), 'must be greater than zero'));
  return errs;
}

function validateUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  const strip = (o: KubeObject): Json => {
    const spec = structuredClone(objectAt(o, 'spec') ?? {});
    delete spec.volumeAttributesClassName;
    const resources = objectAt(spec, 'resources');
    if (resources !== undefined) delete resources.requests;
    return spec;
  };
  const n = strip(next);
  const o = strip(prev);
  // Binding fills in volumeName once.
  if ((o.volumeName ?? '') === '') {
    delete n.volumeName;
    delete o.volumeName;
  }
  const errs = validatePersistentVolumeClaim(next);
  if (!deepEqual(n, o)) errs.push(forbiddenField(path('spec'), IMMUTABLE_SPEC));
  return errs;
}

export const persistentVolumeClaims = defineResource({
  group: '',
  version: 'v1',
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  scope: 'Namespaced',
  table: persistentVolumeClaimTable,
  shortNames: ['pvc'],
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: applyDefaults,
    prepareForCreate,
    validate: validatePersistentVolumeClaim,
    validateUpdate,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    returnDeletedObject: true,
  },
  subresources: { status: { verbs: ['get', 'patch', 'update'], path: 'status' } },
});
