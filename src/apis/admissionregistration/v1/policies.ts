// ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their bindings: kube's
// v1 defaults (failurePolicy Fail, matchResources selectors {} and matchPolicy
// Equivalent, rule scope `*`, paramRef parameterNotFoundAction Deny) and
// validation (ValidateValidatingAdmissionPolicy, ...Binding and the mutating
// twins), with every CEL expression compiled. Stored and served only: kapi's
// admission chain does not evaluate them yet (TODO(#10): the policy plugins).
import { forbiddenField, invalidValue, notSupported, path, required, type FieldError, type FieldPath } from '../../../schema/field-errors.js';
import { isQualifiedName } from '../../../registry/validation/names.js';
import type { KubeObject } from '../../../schema/object.js';
import { arrayAt, objectAt, setDefault, stringAt, type Json } from '../../core/v1/helpers.js';
import { validateExpression } from './admission-cel.js';
import { FAILURE_POLICIES, defaultMatchResources, isObject, strings, validateEnum, validateMatchConditions, validateMatchResources, validateSelector } from './rules.js';

const VALIDATION_REASONS = ['Unauthorized', 'Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const VALIDATION_ACTIONS = ['Deny', 'Warn', 'Audit'];
const PARAMETER_NOT_FOUND_ACTIONS = ['Allow', 'Deny'];
const PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'];
const REINVOCATION_POLICIES = ['Never', 'IfNeeded'];
const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

function specOf(obj: KubeObject): Json {
  return isObject(obj.spec) ? obj.spec : {};
}

export function defaultPolicy(obj: KubeObject): void {
  if (!isObject(obj.spec)) return;
  setDefault(obj.spec, 'failurePolicy', 'Fail');
  defaultMatchResources(obj.spec.matchConstraints);
}

export function defaultBinding(obj: KubeObject): void {
  if (!isObject(obj.spec)) return;
  defaultMatchResources(obj.spec.matchResources);
  const ref = objectAt(obj.spec, 'paramRef');
  if (ref !== undefined) setDefault(ref, 'parameterNotFoundAction', 'Deny');
}

function validateParamKind(kind: Json | undefined, p: FieldPath): FieldError[] {
  if (kind === undefined) return [];
  const errs: FieldError[] = [];
  const apiVersion = stringAt(kind, 'apiVersion');
  if (apiVersion === '') errs.push(required(p.child('apiVersion')));
  else if (apiVersion.split('/').length > 2 || apiVersion.endsWith('/')) errs.push(invalidValue(p.child('apiVersion'), apiVersion, 'must be a valid group/version'));
  if (stringAt(kind, 'kind') === '') errs.push(required(p.child('kind')));
  return errs;
}

function validateVariables(variables: Json[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  variables.forEach((v, i) => {
    const name = stringAt(v, 'name');
    if (name === '') errs.push(required(p.index(i).child('name')));
    else if (!CEL_IDENTIFIER.test(name)) errs.push(invalidValue(p.index(i).child('name'), name, 'name is not a valid CEL identifier'));
    errs.push(...validateExpression(v.expression, p.index(i).child('expression'), 'any'));
  });
  return errs;
}

/** Shared by both policy kinds: failurePolicy, paramKind, matchConstraints, matchConditions, variables. */
function validatePolicyCommon(spec: Json, p: FieldPath): FieldError[] {
  const errs = [
    ...validateEnum(spec.failurePolicy, p.child('failurePolicy'), FAILURE_POLICIES, { required: true }),
    ...validateParamKind(objectAt(spec, 'paramKind'), p.child('paramKind')),
  ];
  const mc = objectAt(spec, 'matchConstraints');
  if (mc === undefined || arrayAt(mc, 'resourceRules').length === 0) errs.push(required(p.child('matchConstraints', 'resourceRules')));
  else errs.push(...validateMatchResources(mc, p.child('matchConstraints'), { requireRules: true }));
  errs.push(...validateMatchConditions(spec.matchConditions, p.child('matchConditions')));
  errs.push(...validateVariables(arrayAt(spec, 'variables'), p.child('variables')));
  return errs;
}

function validateValidation(v: Json, p: FieldPath): FieldError[] {
  const errs = validateExpression(v.expression, p.child('expression'), 'bool');
  const message = v.message;
  if (typeof message === 'string' && message !== '') {
    if (message.trim() === '') errs.push(invalidValue(p.child('message'), message, 'message must be non-empty if specified'));
    else if (/[\r\n]/.test(message)) errs.push(invalidValue(p.child('message'), message, 'message must not contain line breaks'));
  }
  if (typeof v.messageExpression === 'string' && v.messageExpression !== '') errs.push(...validateExpression(v.messageExpression, p.child('messageExpression'), 'string'));
  if (v.reason !== undefined && v.reason !== null && !VALIDATION_REASONS.includes(String(v.reason))) errs.push(notSupported(p.child('reason'), v.reason, VALIDATION_REASONS));
  return errs;
}

function validateAuditAnnotation(a: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const key = stringAt(a, 'key');
  if (key === '') errs.push(required(p.child('key')));
  else for (const msg of isQualifiedName(`placeholder.example.com/${key}`)) errs.push(invalidValue(p.child('key'), key, msg));
  errs.push(...validateExpression(a.valueExpression, p.child('valueExpression'), 'string'));
  return errs;
}

export function validateValidatingAdmissionPolicy(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const p = path('spec');
  const errs = validatePolicyCommon(spec, p);
  const validations = arrayAt(spec, 'validations');
  const audits = arrayAt(spec, 'auditAnnotations');
  if (validations.length === 0 && audits.length === 0) errs.push(required(p.child('validations'), 'validations or auditAnnotations must contain at least one item'));
  validations.forEach((v, i) => errs.push(...validateValidation(v, p.child('validations').index(i))));
  const keys = new Set<string>();
  audits.forEach((a, i) => {
    errs.push(...validateAuditAnnotation(a, p.child('auditAnnotations').index(i)));
    const key = stringAt(a, 'key');
    if (key !== '' && keys.has(key)) errs.push(invalidValue(p.child('auditAnnotations').index(i).child('key'), key, 'must be unique'));
    keys.add(key);
  });
  return errs;
}

function validateMutation(m: Json, p: FieldPath): FieldError[] {
  const type = m.patchType;
  if (type === undefined || type === null || type === '') return [required(p.child('patchType'))];
  if (!PATCH_TYPES.includes(String(type))) return [notSupported(p.child('patchType'), type, PATCH_TYPES)];
  // The expressions build typed objects (Object{...}, JSONPatch{...}) of the
  // target's schema, which kapi's admission environment cannot type yet: they
  // are required here and checked when evaluated.
  const field = type === 'ApplyConfiguration' ? 'applyConfiguration' : 'jsonPatch';
  const other = type === 'ApplyConfiguration' ? 'jsonPatch' : 'applyConfiguration';
  const errs: FieldError[] = [];
  const body = objectAt(m, field);
  if (body === undefined || stringAt(body, 'expression').trim() === '') errs.push(required(p.child(field, 'expression')));
  if (m[other] !== undefined && m[other] !== null) errs.push(forbiddenField(p.child(other), `must not be specified when patchType is ${String(type)}`));
  return errs;
}

export function validateMutatingAdmissionPolicy(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const p = path('spec');
  const errs = validatePolicyCommon(spec, p);
  const mutations = arrayAt(spec, 'mutations');
  if (mutations.length === 0) errs.push(required(p.child('mutations'), 'mutations must contain at least one item'));
  mutations.forEach((m, i) => errs.push(...validateMutation(m, p.child('mutations').index(i))));
  errs.push(...validateEnum(spec.reinvocationPolicy, p.child('reinvocationPolicy'), REINVOCATION_POLICIES, { required: true }));
  return errs;
}

function validateParamRef(ref: Json | undefined, p: FieldPath): FieldError[] {
  if (ref === undefined) return [];
  const errs: FieldError[] = [];
  const name = stringAt(ref, 'name');
  const hasSelector = ref.selector !== undefined && ref.selector !== null;
  if (name !== '' && hasSelector) errs.push(forbiddenField(p.child('name'), 'name and selector are mutually exclusive'));
  if (name === '' && !hasSelector) errs.push(required(p.child('name'), 'one of name or selector must be specified'));
  if (hasSelector) errs.push(...validateSelector(ref.selector, p.child('selector')));
  errs.push(...validateEnum(ref.parameterNotFoundAction, p.child('parameterNotFoundAction'), PARAMETER_NOT_FOUND_ACTIONS, { required: true }));
  return errs;
}

function validateBindingCommon(spec: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (stringAt(spec, 'policyName') === '') errs.push(required(p.child('policyName')));
  errs.push(...validateParamRef(objectAt(spec, 'paramRef'), p.child('paramRef')));
  const mr = objectAt(spec, 'matchResources');
  if (mr !== undefined) errs.push(...validateMatchResources(mr, p.child('matchResources'), { requireRules: false }));
  return errs;
}

export function validateValidatingAdmissionPolicyBinding(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const p = path('spec');
  const errs = validateBindingCommon(spec, p);
  const actions = strings(spec.validationActions);
  const at = p.child('validationActions');
  if (actions.length === 0) errs.push(required(at, 'at least one validation action is required'));
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (seen.has(a)) errs.push(invalidValue(at.index(i), a, 'duplicate action'));
    seen.add(a);
    if (!VALIDATION_ACTIONS.includes(a)) errs.push(notSupported(at.index(i), a, VALIDATION_ACTIONS));
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(invalidValue(at, actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  return errs;
}

export function validateMutatingAdmissionPolicyBinding(obj: KubeObject): FieldError[] {
  return validateBindingCommon(specOf(obj), path('spec'));
}
