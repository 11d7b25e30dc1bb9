// PodDisruptionBudgets: how many of a set of pods voluntary evictions must
// leave. policy/v1 has no defaults; minAvailable and maxUnavailable are
// exclusive int-or-percent values, the selector a valid label selector (in v1
// `{}` selects every pod of the namespace). The disruption controller owns
// status; a PUT must carry a resourceVersion (kube: no unconditional update).
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, invalidValue, notSupported, path } from '../../../schema/field-errors.js';
import { validateNonnegative } from '../../../registry/validation/common.js';
import { validateLabelSelector } from '../../../registry/validation/label-selector.js';
import { bumpGenerationIfChanged, objectAt } from '../../core/v1/helpers.js';
import { validateNotMoreThan100Percent, validatePositiveIntOrPercent } from '../../apps/v1/workload.js';
import { podDisruptionBudgetTable } from './pod-disruption-budgets-table.js';

const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'] as const;

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** ValidatePodDisruptionBudgetSpec. */
export function validatePodDisruptionBudget(pdb: KubeObject, opts: { allowInvalidLabelValueInSelector?: boolean } = {}): FieldError[] {
  const spec = objectAt(pdb, 'spec') ?? {};
  const sp = path('spec');
  const errs: FieldError[] = [];
  if (present(spec.minAvailable) && present(spec.maxUnavailable)) errs.push(invalidValue(sp, spec, 'minAvailable and maxUnavailable cannot be both set'));
  for (const f of ['minAvailable', 'maxUnavailable'] as const) {
    if (present(spec[f])) errs.push(...validatePositiveIntOrPercent(spec[f], sp.child(f)), ...validateNotMoreThan100Percent(spec[f], sp.child(f)));
  }
  errs.push(...validateLabelSelector(spec.selector, sp.child('selector'), opts));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (present(policy) && !(EVICTION_POLICIES as readonly unknown[]).includes(policy)) {
    errs.push(notSupported(sp.child('unhealthyPodEvictionPolicy'), policy, EVICTION_POLICIES));
  }
  return errs;
}

/** A stored selector with values kube no longer accepts stays writable (hasInvalidLabelValueInLabelSelector). */
function validateUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  const stored = objectAt(prev, 'spec')?.selector;
  const allowInvalidLabelValueInSelector = validateLabelSelector(stored, path('spec', 'selector')).length > 0;
  return validatePodDisruptionBudget(next, { allowInvalidLabelValueInSelector });
}

/** ValidatePodDisruptionBudgetStatusUpdate for policy/v1: the counters are not negative. */
function validateStatus(next: KubeObject): FieldError[] {
  const status = objectAt(next, 'status');
  const sp = path('status');
  return ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'].flatMap((f) => validateNonnegative(status?.[f], sp.child(f)));
}

export const podDisruptionBudgets = defineResource({
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  scope: 'Namespaced',
  shortNames: ['pdb'],
  table: podDisruptionBudgetTable,
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    prepareForCreate: (pdb) => {
      pdb.metadata.generation = 1;
      pdb.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
    },
    prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
    validate: (pdb) => validatePodDisruptionBudget(pdb),
    validateUpdate,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: validateStatus },
  },
});
