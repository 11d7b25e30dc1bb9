// What the admission kinds share: RuleWithOperations (webhooks) and
// NamedRuleWithOperations (policies' matchResources), match conditions, the
// scope default, and the enums of failurePolicy and matchPolicy. Rules and
// messages follow kube's admissionregistration validation.
import { duplicate, invalidValue, notSupported, required, tooMany, type FieldError, type FieldPath } from '../../../schema/field-errors.js';
import { validateLabelSelector } from '../../../registry/validation/label-selector.js';
import { isQualifiedName } from '../../../registry/validation/names.js';
import { arrayAt, setDefault, stringAt, type Json } from '../../core/v1/helpers.js';
import { validateExpression, type ExpressionScope } from './admission-cel.js';

export const FAILURE_POLICIES = ['Ignore', 'Fail'] as const;
export const MATCH_POLICIES = ['Exact', 'Equivalent'] as const;
const OPERATIONS = ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'];
const SCOPES = ['Cluster', 'Namespaced', '*'];
const MAX_MATCH_CONDITIONS = 64;

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : String(v))) : [];
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** SetDefaults_Rule: scope `*`. */
export function defaultRules(rules: unknown): void {
  if (!Array.isArray(rules)) return;
  for (const rule of rules) if (isObject(rule)) setDefault(rule, 'scope', '*');
}

function validateWildcardList(values: string[], p: FieldPath, what: string): FieldError[] {
  if (values.length === 0) return [required(p)];
  const errs: FieldError[] = [];
  if (values.length > 1 && values.includes('*')) errs.push(invalidValue(p, values, `if '*' is present, must not specify other ${what}`));
  values.forEach((v, i) => {
    if (v === '' && what !== 'API groups') errs.push(required(p.index(i)));
  });
  return errs;
}

/** Resources and `resource/subresource` pairs with kube's wildcard rules. */
function validateResources(resources: string[], p: FieldPath): FieldError[] {
  if (resources.length === 0) return [required(p)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const withSub = new Set<string>();
  let hasDoubleWildcard = false;
  let hasSingleWildcard = false;
  resources.forEach((res, i) => {
    if (res === '') {
      errs.push(required(p.index(i)));
      return;
    }
    if (seen.has(res)) errs.push(duplicate(p.index(i), res));
    seen.add(res);
    if (res === '*/*') hasDoubleWildcard = true;
    if (res === '*') hasSingleWildcard = true;
    const parts = res.split('/');
    if (parts.length > 2) errs.push(invalidValue(p.index(i), res, 'must be in the form "resource" or "resource/subresource"'));
    else if (parts.length === 2) withSub.add(parts[1]!);
  });
  if (hasDoubleWildcard && resources.length > 1) errs.push(invalidValue(p, resources, "if '*/*' is present, must not specify other resources"));
  if (hasSingleWildcard && resources.some((r) => r !== '*' && !r.includes('/'))) errs.push(invalidValue(p, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

export function validateRule(rule: Json, p: FieldPath, opts: { allowSubresources: boolean } = { allowSubresources: true }): FieldError[] {
  const errs = [
    ...validateWildcardList(strings(rule.apiGroups), p.child('apiGroups'), 'API groups'),
    ...validateWildcardList(strings(rule.apiVersions), p.child('apiVersions'), 'API versions'),
  ];
  const resources = strings(rule.resources);
  errs.push(...validateResources(resources, p.child('resources')));
  if (!opts.allowSubresources) {
    resources.forEach((r, i) => {
      if (r.includes('/')) errs.push(invalidValue(p.child('resources').index(i), r, 'must not contain subresources'));
    });
  }
  const scope = rule.scope;
  if (scope !== undefined && scope !== null && !SCOPES.includes(String(scope))) errs.push(notSupported(p.child('scope'), scope, SCOPES));
  return errs;
}

export function validateRuleWithOperations(rule: Json, p: FieldPath): FieldError[] {
  const ops = strings(rule.operations);
  const errs: FieldError[] = [];
  if (ops.length === 0) errs.push(required(p.child('operations')));
  if (ops.length > 1 && ops.includes('*')) errs.push(invalidValue(p.child('operations'), ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(notSupported(p.child('operations').index(i), op, OPERATIONS));
  });
  return [...errs, ...validateRule(rule, p)];
}

export function validateEnum(value: unknown, p: FieldPath, allowed: readonly string[], opts: { required: boolean }): FieldError[] {
  if (value === undefined || value === null) return opts.required ? [required(p)] : [];
  return allowed.includes(String(value)) ? [] : [notSupported(p, value, allowed)];
}

/** matchConditions: at most 64, names qualified and unique, expressions compiled to bool. */
export function validateMatchConditions(conditions: unknown, p: FieldPath, scope: ExpressionScope = 'policy'): FieldError[] {
  const list = arrayAt({ c: conditions }, 'c');
  const errs: FieldError[] = [];
  if (list.length > MAX_MATCH_CONDITIONS) errs.push(tooMany(p, list.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  list.forEach((cond, i) => {
    const at = p.index(i);
    const name = stringAt(cond, 'name');
    if (name === '') errs.push(required(at.child('name')));
    else {
      for (const msg of isQualifiedName(name)) errs.push(invalidValue(at.child('name'), name, msg));
      if (names.has(name)) errs.push(duplicate(at.child('name'), name));
      names.add(name);
    }
    errs.push(...validateExpression(cond.expression, at.child('expression'), 'bool', scope));
  });
  return errs;
}

export function validateSelector(selector: unknown, p: FieldPath): FieldError[] {
  return selector === undefined || selector === null ? [] : validateLabelSelector(selector, p);
}

/** MatchResources of policies and bindings: selectors, matchPolicy, (exclude)resourceRules. */
export function validateMatchResources(mr: Json, p: FieldPath, opts: { requireRules: boolean }): FieldError[] {
  const errs = [
    ...validateSelector(mr.namespaceSelector, p.child('namespaceSelector')),
    ...validateSelector(mr.objectSelector, p.child('objectSelector')),
    ...validateEnum(mr.matchPolicy, p.child('matchPolicy'), MATCH_POLICIES, { required: false }),
  ];
  const rules = arrayAt(mr, 'resourceRules');
  if (opts.requireRules && rules.length === 0) errs.push(required(p.child('resourceRules')));
  rules.forEach((r, i) => errs.push(...validateNamedRule(r, p.child('resourceRules').index(i))));
  arrayAt(mr, 'excludeResourceRules').forEach((r, i) => errs.push(...validateNamedRule(r, p.child('excludeResourceRules').index(i))));
  return errs;
}

function validateNamedRule(rule: Json, p: FieldPath): FieldError[] {
  const errs = validateRuleWithOperations(rule, p);
  const names = strings(rule.resourceNames);
  names.forEach((n, i) => {
    if (n === '') errs.push(required(p.child('resourceNames').index(i)));
  });
  return errs;
}

/** SetDefaults_MatchResources: selectors {} and matchPolicy Equivalent; rules scope `*`. */
export function defaultMatchResources(mr: unknown): void {
  if (!isObject(mr)) return;
  setDefault(mr, 'namespaceSelector', {});
  setDefault(mr, 'objectSelector', {});
  setDefault(mr, 'matchPolicy', 'Equivalent');
  defaultRules(mr.resourceRules);
  defaultRules(mr.excludeResourceRules);
}

