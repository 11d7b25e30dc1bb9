// PriorityClasses: the priority pods get by naming a class. User classes stay at or
// below 1,000,000,000; names starting `system-` are kube's own two classes (ensured
// at start by server/bootstrap-scheduling.ts). Value and preemption policy never
// change once set. That at most one class is the global default needs a read of the
// other classes, so it is the Priority admission plugin's (priority-admission.ts),
// as in kube, not the strategy's.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, forbiddenField, notSupported, path } from '../../../schema/field-errors.js';
import { validateImmutableField } from '../../../registry/validation/common.js';
import { priorityClassTable } from './priority-classes-table.js';

/** kube's HighestUserDefinablePriority. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';

/** The classes kube-apiserver creates at start, with the values and descriptions it gives them. */
export const SYSTEM_PRIORITY_CLASSES: readonly { name: string; value: number; description: string }[] = [
  { name: 'system-node-critical', value: 2_000_001_000, description: 'Used for system critical pods that must not be moved from their current node.' },
  {
    name: 'system-cluster-critical',
    value: 2_000_000_000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

const PREEMPTION_POLICIES = ['Never', 'PreemptLowerPriority'];

function applyDefaults(pc: KubeObject): void {
  if (pc.preemptionPolicy === undefined || pc.preemptionPolicy === null) pc.preemptionPolicy = 'PreemptLowerPriority';
}

/** Why a `system-` name is not one of the known system classes with its exact value; '' when it is. */
function systemClassProblem(name: string, value: unknown, globalDefault: unknown): string {
  const known = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name);
  if (known === undefined) return `${name} is not a known system priority class`;
  if (value !== known.value) return `value of ${name} PriorityClass must be ${known.value}`;
  if (globalDefault === true) return `globalDefault of ${name} PriorityClass must be false`;
  return '';
}

export function validatePriorityClass(pc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = pc.metadata.name ?? '';
  const value = typeof pc.value === 'number' ? pc.value : 0;
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const problem = systemClassProblem(name, value, pc.globalDefault);
    if (problem !== '') {
      errs.push(
        forbiddenField(path('metadata', 'name'), `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${problem}`),
      );
    }
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(forbiddenField(path('value'), `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (pc.preemptionPolicy !== undefined && pc.preemptionPolicy !== null && !PREEMPTION_POLICIES.includes(pc.preemptionPolicy as string)) {
    errs.push(notSupported(path('preemptionPolicy'), pc.preemptionPolicy, PREEMPTION_POLICIES));
  }
  return errs;
}

/** kube validates an update by its immutables only. */
export function validatePriorityClassUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if ((next.value ?? 0) !== (prev.value ?? 0)) errs.push(forbiddenField(path('value'), 'may not be changed in an update.'));
  errs.push(...validateImmutableField(next.preemptionPolicy, prev.preemptionPolicy, path('preemptionPolicy')));
  return errs;
}

export const priorityClasses = defineResource({
  group: 'scheduling.k8s.io',
  version: 'v1',
  kind: 'PriorityClass',
  plural: 'priorityclasses',
  scope: 'Cluster',
  shortNames: ['pc'],
  table: priorityClassTable,
  strategy: {
    defaults: applyDefaults,
    validate: validatePriorityClass,
    validateUpdate: validatePriorityClassUpdate,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
});
