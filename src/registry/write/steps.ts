// The order of the write steps, declared once. Every write (create, PUT, PATCH,
// create-on-update, status, scale, finalize) runs this list after its transform,
// then the store. A step that does not apply to a write skips itself.
//
// Versions: the transform and `defaults` work in the version the request was sent
// in (kube decodes and defaults there); `convert` hands the view to the storage
// codec, and every later step runs on the storage version, for which the kind's
// strategy (prepare, rules, canonicalize, allocation) is written, as kube runs it
// on its internal version. Schema-derived validation still judges the request's
// version: `validate` reads the object through the codec in that version against
// that version's schema, as kube's declarative validation converts the internal
// object to the request's version (rest.ValidateDeclaratively). For a kind served
// in its storage version the codec is the identity and `convert` does nothing.
import type { WriteStep } from './state.js';
import { allocation } from './steps/allocation.js';
import { authorizeWrite } from './steps/authorize-write.js';
import { canonicalize } from './steps/canonicalize.js';
import { convert } from './steps/convert.js';
import { defaults } from './steps/defaults.js';
import { managedFields } from './steps/managed-fields.js';
import { mutatingAdmission } from './steps/mutating-admission.js';
import { prepare } from './steps/prepare.js';
import { resetFields } from './steps/reset-fields.js';
import { systemMetadata } from './steps/system-metadata.js';
import { validate } from './steps/validate.js';
import { validatingAdmission } from './steps/validating-admission.js';
import { warnings } from './steps/warnings.js';

export const WRITE_STEPS: readonly WriteStep[] = [
  defaults,
  convert,
  mutatingAdmission,
  authorizeWrite,
  systemMetadata,
  resetFields,
  prepare,
  validate,
  warnings,
  canonicalize,
  managedFields,
  allocation,
  validatingAdmission,
];
