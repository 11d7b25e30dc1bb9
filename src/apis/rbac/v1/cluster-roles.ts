// ClusterRoles: cluster-wide policy rules, which may also name non-resource URLs,
// and an optional aggregationRule whose selectors pick the roles a controller folds in.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, path } from '../../../schema/field-errors.js';
import { validateLabelSelector } from '../../../registry/validation/label-selector.js';
import { arrayAt, objectAt } from '../../core/v1/helpers.js';
import { validateAggregationRule, validateRules } from './rules.js';

export function validateClusterRole(role: KubeObject, allowInvalidLabelValueInSelector = false): FieldError[] {
  return [...validateRules(role, false), ...validateAggregationRule(role, { allowInvalidLabelValueInSelector })];
}

/** An update keeps a stored selector with label values kube once accepted writable. */
function storedSelectorsInvalid(prev: KubeObject): boolean {
  const selectors = arrayAt(objectAt(prev, 'aggregationRule'), 'clusterRoleSelectors');
  return selectors.some((s) => validateLabelSelector(s, path()).length > 0);
}

export const clusterRoles = defineResource({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'ClusterRole',
  plural: 'clusterroles',
  scope: 'Cluster',
  nameValidation: 'path-segment',
  strategy: {
    validate: (role) => validateClusterRole(role),
    validateUpdate: (next, prev) => validateClusterRole(next, storedSelectorsInvalid(prev)),
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
  },
});
