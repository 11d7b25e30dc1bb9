// PersistentVolumes: cluster-scoped storage with exactly one volume source.
// Create starts them Pending (the PV controller moves them on); the source is
// immutable once created.
import type { WriteContext } from '../../../registry/strategy.js';
import { rfc3339 } from '../../../registry/store/metadata.js';
import { defineResource } from '../../../registry/define-resource.js';
import { persistentVolumeTable } from './persistent-volumes-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, forbiddenField, notSupported, path, required } from '../../../schema/field-errors.js';
import { deepEqual } from '../../../registry/validation/common.js';
import { type Json, ensureObject, objectAt, setDefault, stringAt } from './helpers.js';

export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'] as const;
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'] as const;
const SOURCES = [
  'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'csi', 'fc', 'flexVolume', 'flocker',
  'gcePersistentDisk', 'glusterfs', 'hostPath', 'iscsi', 'local', 'nfs', 'photonPersistentDisk', 'portworxVolume',
  'quobyte', 'rbd', 'scaleIO', 'storageos', 'vsphereVolume',
] as const;

export function validateAccessModes(modes: unknown, p: ReturnType<typeof path>, detail: string): FieldError[] {
  if (!Array.isArray(modes) || modes.length === 0) return [required(p, detail)];
  return modes.filter((m) => !(ACCESS_MODES as readonly unknown[]).includes(m)).map((m) => notSupported(p, m, ACCESS_MODES));
}

function applyDefaults(pv: KubeObject): void {
  const spec = ensureObject(pv, 'spec');
  setDefault(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  setDefault(spec, 'volumeMode', 'Filesystem');
}

function prepareForCreate(pv: KubeObject, ctx: WriteContext): void {
  pv.status = { phase: 'Pending', lastPhaseTransitionTime: rfc3339(ctx.now) };
}

export function validatePersistentVolume(pv: KubeObject): FieldError[] {
  const spec: Json = objectAt(pv, 'spec') ?? {};
  const sp = path('spec');
  const errs = validateAccessModes(spec.accessModes, sp.child('accessModes'), '');
  const capacity = objectAt(spec, 'capacity') ?? {};
  if (Object.keys(capacity).length === 0) errs.push(required(sp.child('capacity')));
  if (!('storage' in capacity) || Object.keys(capacity).length > 1) errs.push(notSupported(sp.child('capacity'), capacity, ['storage']));
  const sources = SOURCES.filter((s) => spec[s] !== undefined && spec[s] !== null);
  if (sources.length === 0) errs.push(required(sp, 'must specify a volume type'));
  for (const extra of sources.slice(1)) errs.push(forbiddenField(sp.child(extra), 'may not specify more than 1 volume type'));
  const policy = stringAt(spec, 'persistentVolumeReclaimPolicy');
  if (policy !== '' && !(RECLAIM_POLICIES as readonly string[]).includes(policy)) {
    errs.push(notSupported(sp.child('persistentVolumeReclaimPolicy'), policy, RECLAIM_POLICIES));
  }
  return errs;
}

function validateUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  const n = objectAt(next, 'spec') ?? {};
  const o = objectAt(prev, 'spec') ?? {};
  const changed = SOURCES.some((s) => !deepEqual(n[s], o[s]));
  const errs = validatePersistentVolume(next);
  if (changed) errs.push(forbiddenField(path('spec', 'persistentvolumesource'), 'spec.persistentvolumesource is immutable after creation'));
  return errs;
}

export const persistentVolumes = defineResource({
  group: '',
  version: 'v1',
  kind: 'PersistentVolume',
  plural: 'persistentvolumes',
  scope: 'Cluster',
  table: persistentVolumeTable,
  shortNames: ['pv'],
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: applyDefaults,
    prepareForCreate,
    validate: validatePersistentVolume,
    validateUpdate,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    returnDeletedObject: true,
  },
  subresources: { status: { verbs: ['get', 'patch', 'update'], path: 'status' } },
});
