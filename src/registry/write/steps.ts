// The order of the write steps, declared once. Every write (create, PUT, PATCH,
// create-on-update, status, scale, finalize) runs this list after its transform,
// then the store. A step that does not apply to a write skips itself.
import type { WriteStep } from './state.js';
import { allocation } from './steps/allocation.js';
import { authorizeWrite } from './steps/authorize-write.js';
import { canonicalize } from './steps/canonicalize.js';
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
