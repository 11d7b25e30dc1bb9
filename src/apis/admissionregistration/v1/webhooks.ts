// The webhooks of Validating- and MutatingWebhookConfiguration: kube's v1
// defaults (SetDefaults_ValidatingWebhook / _MutatingWebhook, _Rule,
// _ServiceReference) and validation (validateValidatingWebhookConfiguration and
// its mutating twin, with v1's strict checks: unique names, sideEffects and
// admissionReviewVersions required).
import { duplicate, invalidValue, notSupported, required, type FieldError, type FieldPath, path } from '../../../schema/field-errors.js';
import { validatePortNumber } from '../../../registry/validation/common.js';
import { isDNS1123Subdomain } from '../../../registry/validation/names.js';
import { arrayAt, objectAt, setDefault, stringAt, type Json } from '../../core/v1/helpers.js';
import type { KubeObject } from '../../../schema/object.js';
import { FAILURE_POLICIES, MATCH_POLICIES, defaultRules, isObject, strings, validateEnum, validateMatchConditions, validateRuleWithOperations, validateSelector } from './rules.js';

export type WebhookKind = 'validating' | 'mutating';

const SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const REINVOCATION_POLICIES = ['Never', 'IfNeeded'];
const ADMISSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

export function defaultWebhooks(obj: KubeObject, kind: WebhookKind): void {
  for (const hook of arrayAt(obj, 'webhooks')) {
    setDefault(hook, 'failurePolicy', 'Fail');
    setDefault(hook, 'matchPolicy', 'Equivalent');
    if (!isObject(hook.namespaceSelector)) hook.namespaceSelector = {};
    if (!isObject(hook.objectSelector)) hook.objectSelector = {};
    setDefault(hook, 'timeoutSeconds', 10);
    if (kind === 'mutating') setDefault(hook, 'reinvocationPolicy', 'Never');
    defaultRules(hook.rules);
    const service = objectAt(objectAt(hook, 'clientConfig'), 'service');
    if (service !== undefined) setDefault(service, 'port', 443);
  }
}

/** utilvalidation.IsFullyQualifiedName: a DNS subdomain of at least three segments. */
function validateWebhookName(name: string, p: FieldPath): FieldError[] {
  if (name === '') return [required(p)];
  const errs: FieldError[] = [];
  if (name.split('.').length < 3) errs.push(invalidValue(p, name, 'should be a domain with at least three segments separated by dots'));
  for (const msg of isDNS1123Subdomain(name)) errs.push(invalidValue(p, name, msg));
  return errs;
}

