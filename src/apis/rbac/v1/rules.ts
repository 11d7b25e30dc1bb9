// What Roles and ClusterRoles share: their policy rules (kube's validatePolicyRule)
// and the aggregation rule only cluster roles may carry. A rule is either about
// resources (apiGroups and resources required) or about non-resource URLs, and a
// namespaced role can name no URLs at all.
import { type FieldError, type FieldPath, invalidValue, path, required } from '../../../schema/field-errors.js';
import { validateLabelSelector, type LabelSelectorValidationOptions } from '../../../registry/validation/label-selector.js';
import type { KubeObject } from '../../../schema/object.js';
import { arrayAt, objectAt, type Json } from '../../core/v1/helpers.js';
import { ownField } from '../../../schema/field-path.js';

function listAt(parent: Json, field: string): unknown[] {
  const v = ownField(parent, field);
  return Array.isArray(v) ? v : [];
}

export function validatePolicyRule(rule: Json, namespaced: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const verbs = listAt(rule, 'verbs');
  const urls = listAt(rule, 'nonResourceURLs');
  const groups = listAt(rule, 'apiGroups');
  const resources = listAt(rule, 'resources');
  const names = listAt(rule, 'resourceNames');
  if (verbs.length === 0) errs.push(required(p.child('verbs'), 'verbs must contain at least one value'));
  if (urls.length > 0) {
    if (namespaced) errs.push(invalidValue(p.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (groups.length > 0 || resources.length > 0 || names.length > 0) {
      errs.push(invalidValue(p.child('nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (groups.length === 0) errs.push(required(p.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (resources.length === 0) errs.push(required(p.child('resources'), 'resource rules must supply at least one resource'));
  // kube reports this one as Required, though nothing is missing.
  if (names.length > 0 && resources.length > 1) errs.push(required(p.child('resourceNames'), 'resource names cannot apply to multiple resources'));
  return errs;
}

export function validateRules(role: KubeObject, namespaced: boolean): FieldError[] {
  return arrayAt(role, 'rules').flatMap((rule, i) => validatePolicyRule(rule, namespaced, path('rules').index(i)));
}

/** A cluster role's aggregationRule: at least one selector, each a valid label selector. */
export function validateAggregationRule(role: KubeObject, opts: LabelSelectorValidationOptions): FieldError[] {
  const rule = objectAt(role, 'aggregationRule');
  if (rule === undefined) return [];
  const p = path('aggregationRule', 'clusterRoleSelectors');
  const selectors = arrayAt(rule, 'clusterRoleSelectors');
  const errs: FieldError[] = [];
  if (selectors.length === 0) errs.push(required(p, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  selectors.forEach((s, i) => errs.push(...validateLabelSelector(s, p.index(i), opts)));
  return errs;
}
