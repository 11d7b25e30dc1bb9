// Rules the storage.k8s.io kinds share: CSI driver names and the opaque
// parameter maps of storage and volume-attributes classes.
import { type FieldError, type FieldPath, invalidValue, required, tooLong } from '../../../schema/field-errors.js';
import { isDNS1123Subdomain } from '../../../registry/validation/names.js';

const CSI_DRIVER_NAME_MAX = 63;
/** kube's maxProvisionerParameterSize and maxProvisionerParameterLen. */
const MAX_PARAMETERS_SIZE = 256 * 1024;
const MAX_PARAMETERS = 512;

export function validateCsiDriverName(name: unknown, p: FieldPath): FieldError[] {
  const s = typeof name === 'string' ? name : '';
  if (s === '') return [required(p)];
  const errs: FieldError[] = [];
  if (s.length > CSI_DRIVER_NAME_MAX) errs.push(tooLong(p, CSI_DRIVER_NAME_MAX));
  for (const msg of isDNS1123Subdomain(s.toLowerCase())) errs.push(invalidValue(p, s, msg));
  return errs;
}

/** Opaque parameter maps: named keys, bounded size; `allowEmpty` false requires one entry at least. */
export function validateParameters(params: unknown, p: FieldPath, allowEmpty = true): FieldError[] {
  const entries = params !== null && typeof params === 'object' ? Object.entries(params as Record<string, unknown>) : [];
  if (entries.length > MAX_PARAMETERS) {
    return [{ type: 'FieldValueTooLong', field: p.toString(), message: `${p}: Too long: may not be more than ${MAX_PARAMETERS} bytes` }];
  }
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k === '') errs.push(invalidValue(p, k, 'field can not be empty.'));
    size += k.length + (typeof v === 'string' ? v.length : 0);
  }
  if (size > MAX_PARAMETERS_SIZE) errs.push(tooLong(p, MAX_PARAMETERS_SIZE));
  if (!allowEmpty && entries.length === 0) errs.push(required(p, 'must contain at least one key/value pair'));
  return errs;
}
