// Impersonation (kube-apiserver's WithImpersonation): the Impersonate-User,
// Impersonate-Group (repeatable), Impersonate-Uid and Impersonate-Extra-<key>
// headers ask to act as someone else. Each thing asked for is authorized for the
// caller with the verb `impersonate` (users, groups and serviceaccounts in the
// core group; uids and userextras/<key> in authentication.k8s.io); the first
// refusal is a 403 naming it. Only then does the request run as the new user.
import { badRequest, forbidden, type StatusError } from '../errors/status-error.js';
import type { UserInfo } from '../schema/user.js';
import type { AuthorizationAttributes, Authorizer } from './authz/authorizer.js';
import { forbiddenMessageWithReason } from './authz/forbidden-message.js';

const USER_HEADER = 'impersonate-user';
const GROUP_HEADER = 'impersonate-group';
const UID_HEADER = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';
const AUTHENTICATION_GROUP = 'authentication.k8s.io';
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
const ANONYMOUS = 'system:anonymous';
const ALL_AUTHENTICATED = 'system:authenticated';
const ALL_UNAUTHENTICATED = 'system:unauthenticated';

/** One thing a request asks to impersonate, as kube lists them (an ObjectReference). */
interface Requested {
  readonly kind: 'User' | 'ServiceAccount' | 'Group' | 'UID' | 'UserExtra';
  readonly namespace: string;
  readonly name: string;
  readonly apiVersion: string;
  /** UserExtra: the extra's key. */
  readonly fieldPath: string;
}

/** The impersonation headers of a request, each value kept (repeated headers are separate values). */
export interface ImpersonationHeaders {
  readonly user: string;
  readonly groups: readonly string[];
  readonly uid: string;
  /** Lower-case, unescaped keys. */
  readonly extra: ReadonlyMap<string, readonly string[]>;
}

/** kube unescapes extra keys as URL path segments, keeping the raw key when that fails. */
function unescapeKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** Reads the headers from a request's raw name/value pairs (repeated headers stay apart, any case). */
export function impersonationHeaders(rawHeaders: readonly string[]): ImpersonationHeaders | undefined {
  let user = '';
  let uid = '';
  const groups: string[] = [];
  const extra = new Map<string, string[]>();
  let any = false;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!name.startsWith('impersonate-')) continue;
    const value = rawHeaders[i + 1]!;
    if (name === USER_HEADER) {
      // http.Header.Get: the first value.
      if (user === '') user = value;
    } else if (name === GROUP_HEADER) groups.push(value);
    else if (name === UID_HEADER) {
      if (uid === '') uid = value;
    } else if (name.startsWith(EXTRA_PREFIX)) {
      const key = unescapeKey(name.slice(EXTRA_PREFIX.length));
      const values = extra.get(key) ?? [];
      values.push(value);
      extra.set(key, values);
    } else continue;
    any = true;
  }
  return any ? { user, groups, uid, extra } : undefined;
}

function requestsOf(headers: ImpersonationHeaders): Requested[] {
  const out: Requested[] = [];
  const base = { namespace: '', apiVersion: '', fieldPath: '' };
  if (headers.user !== '') {
    const sa = headers.user.startsWith(SERVICE_ACCOUNT_PREFIX) ? headers.user.slice(SERVICE_ACCOUNT_PREFIX.length).split(':') : undefined;
    if (sa !== undefined && sa.length === 2 && sa[0] !== '' && sa[1] !== '') out.push({ ...base, kind: 'ServiceAccount', namespace: sa[0]!, name: sa[1]! });
    else out.push({ ...base, kind: 'User', name: headers.user });
  }
  for (const group of headers.groups) out.push({ ...base, kind: 'Group', name: group });
  for (const [key, values] of headers.extra) {
    for (const value of values) out.push({ ...base, kind: 'UserExtra', name: value, apiVersion: `${AUTHENTICATION_GROUP}/v1`, fieldPath: key });
  }
  if (headers.uid !== '') out.push({ ...base, kind: 'UID', name: headers.uid, apiVersion: `${AUTHENTICATION_GROUP}/v1` });
  return out;
}

/** Go's %v of the ObjectReference list kube puts in its message. */
function goFormat(requests: readonly Requested[]): string {
  return `[${requests.map((r) => `{${r.kind} ${r.namespace} ${r.name}  ${r.apiVersion}  ${r.fieldPath}}`).join(' ')}]`;
}

function attributesFor(caller: UserInfo, r: Requested): AuthorizationAttributes {
  const common = { user: caller, verb: 'impersonate', isResourceRequest: true, path: '', apiVersion: '', name: r.name, namespace: r.namespace };
  switch (r.kind) {
    case 'ServiceAccount':
      return { ...common, apiGroup: '', resource: 'serviceaccounts', subresource: '' };
    case 'User':
      return { ...common, apiGroup: '', resource: 'users', subresource: '' };
    case 'Group':
      return { ...common, apiGroup: '', resource: 'groups', subresource: '' };
    case 'UID':
      return { ...common, apiGroup: AUTHENTICATION_GROUP, resource: 'uids', subresource: '' };
    case 'UserExtra':
      return { ...common, apiGroup: AUTHENTICATION_GROUP, resource: 'userextras', subresource: r.fieldPath };
  }
}

function refused(attrs: AuthorizationAttributes, reason: string): StatusError {
  return forbidden({ group: attrs.apiGroup, resource: attrs.resource }, attrs.name, forbiddenMessageWithReason(attrs, reason));
}

/**
 * The user a request runs as: the caller when it asks to impersonate nothing,
 * else the impersonated user once every part was authorized. Throws 400 for
 * groups, extras or a uid without a user, 403 for the first part refused.
 */
export async function impersonate(opts: { caller: UserInfo; headers: ImpersonationHeaders | undefined; authorizer: Authorizer }): Promise<UserInfo> {
  const { caller, headers, authorizer } = opts;
  if (headers === undefined) return caller;
  const requests = requestsOf(headers);
  if (headers.user === '') {
    if (requests.length === 0) return caller;
    throw badRequest(`requested ${goFormat(requests)} without impersonating a user`);
  }
  const groupsSpecified = headers.groups.length > 0;
  let username = '';
  let uid: string | undefined;
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    const attrs = attributesFor(caller, r);
    const { decision, reason } = await authorizer(attrs);
    if (decision !== 'Allow') throw refused(attrs, reason);
    switch (r.kind) {
      case 'ServiceAccount':
        username = `${SERVICE_ACCOUNT_PREFIX}${r.namespace}:${r.name}`;
        // A service account's groups are fixed; named groups replace them.
        if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${r.namespace}`];
        break;
      case 'User':
        username = r.name;
        break;
      case 'Group':
        groups.push(r.name);
        break;
      case 'UID':
        uid = r.name;
        break;
      case 'UserExtra':
        Object.defineProperty(extra, r.fieldPath, { value: [...(Object.hasOwn(extra, r.fieldPath) ? extra[r.fieldPath]! : []), r.name], enumerable: true, writable: true, configurable: true });
        break;
    }
  }
  // kube adds system:authenticated whatever groups were named (unless one of them is
  // system:authenticated or system:unauthenticated), and system:unauthenticated to system:anonymous.
  if (username !== ANONYMOUS) {
    if (!groups.includes(ALL_AUTHENTICATED) && !groups.includes(ALL_UNAUTHENTICATED)) groups.push(ALL_AUTHENTICATED);
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) {
    groups.push(ALL_UNAUTHENTICATED);
  }
  return { username, groups, ...(uid === undefined ? {} : { uid }), ...(Object.keys(extra).length === 0 ? {} : { extra }) };
}