/** webhook.ValidateWebhookURL with https forced. */
function validateUrl(raw: string, p: FieldPath): FieldError[] {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return [invalidValue(p, raw, 'must be a valid URL')];
  }
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https') return [invalidValue(p, scheme, "'https' is the only allowed URL scheme")];
  const errs: FieldError[] = [];
  if (u.host === '') errs.push(invalidValue(p, u.host, 'host must be specified'));
  if (u.username !== '' || u.password !== '') errs.push(invalidValue(p, u.username, 'user information is not permitted in the URL'));
  if (u.hash !== '' || raw.includes('#')) errs.push(invalidValue(p, u.hash.replace(/^#/, ''), 'fragments are not permitted in the URL'));
  if (u.search !== '' || raw.includes('?')) errs.push(invalidValue(p, u.search.replace(/^\?/, ''), 'query parameters are not permitted in the URL'));
  return errs;
}

/** webhook.ValidateWebhookService. */
function validateService(service: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (stringAt(service, 'name') === '') errs.push(required(p.child('name'), 'service name is required'));
  if (stringAt(service, 'namespace') === '') errs.push(required(p.child('namespace'), 'service namespace is required'));
  if (service.port !== undefined && service.port !== null) errs.push(...validatePortNumber(service.port, p.child('port')));
  const svcPath = service.path;
  if (typeof svcPath === 'string' && svcPath !== '') {
    if (!svcPath.startsWith('/')) errs.push(invalidValue(p.child('path'), svcPath, "must start with a '/'"));
    else if (svcPath !== '/') {
      const segments = svcPath.slice(1).replace(/\/$/, '').split('/');
      segments.forEach((seg, i) => {
        if (seg === '') errs.push(invalidValue(p.child('path'), svcPath, `segment[${i}] may not be empty`));
        else for (const msg of isDNS1123Subdomain(seg)) errs.push(invalidValue(p.child('path'), svcPath, `segment[${i}]: ${msg}`));
      });
    }
  }
  return errs;
}

function validateClientConfig(cc: Json | undefined, p: FieldPath): FieldError[] {
  const url = cc?.url;
  const service = cc?.service;
  const hasUrl = url !== undefined && url !== null;
  const hasService = service !== undefined && service !== null;
  if (hasUrl === hasService) return [required(p, 'exactly one of url or service is required')];
  return hasUrl ? validateUrl(String(url), p.child('url')) : validateService(isObject(service) ? service : {}, p.child('service'));
}

function validateReviewVersions(value: unknown, p: FieldPath): FieldError[] {
  const versions = strings(value);
  if (versions.length === 0) return [required(p, `must specify one of ${ADMISSION_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) errs.push(invalidValue(p.index(i), v, 'duplicate version'));
    seen.add(v);
    if (!DNS1035_LABEL.test(v) || v.length > 63) errs.push(invalidValue(p.index(i), v, 'a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character'));
  });
  if (!versions.some((v) => ADMISSION_REVIEW_VERSIONS.includes(v))) errs.push(invalidValue(p, versions, `must include at least one of ${ADMISSION_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

function validateWebhook(hook: Json, p: FieldPath, kind: WebhookKind): FieldError[] {
  const errs = validateWebhookName(stringAt(hook, 'name'), p.child('name'));
  arrayAt(hook, 'rules').forEach((rule, i) => errs.push(...validateRuleWithOperations(rule, p.child('rules').index(i))));
  errs.push(...validateEnum(hook.failurePolicy, p.child('failurePolicy'), FAILURE_POLICIES, { required: false }));
  errs.push(...validateEnum(hook.matchPolicy, p.child('matchPolicy'), MATCH_POLICIES, { required: false }));
  if (hook.sideEffects === undefined || hook.sideEffects === null) errs.push(required(p.child('sideEffects'), `must specify one of ${SIDE_EFFECTS.join(', ')}`));
  else if (!SIDE_EFFECTS.includes(String(hook.sideEffects))) errs.push(notSupported(p.child('sideEffects'), hook.sideEffects, SIDE_EFFECTS));
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === 'number' && (timeout < 1 || timeout > 30)) errs.push(invalidValue(p.child('timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
  errs.push(...validateReviewVersions(hook.admissionReviewVersions, p.child('admissionReviewVersions')));
  errs.push(...validateSelector(hook.namespaceSelector, p.child('namespaceSelector')));
  errs.push(...validateSelector(hook.objectSelector, p.child('objectSelector')));
  errs.push(...validateClientConfig(objectAt(hook, 'clientConfig'), p.child('clientConfig')));
  if (kind === 'mutating') errs.push(...validateEnum(hook.reinvocationPolicy, p.child('reinvocationPolicy'), REINVOCATION_POLICIES, { required: false }));
  errs.push(...validateMatchConditions(hook.matchConditions, p.child('matchConditions'), 'webhook'));
  return errs;
}

export function validateWebhookConfiguration(obj: KubeObject, kind: WebhookKind): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  arrayAt(obj, 'webhooks').forEach((hook, i) => {
    const at = path('webhooks').index(i);
    errs.push(...validateWebhook(hook, at, kind));
    const name = stringAt(hook, 'name');
    if (name !== '' && names.has(name)) errs.push(duplicate(at.child('name'), name));
    names.add(name);
  });
  return errs;
}
