// What the access reviews share: kube's ValidateSubjectAccessReviewSpec and the
// authorizer attributes a review's spec describes (registry/authorization/util's
// ResourceAttributesFrom / NonResourceAttributesFrom). The subject is whoever the
// review names: the requester for the self reviews, spec.user/groups/uid/extra
// for SubjectAccessReview and LocalSubjectAccessReview.
import { invalidValue, path, type FieldError } from '../../../schema/field-errors.js';
import type { AuthorizationAttributes, AuthorizationResult } from '../../../auth/authz/authorizer.js';
import type { UserInfo } from '../../../schema/user.js';

export type Attributes = Record<string, unknown>;

export function text(attrs: Attributes, field: string): string {
  const value = attrs[field];
  return typeof value === 'string' ? value : '';
}

function isObject(value: unknown): value is Attributes {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Exactly one of resourceAttributes / nonResourceAttributes; for subject reviews, a user or a group. */
export function validateReviewSpec(spec: Attributes, opts: { subject: boolean }): FieldError[] {
  const errs: FieldError[] = [];
  const resource = spec.resourceAttributes;
  const nonResource = spec.nonResourceAttributes;
  if (resource != null && nonResource != null) {
    errs.push(invalidValue(path('spec', 'nonResourceAttributes'), nonResource, 'cannot be specified in combination with resourceAttributes'));
  }
  if (resource == null && nonResource == null) {
    errs.push(invalidValue(path('spec', 'resourceAttributes'), 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  if (opts.subject) {
    const groups = Array.isArray(spec.groups) ? spec.groups : [];
    if (text(spec, 'user') === '' && groups.length === 0) errs.push(invalidValue(path('spec', 'user'), text(spec, 'user'), 'at least one of user or group must be specified'));
  }
  return errs;
}

/** The user a SubjectAccessReview asks about (its spec, not the requester). */
export function subjectOf(spec: Attributes): UserInfo {
  const groups = Array.isArray(spec.groups) ? spec.groups.filter((g): g is string => typeof g === 'string') : [];
  const extra: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  if (isObject(spec.extra)) {
    for (const [k, v] of Object.entries(spec.extra)) if (Array.isArray(v)) extra[k] = v.filter((s): s is string => typeof s === 'string');
  }
  const uid = text(spec, 'uid');
  return {
    username: text(spec, 'user'),
    groups,
    ...(uid === '' ? {} : { uid }),
    ...(Object.keys(extra).length === 0 ? {} : { extra: { ...extra } }),
  };
}

/** `{labelSelector: raw}` when the review's selector carries a rawSelector. */
function selector(field: 'labelSelector' | 'fieldSelector', resource: Record<string, unknown>): Partial<Pick<AuthorizationAttributes, 'labelSelector' | 'fieldSelector'>> {
  const raw = Object.hasOwn(resource, field) && isObject(resource[field]) ? text(resource[field] as Record<string, unknown>, 'rawSelector') : '';
  return raw === '' ? {} : { [field]: raw };
}

export function attributesOf(user: UserInfo, spec: Attributes): AuthorizationAttributes {
  const resource = spec.resourceAttributes;
  if (isObject(resource)) {
    return {
      user,
      verb: text(resource, 'verb'),
      isResourceRequest: true,
      path: '',
      namespace: text(resource, 'namespace'),
      apiGroup: text(resource, 'group'),
      apiVersion: text(resource, 'version'),
      resource: text(resource, 'resource'),
      subresource: text(resource, 'subresource'),
      name: text(resource, 'name'),
      // AuthorizeWithSelectors: a review's raw selectors reach the authorizers as a request's do.
      ...selector('labelSelector', resource),
      ...selector('fieldSelector', resource),
    };
  }
  const nonResource = isObject(spec.nonResourceAttributes) ? spec.nonResourceAttributes : {};
  return {
    user,
    verb: text(nonResource, 'verb'),
    isResourceRequest: false,
    path: text(nonResource, 'path'),
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

/** SubjectAccessReviewStatus: `denied` only for an explicit Deny, reason and evaluationError when there are. */
export function reviewStatus(result: AuthorizationResult): Record<string, unknown> {
  const status: Record<string, unknown> = { allowed: result.decision === 'Allow' };
  if (result.decision === 'Deny') status.denied = true;
  if (result.reason !== '') status.reason = result.reason;
  if (result.error !== undefined && result.error !== '') status.evaluationError = result.error;
  return status;
}
