// resource.k8s.io/v1 (dynamic resource allocation): DeviceClass, ResourceClaim
// (with status), ResourceClaimTemplate and ResourceSlice, stored with kube's
// defaults and validation basics (device-rules.ts) and kube's columns. Nothing
// allocates devices yet: claims stay pending until a scheduler writes status.
import { duplicate, invalidValue, path, required, type FieldError } from '../../../schema/field-errors.js';
import { defineResource } from '../../../registry/define-resource.js';
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { validateImmutableField } from '../../../registry/validation/common.js';
import type { KubeObject } from '../../../schema/object.js';
import { arrayAt, bumpGenerationIfChanged, objectAt, stringAt, type Json } from '../../core/v1/helpers.js';
import { defaultDeviceClaim, validateConfigs, validateDeviceClaim, validateDriverName, validateSelectors } from './device-rules.js';

const GROUP = 'resource.k8s.io';
const MAX_DEVICES_PER_SLICE = 128;

function specOf(obj: KubeObject): Json | undefined {
  return objectAt(obj, 'spec');
}

const setGeneration = (obj: KubeObject): void => {
  obj.metadata.generation = 1;
};

export const deviceClasses = defineResource({
  group: GROUP,
  version: 'v1',
  kind: 'DeviceClass',
  plural: 'deviceclasses',
  scope: 'Cluster',
  table: { columns: [NAME_COLUMN, AGE_COLUMN], cells: (obj, now) => [nameOf(obj), ageOf(obj, now)] },
  strategy: {
    prepareForCreate: setGeneration,
    prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
    validate: (obj) => [...validateSelectors(arrayAt(specOf(obj), 'selectors'), path('spec', 'selectors')), ...validateConfigs(arrayAt(specOf(obj), 'config'), path('spec', 'config'))],
  },
});

/** kube's resourceClaimState: deleted, pending or allocated, reserved. */
function claimState(claim: KubeObject): string {
  const states: string[] = [];
  const deleted = claim.metadata.deletionTimestamp !== undefined && claim.metadata.deletionTimestamp !== null;
  if (deleted) states.push('deleted');
  if (objectAt(claim.status, 'allocation') === undefined) {
    if (!deleted) states.push('pending');
  } else states.push('allocated');
  if (arrayAt(claim.status, 'reservedFor').length > 0) states.push('reserved');
  return states.join(',');
}

const claimTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'State', description: 'A summary of the current state (allocated, pending, reserved, etc.).' }), AGE_COLUMN],
  cells: (obj, now) => [nameOf(obj), claimState(obj), ageOf(obj, now)],
};

function validateClaimSpec(spec: Json | undefined, p: ReturnType<typeof path>): FieldError[] {
  return validateDeviceClaim(objectAt(spec, 'devices'), p.child('devices'));
}

export const resourceClaims = defineResource({
  group: GROUP,
  version: 'v1',
  kind: 'ResourceClaim',
  plural: 'resourceclaims',
  scope: 'Namespaced',
  table: claimTable,
  subresources: { status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: () => [] } },
  strategy: {
    defaults: (obj) => defaultDeviceClaim(objectAt(specOf(obj), 'devices')),
    resetFields: { create: ['status'], update: ['status'] },
    validate: (obj) => validateClaimSpec(specOf(obj), path('spec')),
    // A claim's spec is fixed once created (kube: "field is immutable").
    validateUpdate: (next, prev) => [...validateClaimSpec(specOf(next), path('spec')), ...validateImmutableField(next.spec, prev.spec, path('spec'))],
  },
});

export const resourceClaimTemplates = defineResource({
  group: GROUP,
  version: 'v1',
  kind: 'ResourceClaimTemplate',
  plural: 'resourceclaimtemplates',
  scope: 'Namespaced',
  table: { columns: [NAME_COLUMN, AGE_COLUMN], cells: (obj, now) => [nameOf(obj), ageOf(obj, now)] },
  strategy: {
    defaults: (obj) => defaultDeviceClaim(objectAt(objectAt(specOf(obj), 'spec'), 'devices')),
    validate: (obj) => validateClaimSpec(objectAt(specOf(obj), 'spec'), path('spec', 'spec')),
    validateUpdate: (next, prev) => [...validateClaimSpec(objectAt(specOf(next), 'spec'), path('spec', 'spec')), ...validateImmutableField(next.spec, prev.spec, path('spec'))],
  },
});

