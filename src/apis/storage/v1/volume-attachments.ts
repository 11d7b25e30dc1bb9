// VolumeAttachments: a request to attach a volume to a node, written by the
// attach/detach controller; the external attacher reports through /status. The
// spec never changes after create.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, forbiddenField, invalidValue, path, required, tooLong } from '../../../schema/field-errors.js';
import { deepEqual } from '../../../registry/validation/common.js';
import { isDNS1123Subdomain } from '../../../registry/validation/names.js';
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { type Json, objectAt, stringAt } from '../../core/v1/helpers.js';
import { validateCsiDriverName } from './shared.js';

const MAX_ATTACHED_VOLUME_METADATA_SIZE = 256 * 1024;
const MAX_ERROR_MESSAGE = 1024;

export function validateVolumeAttachment(va: KubeObject): FieldError[] {
  const spec: Json = objectAt(va, 'spec') ?? {};
  const sp = path('spec');
  const errs = validateCsiDriverName(spec.attacher, sp.child('attacher'));
  const nodeName = stringAt(spec, 'nodeName');
  if (nodeName === '') errs.push(required(sp.child('nodeName')));
  else for (const msg of isDNS1123Subdomain(nodeName)) errs.push(invalidValue(sp.child('nodeName'), nodeName, msg));
  const source: Json = objectAt(spec, 'source') ?? {};
  const pv = source.persistentVolumeName;
  const inline = objectAt(source, 'inlineVolumeSpec');
  const hasPv = typeof pv === 'string';
  if (hasPv && inline !== undefined) errs.push(forbiddenField(sp.child('source'), 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (!hasPv && inline === undefined) errs.push(required(sp.child('source'), 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (hasPv && pv === '') errs.push(required(sp.child('source', 'persistentVolumeName'), 'must specify non empty persistentVolumeName'));
  return [...errs, ...validateVolumeAttachmentStatus(va)];
}

function validateVolumeAttachmentStatus(va: KubeObject): FieldError[] {
  const status = objectAt(va, 'status');
  if (status === undefined) return [];
  const p = path('status');
  const errs: FieldError[] = [];
  const metadata = objectAt(status, 'attachmentMetadata') ?? {};
  let size = 0;
  for (const [k, v] of Object.entries(metadata)) size += k.length + (typeof v === 'string' ? v.length : 0);
  if (size > MAX_ATTACHED_VOLUME_METADATA_SIZE) errs.push(tooLong(p.child('attachmentMetadata'), MAX_ATTACHED_VOLUME_METADATA_SIZE));
  for (const f of ['attachError', 'detachError']) {
    const message = stringAt(objectAt(status, f), 'message');
    if (message.length > MAX_ERROR_MESSAGE) errs.push(tooLong(p.child(f, 'message'), MAX_ERROR_MESSAGE));
  }
  return errs;
}

function validateVolumeAttachmentUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  const errs = validateVolumeAttachment(next);
  if (!deepEqual(next.spec, prev.spec)) errs.push(invalidValue(path('spec'), next.spec, 'field is immutable'));
  return errs;
}

export const volumeAttachmentTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Attacher', description: 'The CSI driver that attaches the volume.' }),
    column({ name: 'PV', description: 'The persistent volume attached.' }),
    column({ name: 'Node', description: 'The node the volume is attached to.' }),
    column({ name: 'Attached', type: 'boolean', description: 'Whether the attach operation succeeded.' }),
    AGE_COLUMN,
  ],
  cells: (va, now) => {
    const spec = objectAt(va, 'spec');
    return [
      nameOf(va),
      stringAt(spec, 'attacher'),
      stringAt(objectAt(spec, 'source'), 'persistentVolumeName'),
      stringAt(spec, 'nodeName'),
      objectAt(va, 'status')?.attached === true,
      ageOf(va, now),
    ];
  },
};

export const volumeAttachments = defineResource({
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'VolumeAttachment',
  plural: 'volumeattachments',
  scope: 'Cluster',
  table: volumeAttachmentTable,
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    validate: validateVolumeAttachment,
    validateUpdate: validateVolumeAttachmentUpdate,
    returnDeletedObject: true,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: (next) => validateVolumeAttachmentStatus(next) },
  },
});
