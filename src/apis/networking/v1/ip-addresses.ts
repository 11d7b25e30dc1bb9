// IPAddresses: one object per allocated IP (named by the address itself, in
// canonical form) pointing at the object that holds it. The parentRef is fixed.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, invalidValue, path, required } from '../../../schema/field-errors.js';
import { validateImmutableField } from '../../../registry/validation/common.js';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../../../registry/validation/names.js';
import { objectAt, stringAt } from '../../core/v1/helpers.js';
import { ipAddressTable } from './networking-table.js';
import { ipErrors } from './net.js';

export function validateIPAddress(ip: KubeObject): FieldError[] {
  const name = ip.metadata.name ?? '';
  const errs = name === '' ? [] : ipErrors(name).map((msg) => invalidValue(path('metadata', 'name'), name, msg));
  const ref = objectAt(objectAt(ip, 'spec'), 'parentRef');
  const rp = path('spec', 'parentRef');
  if (ref === undefined) return [...errs, required(rp)];
  const group = stringAt(ref, 'group');
  if (group !== '') for (const msg of isDNS1123Subdomain(group)) errs.push(invalidValue(rp.child('group'), group, msg));
  for (const field of ['resource', 'name']) {
    const v = stringAt(ref, field);
    if (v === '') errs.push(required(rp.child(field)));
    else for (const msg of isValidPathSegmentName(v)) errs.push(invalidValue(rp.child(field), v, msg));
  }
  const namespace = stringAt(ref, 'namespace');
  if (namespace !== '') for (const msg of isValidPathSegmentName(namespace)) errs.push(invalidValue(rp.child('namespace'), namespace, msg));
  return errs;
}

export const ipAddresses = defineResource({
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'IPAddress',
  plural: 'ipaddresses',
  scope: 'Cluster',
  shortNames: ['ip'],
  // The name must be an IP address; validateIPAddress says so with kube's text.
  nameValidation: 'path-segment',
  table: ipAddressTable,
  strategy: {
    validate: validateIPAddress,
    // kube checks only the parentRef on update: it is fixed, so it was checked on create.
    validateUpdate: (next, prev) => validateImmutableField(objectAt(objectAt(next, 'spec'), 'parentRef'), objectAt(objectAt(prev, 'spec'), 'parentRef'), path('spec', 'parentRef')),
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
});
