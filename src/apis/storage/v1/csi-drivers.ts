// CSIDrivers: how the cluster talks to one CSI driver. kube's defaults fill every
// switch (attachRequired true, podInfoOnMount false, fsGroupPolicy
// ReadWriteOnceWithFSType, volumeLifecycleModes [Persistent], requiresRepublish,
// storageCapacity and seLinuxMount false); attachRequired, fsGroupPolicy and the
// lifecycle modes are fixed once created.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, duplicate, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { validateImmutableField } from '../../../registry/validation/common.js';
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { type Json, arrayAt, ensureObject, objectAt, stringAt } from '../../core/v1/helpers.js';
import { validateCsiDriverName } from './shared.js';

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Ephemeral', 'Persistent'];
const REQUIRED_SWITCHES = ['attachRequired', 'podInfoOnMount', 'requiresRepublish', 'storageCapacity', 'seLinuxMount'];

function applyDefaults(driver: KubeObject): void {
  const spec = ensureObject(driver, 'spec');
  const unset = (f: string) => spec[f] === undefined || spec[f] === null;
  if (unset('attachRequired')) spec.attachRequired = true;
  if (unset('podInfoOnMount')) spec.podInfoOnMount = false;
  if (unset('storageCapacity')) spec.storageCapacity = false;
  if (unset('fsGroupPolicy')) spec.fsGroupPolicy = 'ReadWriteOnceWithFSType';
  if (unset('volumeLifecycleModes') || (Array.isArray(spec.volumeLifecycleModes) && spec.volumeLifecycleModes.length === 0)) spec.volumeLifecycleModes = ['Persistent'];
  if (unset('requiresRepublish')) spec.requiresRepublish = false;
  if (unset('seLinuxMount')) spec.seLinuxMount = false;
}

function validateTokenRequests(spec: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  arrayAt(spec, 'tokenRequests').forEach((t, i) => {
    const audience = stringAt(t, 'audience');
    if (seen.has(audience)) errs.push(duplicate(p.index(i).child('audience'), audience));
    seen.add(audience);
    if (typeof t.expirationSeconds === 'number') {
      if (t.expirationSeconds < 600) errs.push(invalidValue(p.index(i).child('expirationSeconds'), t.expirationSeconds, 'may not specify a duration less than 10 minutes'));
      else if (t.expirationSeconds > 2 ** 32) errs.push(invalidValue(p.index(i).child('expirationSeconds'), t.expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
    }
  });
  return errs;
}

export function validateCsiDriver(driver: KubeObject): FieldError[] {
  const errs = validateCsiDriverName(driver.metadata.name, path('metadata', 'name'));
  const spec: Json = objectAt(driver, 'spec') ?? {};
  const sp = path('spec');
  for (const f of REQUIRED_SWITCHES) if (spec[f] === undefined || spec[f] === null) errs.push(required(sp.child(f)));
  if (spec.fsGroupPolicy !== undefined && !FS_GROUP_POLICIES.includes(spec.fsGroupPolicy as string)) {
    errs.push(notSupported(sp.child('fsGroupPolicy'), spec.fsGroupPolicy, FS_GROUP_POLICIES));
  }
  const modes = Array.isArray(spec.volumeLifecycleModes) ? (spec.volumeLifecycleModes as unknown[]) : [];
  modes.forEach((m, i) => {
    if (!LIFECYCLE_MODES.includes(m as string)) errs.push(notSupported(sp.child('volumeLifecycleModes').index(i), m, LIFECYCLE_MODES));
  });
  errs.push(...validateTokenRequests(spec, sp.child('tokenRequests')));
  return errs;
}

function validateCsiDriverUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  const errs = validateCsiDriver(next);
  const spec = objectAt(next, 'spec') ?? {};
  const old = objectAt(prev, 'spec') ?? {};
  const sp = path('spec');
  for (const f of ['attachRequired', 'fsGroupPolicy', 'volumeLifecycleModes']) errs.push(...validateImmutableField(spec[f], old[f], sp.child(f)));
  return errs;
}

export const csiDriverTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'AttachRequired', type: 'boolean', description: 'Whether volumes of the driver need attaching.' }),
    column({ name: 'PodInfoOnMount', type: 'boolean', description: 'Whether pod information is passed on mount.' }),
    column({ name: 'StorageCapacity', type: 'boolean', description: 'Whether the scheduler considers the driver\'s storage capacity.' }),
    column({ name: 'TokenRequests', description: 'Audiences of the service account tokens passed to the driver.' }),
    column({ name: 'RequiresRepublish', type: 'boolean', description: 'Whether NodePublishVolume is called periodically.' }),
    column({ name: 'Modes', description: 'Volume lifecycle modes the driver supports.' }),
    AGE_COLUMN,
  ],
  cells: (driver, now) => {
    const spec = objectAt(driver, 'spec') ?? {};
    const modes = (Array.isArray(spec.volumeLifecycleModes) ? spec.volumeLifecycleModes : []).filter((m): m is string => typeof m === 'string').join(',');
    const tokenRequests = Array.isArray(spec.tokenRequests) ? arrayAt(spec, 'tokenRequests').map((t) => stringAt(t, 'audience')).join(',') : '<unset>';
    return [
      nameOf(driver),
      spec.attachRequired !== false,
      spec.podInfoOnMount === true,
      spec.storageCapacity === true,
      tokenRequests,
      spec.requiresRepublish === true,
      modes === '' ? '<none>' : modes,
      ageOf(driver, now),
    ];
  },
};

export const csiDrivers = defineResource({
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSIDriver',
  plural: 'csidrivers',
  scope: 'Cluster',
  // The name is a CSI driver name, checked (case-insensitively, as kube) by validateCsiDriver.
  nameValidation: 'path-segment',
  table: csiDriverTable,
  strategy: {
    defaults: applyDefaults,
    validate: validateCsiDriver,
    validateUpdate: validateCsiDriverUpdate,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
  },
});
