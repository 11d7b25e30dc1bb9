// ReplicaSets: replicas of a pod template, the unit a Deployment rolls out.
// kube defaults replicas to 1; the selector is required, matches the template
// labels and is fixed once created (kube's message for an empty one says
// "deployment", as kube's does). Status through /status, replicas through /scale.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, path } from '../../../schema/field-errors.js';
import { setDefault } from '../../core/v1/helpers.js';
import { replicaSetTable } from './replica-sets-table.js';
import {
  bumpGenerationOn,
  defaultWorkloadTemplate,
  replicatedWarnings,
  ensureObject,
  objectAt,
  specChanged,
  validateNonnegativeFields,
  addNonnegativeFieldErrors,
  addReplicatedTemplateErrors,
  addRequiredSelectorErrors,
  validateSelectorUnchanged,
  validateStatusBounds,
  SCALE_SUBRESOURCE,
} from './workload.js';

function defaultReplicaSet(rs: KubeObject): void {
  const spec = ensureObject(rs, 'spec');
  setDefault(spec, 'replicas', 1);
  defaultWorkloadTemplate(spec);
}

/** ValidateReplicaSetSpec. */
export function validateReplicaSet(rs: KubeObject): FieldError[] {
  const spec = objectAt(rs, 'spec') ?? {};
  const sp = path('spec');
  const errs: FieldError[] = [];
  addNonnegativeFieldErrors(errs, spec, ['replicas', 'minReadySeconds'], sp);
  addRequiredSelectorErrors(errs, spec, sp, 'deployment');
  addReplicatedTemplateErrors(errs, spec, sp, 'invalid label selector');
  return errs;
}

/** ValidateReplicaSetStatusUpdate. */
function validateReplicaSetStatus(next: KubeObject): FieldError[] {
  const status = objectAt(next, 'status');
  const sp = path('status');
  const msg = 'cannot be greater than status.replicas';
  return [
    ...validateNonnegativeFields(status, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'], sp),
    ...validateStatusBounds(status, sp, [
      ['fullyLabeledReplicas', 'replicas', msg],
      ['readyReplicas', 'replicas', msg],
      ['availableReplicas', 'replicas', msg],
      ['availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas'],
    ]),
  ];
}

export const replicaSets = defineResource({
  group: 'apps',
  version: 'v1',
  kind: 'ReplicaSet',
  plural: 'replicasets',
  scope: 'Namespaced',
  shortNames: ['rs'],
  categories: ['all'],
  table: replicaSetTable,
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: defaultReplicaSet,
    prepareForCreate: (rs) => {
      rs.metadata.generation = 1;
      rs.status = { replicas: 0 };
    },
    prepareForUpdate: (next, prev) => bumpGenerationOn(next, prev, specChanged(next, prev)),
    validate: validateReplicaSet,
    validateUpdate: (next, prev) => [...validateReplicaSet(next), ...validateSelectorUnchanged(next, prev)],
    warnings: replicatedWarnings,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: validateReplicaSetStatus },
    scale: SCALE_SUBRESOURCE,
  },
});
