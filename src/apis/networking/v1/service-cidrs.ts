// ServiceCIDRs: the ranges service cluster IPs come from, one or two (one per IP
// family). A range never changes; a single-stack one may gain its second family.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, invalidValue, path, required } from '../../../schema/field-errors.js';
import { FIELD_IMMUTABLE } from '../../../registry/validation/common.js';
import { objectAt, type Json } from '../../core/v1/helpers.js';
import { ownField } from '../../../schema/field-path.js';
import { serviceCIDRTable } from './networking-table.js';
import { cidrErrors, parseCidr } from './net.js';

function cidrsOf(obj: KubeObject): unknown[] {
  const v = ownField(objectAt(obj, 'spec'), 'cidrs');
  return Array.isArray(v) ? v : [];
}

export function validateServiceCIDR(obj: KubeObject): FieldError[] {
  const cp = path('spec', 'cidrs');
  const cidrs = cidrsOf(obj);
  if (cidrs.length === 0) return [required(cp, 'at least one CIDR required')];
  if (cidrs.length > 2) return [invalidValue(cp, objectAt(obj, 'spec') as Json, 'may only hold up to 2 values')];
  const errs: FieldError[] = [];
  cidrs.forEach((c, i) => {
    const value = typeof c === 'string' ? c : '';
    for (const msg of cidrErrors(value, true)) errs.push(invalidValue(cp.index(i), value, msg));
  });
  if (cidrs.length === 2) {
    const [a, b] = cidrs.map((c) => parseCidr(typeof c === 'string' ? c : ''));
    if (a !== undefined && b !== undefined && a.ip.family === b.ip.family) {
      errs.push(invalidValue(cp, cidrs, 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64'));
    }
  }
  return errs;
}

function validateServiceCIDRUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  const cp = path('spec', 'cidrs');
  const now = cidrsOf(next);
  const before = cidrsOf(prev);
  if (now.length === before.length) {
    return before.flatMap((c, i) => (c === now[i] ? [] : [invalidValue(cp.index(i), now[i], FIELD_IMMUTABLE)]));
  }
  // A single-stack range may become dual-stack: the first stays, the second is checked.
  if (before.length === 1 && now.length === 2) {
    const errs = now[0] === before[0] ? [] : [invalidValue(cp.index(0), now[0], FIELD_IMMUTABLE)];
    return [...errs, ...validateServiceCIDR(next)];
  }
  return [invalidValue(cp, now, FIELD_IMMUTABLE)];
}

export const serviceCIDRs = defineResource({
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'ServiceCIDR',
  plural: 'servicecidrs',
  scope: 'Cluster',
  table: serviceCIDRTable,
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    prepareForCreate: (obj) => {
      obj.status = {};
    },
    validate: validateServiceCIDR,
    validateUpdate: validateServiceCIDRUpdate,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
  subresources: {
    // Status writes change only status; kube checks nothing of it beyond ObjectMeta.
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: () => [] },
  },
});
