// What an AuthorizationConfiguration may say, rule for rule as kube's
// ValidateAuthorizationConfiguration and ValidateWebhookConfiguration (k8s.io/
// apiserver pkg/apis/apiserver/validation) say it, with their field paths and
// texts. One quirk is kept on purpose: kube validates a webhook's fields under
// the authorizer's path, not under `.webhook`, so a missing timeout is
// "authorizers[0].timeout: Required value". Match conditions are compiled here.
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { duplicate, goLiteral, invalidValue, notSupported, path, required, type FieldError, type FieldPath } from '../../../schema/field-errors.js';
import { formatGoDuration } from '../../../schema/go-duration.js';
import { isDNS1123Subdomain } from '../../../schema/label-selector.js';
import { compileMatchConditions } from '../webhook/match-conditions.js';
import type { AuthorizationConfiguration, WebhookConfiguration } from './authorization-config.js';

/** kube-apiserver's modes.AuthorizationModeChoices: the types its configuration file knows. */
export const AUTHORIZER_TYPES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
export type AuthorizerType = (typeof AUTHORIZER_TYPES)[number];

/** Only webhooks may appear more than once (kube-apiserver's repeatableAuthorizerTypes). */
export const REPEATABLE_AUTHORIZER_TYPES: readonly AuthorizerType[] = ['Webhook'];

export function isAuthorizerType(type: string): type is AuthorizerType {
  return (AUTHORIZER_TYPES as readonly string[]).includes(type);
}

const MAX_TIMEOUT_MS = 30_000;

export function validateAuthorizationConfiguration(config: AuthorizationConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  const list = path('authorizers');
  if (config.authorizers.length === 0) errs.push(required(list, 'at least one authorization mode must be defined'));
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  config.authorizers.forEach((a, i) => {
    const p = list.index(i);
    if (a.type === '') return void errs.push(required(p.child('type')));
    if (!isAuthorizerType(a.type)) return void errs.push(notSupported(p.child('type'), a.type, [...AUTHORIZER_TYPES].sort()));
    if (seenTypes.has(a.type) && !REPEATABLE_AUTHORIZER_TYPES.includes(a.type)) return void errs.push(duplicate(p.child('type'), a.type));
    seenTypes.add(a.type);
    if (a.name === '') errs.push(required(p.child('name')));
    else if (seenNames.has(a.name)) errs.push(duplicate(p.child('name'), a.name));
    else {
      const dns = isDNS1123Subdomain(a.name);
      if (dns.length > 0) errs.push(invalidValue(p.child('name'), a.name, `authorizer name is invalid: ${dns.join(', ')}`));
    }
    seenNames.add(a.name);
    if (a.type === 'Webhook') {
      if (a.webhook === undefined) errs.push(required(p.child('webhook'), 'required when type=Webhook'));
      else errs.push(...validateWebhookConfiguration(a.webhook, p));
    } else if (a.webhook !== undefined) {
      errs.push(invalidValue(p.child('webhook'), 'non-null', 'may only be specified when type=Webhook'));
    }
  });
  return errs;
}

function validateTtl(ms: number, p: FieldPath): FieldError[] {
  if (ms === 0) return [required(p)];
  return ms < 0 ? [invalidValue(p, formatGoDuration(ms), 'must be > 0s')] : [];
}

/** Go's %#v of WebhookConnectionInfo (the value kube's NotSupported prints); a set path shows as the path, not Go's pointer address. */
function connectionInfoLiteral(w: WebhookConfiguration): string {
  const file = w.connectionInfo.kubeConfigFile;
  return `apiserver.WebhookConnectionInfo{Type:${JSON.stringify(w.connectionInfo.type)}, KubeConfigFile:(*string)(${file === undefined ? 'nil' : JSON.stringify(file)})}`;
}

function validateKubeConfigFile(file: string | undefined, p: FieldPath): FieldError[] {
  if (file === undefined || file === '') return [required(p)];
  if (!isAbsolute(file)) return [invalidValue(p, file, 'must be an absolute path')];
  let regular: boolean;
  try {
    regular = statSync(file).isFile();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : code === 'ENOTDIR' ? 'not a directory' : (err as Error).message;
    return [invalidValue(p, file, `error loading file: stat ${file}: ${why}`)];
  }
  return regular ? [] : [invalidValue(p, file, 'must be a regular file')];
}

/** kube's ValidateWebhookConfiguration; `p` is the authorizer's path (see the header). */
export function validateWebhookConfiguration(w: WebhookConfiguration, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (w.timeout === 0) errs.push(required(p.child('timeout')));
  else if (w.timeout > MAX_TIMEOUT_MS || w.timeout < 0) errs.push(invalidValue(p.child('timeout'), formatGoDuration(w.timeout), 'must be > 0s and <= 30s'));
  errs.push(...validateTtl(w.authorizedTTL, p.child('authorizedTTL')), ...validateTtl(w.unauthorizedTTL, p.child('unauthorizedTTL')));

  const sarVersion = p.child('subjectAccessReviewVersion');
  if (w.subjectAccessReviewVersion === '') errs.push(required(sarVersion));
  else if (w.subjectAccessReviewVersion !== 'v1' && w.subjectAccessReviewVersion !== 'v1beta1') errs.push(notSupported(sarVersion, w.subjectAccessReviewVersion, ['v1', 'v1beta1']));

  const mcVersion = p.child('matchConditionSubjectAccessReviewVersion');
  if (w.matchConditionSubjectAccessReviewVersion === '') {
    if (w.matchConditions.length > 0) errs.push(required(mcVersion, 'required if match conditions are specified'));
  } else if (w.matchConditionSubjectAccessReviewVersion !== 'v1') errs.push(notSupported(mcVersion, w.matchConditionSubjectAccessReviewVersion, ['v1']));

  const policy = p.child('failurePolicy');
  if (w.failurePolicy === '') errs.push(required(policy));
  else if (w.failurePolicy !== 'NoOpinion' && w.failurePolicy !== 'Deny') errs.push(notSupported(policy, w.failurePolicy, ['NoOpinion', 'Deny']));

  const info = p.child('connectionInfo');
  switch (w.connectionInfo.type) {
    case '':
      errs.push(required(info.child('type')));
      break;
    case 'InClusterConfig':
      if (w.connectionInfo.kubeConfigFile !== undefined) errs.push(invalidValue(info.child('kubeConfigFile'), w.connectionInfo.kubeConfigFile, 'can only be set when type=KubeConfigFile'));
      break;
    case 'KubeConfigFile':
      errs.push(...validateKubeConfigFile(w.connectionInfo.kubeConfigFile, info.child('kubeConfigFile')));
      break;
    default:
      errs.push(notSupported(info.child('type'), goLiteral(connectionInfoLiteral(w)), ['InClusterConfig', 'KubeConfigFile']));
  }
  errs.push(...compileMatchConditions(w.matchConditions.map((c) => c.expression), p).errors);
  return errs;
}
