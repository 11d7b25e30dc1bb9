// Deployments: a pod template rolled out through ReplicaSets. kube-apiserver
// defaults replicas, the RollingUpdate strategy (25% surge and unavailable), the
// history limit and the progress deadline; the selector is required, matches the
// template labels and is fixed once created; generation moves with spec and with
// annotations (they are copied to the ReplicaSets). No controller runs here:
// status changes only through /status, replicas also through /scale.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, forbiddenField, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { deepEqual, validateNonnegative } from '../../../registry/validation/common.js';
import { setDefault } from '../../core/v1/helpers.js';
import { deploymentTable } from './deployments-table.js';
import {
  type Json,
  bumpGenerationOn,
  defaultWorkloadTemplate,
  ensureObject,
  invalidIntOrString,
  isZero,
  objectAt,
  stringAt,
  validateCollisionCount,
  validateNonnegativeFields,
  validateNotMoreThan100Percent,
  validatePositiveIntOrPercent,
  addNonnegativeFieldErrors,
  addReplicatedTemplateErrors,
  addRequiredSelectorErrors,
  isNegative,
  isOver100Percent,
  isPositiveIntOrPercent,
  validateSelectorUnchanged,
  validateStatusBounds,
  SCALE_SUBRESOURCE,
  replicatedWarnings,
} from './workload.js';

const STRATEGY_TYPES = ['Recreate', 'RollingUpdate'] as const;

/** SetDefaults_Deployment, then the template's pod defaults. */
export function defaultDeployment(d: KubeObject): void {
  const spec = ensureObject(d, 'spec');
  setDefault(spec, 'replicas', 1);
  const strategy = ensureObject(spec, 'strategy');
  setDefault(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const rollingUpdate = ensureObject(strategy, 'rollingUpdate');
    setDefault(rollingUpdate, 'maxUnavailable', '25%');
    setDefault(rollingUpdate, 'maxSurge', '25%');
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  setDefault(spec, 'progressDeadlineSeconds', 600);
  defaultWorkloadTemplate(spec);
}

function addRollingUpdateErrors(errs: FieldError[], ru: Json, p: FieldPath): void {
  const { maxUnavailable, maxSurge } = ru;
  if (!isPositiveIntOrPercent(maxUnavailable)) errs.push(...validatePositiveIntOrPercent(maxUnavailable, p.child('maxUnavailable')));
  if (!isPositiveIntOrPercent(maxSurge)) errs.push(...validatePositiveIntOrPercent(maxSurge, p.child('maxSurge')));
  if (isZero(maxUnavailable) && isZero(maxSurge)) {
    errs.push(invalidIntOrString(p.child('maxUnavailable'), maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
  }
  if (isOver100Percent(maxUnavailable)) errs.push(...validateNotMoreThan100Percent(maxUnavailable, p.child('maxUnavailable')));
}

/** ValidateDeploymentStrategy. */
function addStrategyErrors(errs: FieldError[], strategy: Json | undefined, sp: FieldPath): void {
  const type = stringAt(strategy, 'type');
  const rollingUpdate = objectAt(strategy, 'rollingUpdate');
  switch (type) {
    case 'Recreate':
      if (rollingUpdate !== undefined) errs.push(forbiddenField(sp.child('strategy', 'rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'"));
      return;
    case 'RollingUpdate':
      if (rollingUpdate === undefined) errs.push(required(sp.child('strategy', 'rollingUpdate'), 'this should be defaulted and never be nil'));
      else addRollingUpdateErrors(errs, rollingUpdate, sp.child('strategy', 'rollingUpdate'));
      return;
    default:
      errs.push(notSupported(sp.child('strategy'), strategy ?? {}, STRATEGY_TYPES));
  }
}

const REPLICAS = ['replicas'] as const;
const NONNEGATIVE_SPEC_FIELDS = ['minReadySeconds', 'revisionHistoryLimit'] as const;

/** ValidateDeploymentSpec, in kube's order; each check pushes into one list and makes a path only to report. */
function validateDeploymentSpec(spec: Json, sp: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  addNonnegativeFieldErrors(errs, spec, REPLICAS, sp);
  addRequiredSelectorErrors(errs, spec, sp, 'deployment');
  addReplicatedTemplateErrors(errs, spec, sp, 'invalid label selector');
  addStrategyErrors(errs, objectAt(spec, 'strategy'), sp);
  addNonnegativeFieldErrors(errs, spec, NONNEGATIVE_SPEC_FIELDS, sp);
  const deadline = spec.progressDeadlineSeconds;
  if (typeof deadline === 'number') {
    if (isNegative(deadline)) errs.push(...validateNonnegative(deadline, sp.child('progressDeadlineSeconds')));
    const minReady = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
    if (deadline <= minReady) errs.push(invalidValue(sp.child('progressDeadlineSeconds'), deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}

const SPEC = path('spec');

export function validateDeployment(d: KubeObject): FieldError[] {
  return validateDeploymentSpec(objectAt(d, 'spec') ?? {}, SPEC);
}

/** ValidateDeploymentStatusUpdate. */
function validateDeploymentStatus(next: KubeObject, prev: KubeObject): FieldError[] {
  const status = objectAt(next, 'status');
  const sp = path('status');
  const msg = 'cannot be greater than status.replicas';
  return [
    ...validateNonnegativeFields(status, ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'], sp),
    ...validateStatusBounds(status, sp, [
      ['updatedReplicas', 'replicas', msg],
      ['readyReplicas', 'replicas', msg],
      ['availableReplicas', 'replicas', msg],
      ['availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas'],
    ]),
    ...validateCollisionCount(next, prev),
  ];
}

export const deployments = defineResource({
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  plural: 'deployments',
  scope: 'Namespaced',
  shortNames: ['deploy'],
  categories: ['all'],
  table: deploymentTable,
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: defaultDeployment,
    prepareForCreate: (d) => {
      d.metadata.generation = 1;
      d.status = {};
    },
    // Annotations count too: the controller copies them to the ReplicaSets.
    prepareForUpdate: (next, prev) => bumpGenerationOn(next, prev, !deepEqual(next.spec, prev.spec) || !deepEqual(next.metadata.annotations, prev.metadata.annotations)),
    validate: validateDeployment,
    validateUpdate: (next, prev) => [...validateDeployment(next), ...validateSelectorUnchanged(next, prev)],
    warnings: replicatedWarnings,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: validateDeploymentStatus },
    scale: SCALE_SUBRESOURCE,
  },
});
