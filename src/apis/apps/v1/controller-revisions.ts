// ControllerRevisions: immutable snapshots of a StatefulSet's or DaemonSet's
// template, written by their controllers. data is required and may not change;
// revision is not negative. No spec, so no generation.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, path, required } from '../../../schema/field-errors.js';
import { validateImmutableField, validateNonnegative } from '../../../registry/validation/common.js';
import { controllerRevisionTable } from './controller-revisions-table.js';

/** ValidateControllerRevision. */
export function validateControllerRevision(cr: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (cr.data === undefined || cr.data === null) errs.push(required(path('data'), 'data is mandatory'));
  return [...errs, ...validateNonnegative(cr.revision, path('revision'))];
}

export const controllerRevisions = defineResource({
  group: 'apps',
  version: 'v1',
  kind: 'ControllerRevision',
  plural: 'controllerrevisions',
  scope: 'Namespaced',
  table: controllerRevisionTable,
  strategy: {
    validate: validateControllerRevision,
    validateUpdate: (next, prev) => [...validateControllerRevision(next), ...validateImmutableField(next.data, prev.data, path('data'))],
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
});
