// RuntimeClasses: a named container runtime configuration. The handler (a DNS
// label the CRI knows) is fixed once set; overhead and scheduling constraints are
// checked as a pod's resources and tolerations are.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, invalidValue, path } from '../../../schema/field-errors.js';
import { validateImmutableField } from '../../../registry/validation/common.js';
import { validateLabels } from '../../../registry/validation/label-selector.js';
import { isDNS1123Label } from '../../../registry/validation/names.js';
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { objectAt, stringAt } from '../../core/v1/helpers.js';
import { validateTolerations } from '../../core/v1/pod-spec-validation.js';
import { parseQuantity } from '../../core/v1/quantity.js';

export function validateRuntimeClass(rc: KubeObject): FieldError[] {
  const handler = stringAt(rc, 'handler');
  const errs = isDNS1123Label(handler).map((msg) => invalidValue(path('handler'), handler, msg));
  const podFixed = objectAt(objectAt(rc, 'overhead'), 'podFixed');
  for (const [name, q] of Object.entries(podFixed ?? {})) {
    const n = parseQuantity(q);
    if (n !== undefined && n < 0) errs.push(invalidValue(path('overhead', 'podFixed').key(name), String(q), 'must be greater than or equal to 0'));
  }
  const scheduling = objectAt(rc, 'scheduling');
  if (scheduling !== undefined) {
    errs.push(...validateLabels(objectAt(scheduling, 'nodeSelector'), path('scheduling', 'nodeSelector')));
    errs.push(...validateTolerations(scheduling, path('scheduling', 'tolerations')));
  }
  return errs;
}

export const runtimeClassTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'Handler', description: 'The CRI handler that runs pods of this class.' }), AGE_COLUMN],
  cells: (rc, now) => [nameOf(rc), stringAt(rc, 'handler'), ageOf(rc, now)],
};

export const runtimeClasses = defineResource({
  group: 'node.k8s.io',
  version: 'v1',
  kind: 'RuntimeClass',
  plural: 'runtimeclasses',
  scope: 'Cluster',
  table: runtimeClassTable,
  strategy: {
    validate: validateRuntimeClass,
    // kube checks only the handler on update (the rest was checked on create and may be changed freely).
    validateUpdate: (next, prev) => validateImmutableField(stringAt(next, 'handler'), stringAt(prev, 'handler'), path('handler')),
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
});
