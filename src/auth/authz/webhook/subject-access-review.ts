// The SubjectAccessReview a webhook authorizer sends and the status it reads back
// (webhook.go Authorize, resourceAttributesFrom, v1SpecToV1beta1Spec). The spec is
// built in the v1 shape (match conditions and the cache key use it) and written in
// the configured version; v1beta1 differs only in apiVersion and in naming groups
// `group`. Bytes are Go's json.Encoder output (field order, omitempty, sorted map
// keys, HTML escapes, trailing newline): a webhook sees what kube-apiserver sends.
import type { AuthorizationAttributes } from '../authorizer.js';
import { fieldSelectorRequirements, labelSelectorRequirements, type SelectorRequirement } from './selectors.js';

export type SubjectAccessReviewVersion = 'v1' | 'v1beta1';

export interface ResourceAttributes {
  readonly namespace: string;
  readonly verb: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly fieldSelector?: { readonly requirements: readonly SelectorRequirement[] };
  readonly labelSelector?: { readonly requirements: readonly SelectorRequirement[] };
}

/** authorization/v1 SubjectAccessReviewSpec; empty strings and lists stand for Go's zero values. */
export interface SubjectAccessReviewSpec {
  readonly resourceAttributes?: ResourceAttributes;
  readonly nonResourceAttributes?: { readonly path: string; readonly verb: string };
  readonly user: string;
  readonly groups: readonly string[];
  /** Null-prototype: keys come from the authenticated user (impersonation headers among them). */
  readonly extra?: Readonly<Record<string, readonly string[]>>;
  readonly uid: string;
}

export function reviewSpecOf(attrs: AuthorizationAttributes): SubjectAccessReviewSpec {
  const u = attrs.user;
  let extra: Record<string, readonly string[]> | undefined;
  if (u.extra !== undefined) {
    extra = Object.create(null) as Record<string, readonly string[]>;
    for (const key of Object.keys(u.extra)) extra[key] = [...u.extra[key]!];
  }
  const user = { user: u.username, groups: [...u.groups], uid: u.uid ?? '', ...(extra === undefined ? {} : { extra }) };
  if (!attrs.isResourceRequest) return { ...user, nonResourceAttributes: { path: attrs.path, verb: attrs.verb } };
  const fields = fieldSelectorRequirements(attrs.fieldSelector);
  const labels = labelSelectorRequirements(attrs.labelSelector);
  const resourceAttributes: ResourceAttributes = {
    namespace: attrs.namespace,
    verb: attrs.verb,
    group: attrs.apiGroup,
    version: attrs.apiVersion,
    resource: attrs.resource,
    subresource: attrs.subresource,
    name: attrs.name,
    ...(fields.length > 0 ? { fieldSelector: { requirements: fields } } : {}),
    ...(labels.length > 0 ? { labelSelector: { requirements: labels } } : {}),
  };
  return { ...user, resourceAttributes };
}

/** Drops Go's omitempty zero values; keeps insertion order (the Go struct's field order). */
function omitEmpty(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}

function sortedExtra(extra: Readonly<Record<string, readonly string[]>> | undefined): Record<string, readonly string[]> | undefined {
  const keys = extra === undefined ? [] : Object.keys(extra).sort();
  if (keys.length === 0) return undefined;
  const out = Object.create(null) as Record<string, readonly string[]>;
  for (const k of keys) out[k] = extra![k]!;
  return out;
}

/** The spec as Go marshals it in `version` (the v1 shape is also the cache key). */
export function specJson(spec: SubjectAccessReviewSpec, version: SubjectAccessReviewVersion): Record<string, unknown> {
  const r = spec.resourceAttributes;
  const resourceAttributes =
    r === undefined
      ? undefined
      : omitEmpty([
          ['namespace', r.namespace], ['verb', r.verb], ['group', r.group], ['version', r.version], ['resource', r.resource],
          ['subresource', r.subresource], ['name', r.name], ['fieldSelector', r.fieldSelector], ['labelSelector', r.labelSelector],
        ]);
  const n = spec.nonResourceAttributes;
  return omitEmpty([
    ['resourceAttributes', resourceAttributes],
    ['nonResourceAttributes', n === undefined ? undefined : omitEmpty([['path', n.path], ['verb', n.verb]])],
    ['user', spec.user],
    [version === 'v1' ? 'groups' : 'group', spec.groups],
    ['extra', sortedExtra(spec.extra)],
    ['uid', spec.uid],
  ]);
}

/** Go's json.Encoder: HTML-safe escapes and a trailing newline. */
export function goJson(value: unknown): string {
  const text = JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `${text}\n`;
}

/** The request body kube-apiserver POSTs. */
export function encodeReview(spec: SubjectAccessReviewSpec, version: SubjectAccessReviewVersion): string {
  // metadata's only field (creationTimestamp) is omitzero; status.allowed has no omitempty.
  return goJson({ kind: 'SubjectAccessReview', apiVersion: `authorization.k8s.io/${version}`, metadata: {}, spec: specJson(spec, version), status: { allowed: false } });
}

/** SubjectAccessReviewStatus (the same in v1 and v1beta1). */
export interface ReviewStatus {
  readonly allowed: boolean;
  readonly denied: boolean;
  readonly reason: string;
  readonly evaluationError: string;
}

/** A response body that is not a SubjectAccessReview a Go decoder would accept. */
export class ReviewDecodeError extends Error {
  override readonly name = 'ReviewDecodeError';
}

const STATUS_FIELDS: readonly (readonly [keyof ReviewStatus, 'boolean' | 'string'])[] = [
  ['allowed', 'boolean'],
  ['denied', 'boolean'],
  ['reason', 'string'],
  ['evaluationError', 'string'],
];

/** Reads `status` from a 2xx body; fields of the wrong JSON type fail as Go's decoder fails. */
export function decodeReviewStatus(body: Buffer): ReviewStatus {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    // Go names the offending character; V8's wording changes between Node versions, so kapi says less.
    throw new ReviewDecodeError("couldn't get version/kind; json parse error: the response body is not JSON");
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ReviewDecodeError('couldn\'t get version/kind; json parse error: not a JSON object');
  const raw = Object.hasOwn(value, 'status') ? (value as Record<string, unknown>).status : undefined;
  const status = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const out: Record<string, unknown> = { allowed: false, denied: false, reason: '', evaluationError: '' };
  for (const [field, type] of STATUS_FIELDS) {
    const v = Object.hasOwn(status, field) ? status[field] : undefined;
    if (v === undefined || v === null) continue;
    if (typeof v !== type) {
      throw new ReviewDecodeError(`json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go struct field SubjectAccessReviewStatus.status.${field} of type ${type === 'boolean' ? 'bool' : 'string'}`);
    }
    out[field] = v;
  }
  return out as unknown as ReviewStatus;
}