const NODE_FIELDS = ['nodeName', 'nodeSelector', 'allNodes', 'perDeviceNodeSelection'];

function validateSliceSpec(spec: Json | undefined): FieldError[] {
  const p = path('spec');
  const errs = validateDriverName(stringAt(spec, 'driver'), p.child('driver'));
  const pool = objectAt(spec, 'pool');
  if (pool === undefined) errs.push(required(p.child('pool')));
  else {
    if (stringAt(pool, 'name') === '') errs.push(required(p.child('pool', 'name')));
    if (typeof pool.generation === 'number' && pool.generation < 0) errs.push(invalidValue(p.child('pool', 'generation'), pool.generation, 'must be greater than or equal to 0'));
    if (typeof pool.resourceSliceCount === 'number' && pool.resourceSliceCount <= 0) errs.push(invalidValue(p.child('pool', 'resourceSliceCount'), pool.resourceSliceCount, 'must be greater than 0'));
  }
  const set = NODE_FIELDS.filter((f) => {
    const v = spec?.[f];
    return v !== undefined && v !== null && v !== '' && v !== false;
  });
  if (set.length === 0) errs.push(required(p, 'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required'));
  if (set.length > 1) errs.push(invalidValue(p, `{${set.join(', ')}}`, 'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set'));
  const nodeSelector = objectAt(spec, 'nodeSelector');
  if (nodeSelector !== undefined && arrayAt(nodeSelector, 'nodeSelectorTerms').length === 0) errs.push(required(p.child('nodeSelector', 'nodeSelectorTerms'), 'must have at least one node selector term'));
  const devices = arrayAt(spec, 'devices');
  if (devices.length > MAX_DEVICES_PER_SLICE) errs.push(invalidValue(p.child('devices'), devices.length, `must have at most ${MAX_DEVICES_PER_SLICE} items`));
  const names = new Set<string>();
  devices.forEach((d, i) => {
    const at = p.child('devices').index(i).child('name');
    const name = stringAt(d, 'name');
    if (name === '') errs.push(required(at));
    else if (names.has(name)) errs.push(duplicate(at, name));
    names.add(name);
  });
  return errs;
}

const sliceTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Node', description: 'NodeName identifies the node which provides the resources in this pool.' }),
    column({ name: 'Driver', description: 'Driver identifies the DRA driver providing the capacity information.' }),
    column({ name: 'Pool', description: 'Name of the pool.' }),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [nameOf(obj), stringAt(specOf(obj), 'nodeName'), stringAt(specOf(obj), 'driver'), stringAt(objectAt(specOf(obj), 'pool'), 'name'), ageOf(obj, now)],
};

export const resourceSlices = defineResource({
  group: GROUP,
  version: 'v1',
  kind: 'ResourceSlice',
  plural: 'resourceslices',
  scope: 'Cluster',
  table: sliceTable,
  strategy: {
    prepareForCreate: setGeneration,
    prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
    validate: (obj) => validateSliceSpec(specOf(obj)),
    validateUpdate: (next, prev) => [
      ...validateSliceSpec(specOf(next)),
      ...validateImmutableField(specOf(next)?.nodeName, specOf(prev)?.nodeName, path('spec', 'nodeName')),
      ...validateImmutableField(specOf(next)?.driver, specOf(prev)?.driver, path('spec', 'driver')),
    ],
    // kube's resourceslice field selectors.
    selectableFields: (obj) => ({ 'spec.nodeName': stringAt(specOf(obj), 'nodeName'), 'spec.driver': stringAt(specOf(obj), 'driver') }),
  },
});
