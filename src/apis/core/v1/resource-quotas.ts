// ResourceQuotas: hard limits per namespace; the quota controller owns status
// (used/hard) through /status. Kube refuses unconditional updates here so two
// writers cannot silently overwrite each other's accounting.
import { defineResource } from '../../../registry/define-resource.js';
import { resourceQuotaTable } from './resource-quotas-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, invalidValue, notSupported, path } from '../../../schema/field-errors.js';
import { isQualifiedName } from '../../../registry/validation/names.js';
import { objectAt } from './helpers.js';
import { parseQuantity } from './quantity.js';

const SCOPES = ['BestEffort', 'CrossNamespacePodAffinity', 'NotBestEffort', 'NotTerminating', 'PriorityClass', 'Terminating', 'VolumeAttributesClass'] as const;

export function validateResourceQuota(rq: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = objectAt(rq, 'spec');
  for (const [k, v] of Object.entries(objectAt(spec, 'hard') ?? {})) {
    const p = path('spec', 'hard').key(k);
    for (const msg of isQualifiedName(k)) errs.push(invalidValue(p, k, msg));
    const n = parseQuantity(v);
    if (n !== undefined && n < 0) errs.push(invalidValue(p, String(v), 'must be greater than or equal to 0'));
  }
  const scopes = Array.isArray(spec?.scopes) ? (spec.scopes as unknown[]) : [];
  for (const s of scopes) if (!(SCOPES as readonly unknown[]).includes(s)) errs.push(notSupported(path('spec', 'scopes'), s, SCOPES));
  return errs;
}

export const resourceQuotas = defineResource({
  group: '',
  version: 'v1',
  kind: 'ResourceQuota',
  plural: 'resourcequotas',
  scope: 'Namespaced',
  table: resourceQuotaTable,
  shortNames: ['quota'],
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    validate: validateResourceQuota,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    returnDeletedObject: true,
  },
  subresources: { status: { verbs: ['get', 'patch', 'update'], path: 'status' } },
});
