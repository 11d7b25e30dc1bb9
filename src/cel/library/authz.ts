// Kubernetes' authz library (k8s.io/apiserver/pkg/cel/library/authz.go): the
// `authorizer` variable and its builders — path(p).check(httpVerb),
// group(g).resource(r)[.subresource/.namespace/.name].check(verb),
// serviceAccount(ns, name) — and the Decision accessors allowed, reason,
// errored, error. fieldSelector/labelSelector exist only behind the
// AuthorizeWithSelectors gate (authzSelectorsLibrary).
//
// CEL evaluation is synchronous, so the authorizer behind the variable is too:
// the server supplies a CelAuthorizer that answers from what it already holds.
import { celError } from '../values.js';
import type { CelLibrary } from './library.js';
import type { UserInfo } from '../../schema/user.js';

export type AuthorizationDecision = 'Allow' | 'Deny' | 'NoOpinion';

/** authorizer.AttributesRecord as the library fills it. */
export interface CelAuthorizationAttributes {
  readonly user: UserInfo;
  /** API verb for resource checks; the HTTP verb as written for path checks. */
  readonly verb: string;
  readonly isResourceRequest: boolean;
  /** Non-resource path (path checks only). */
  readonly path: string;
  readonly apiGroup: string;
  /** '*' for resource checks, as kube sends it. */
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  /**
   * Raw selectors (AuthorizeWithSelectors only, when non-empty). kube parses them
   * into requirements before calling the authorizer and passes a parse error
   * alongside; here the implementation parses them (it owns the selector code).
   */
  readonly fieldSelector?: string;
  readonly labelSelector?: string;
}

export interface CelAuthorizationResult {
  readonly decision: AuthorizationDecision;
  readonly reason: string;
  /** Set when the authorizer failed to decide (Decision.errored()/error()). */
  readonly error?: string;
}

/** The authorizer behind the `authorizer` variable; check() is called once per .check() in a rule. */
export interface CelAuthorizer {
  check(attributes: CelAuthorizationAttributes): CelAuthorizationResult;
}

export const AUTHORIZER_TYPE = 'kubernetes.authorization.Authorizer';
const PATH_CHECK = 'kubernetes.authorization.PathCheck';
const GROUP_CHECK = 'kubernetes.authorization.GroupCheck';
const RESOURCE_CHECK = 'kubernetes.authorization.ResourceCheck';
const DECISION = 'kubernetes.authorization.Decision';

/** The value bound to `authorizer`: who asks and who decides. */
export class CelAuthorizerValue {
  constructor(
    readonly authorizer: CelAuthorizer,
    readonly user: UserInfo,
  ) {}
}

/** The binding for the `authorizer` variable of a request by `user`. */
export function authorizerValue(authorizer: CelAuthorizer, user: UserInfo): CelAuthorizerValue {
  return new CelAuthorizerValue(authorizer, user);
}

class PathCheck {
  constructor(readonly auth: CelAuthorizerValue, readonly path: string) {}
}

class GroupCheck {
  constructor(readonly auth: CelAuthorizerValue, readonly group: string) {}
}

interface ResourceFields {
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly fieldSelector: string;
  readonly labelSelector: string;
}

class ResourceCheck {
  constructor(readonly group: GroupCheck, readonly fields: ResourceFields) {}
  with(change: Partial<ResourceFields>): ResourceCheck {
    return new ResourceCheck(this.group, { ...this.fields, ...change });
  }
}

class Decision {
  constructor(readonly result: CelAuthorizationResult) {}
}

function decide(auth: CelAuthorizerValue, attributes: CelAuthorizationAttributes): Decision {
  try {
    return new Decision(auth.authorizer.check(attributes));
  } catch (err) {
    // An authorizer that throws has failed to decide: kube reports that as an errored Decision, not a rule error.
    return new Decision({ decision: 'NoOpinion', reason: '', error: err instanceof Error ? err.message : String(err) });
  }
}

function resourceAttributes(r: ResourceCheck, verb: string): CelAuthorizationAttributes {
  const f = r.fields;
  return {
    user: r.group.auth.user,
    verb,
    isResourceRequest: true,
    path: '',
    apiGroup: r.group.group,
    apiVersion: '*',
    resource: f.resource,
    subresource: f.subresource,
    namespace: f.namespace,
    name: f.name,
    ...(f.fieldSelector === '' ? {} : { fieldSelector: f.fieldSelector }),
    ...(f.labelSelector === '' ? {} : { labelSelector: f.labelSelector }),
  };
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** serviceAccount(ns, name): kube validates the name (DNS subdomain) before the namespace (DNS label). */
function serviceAccount(auth: CelAuthorizerValue, namespace: string, name: string): CelAuthorizerValue {
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) throw celError('Invalid service account name');
  if (namespace.length > 63 || !DNS1123_LABEL.test(namespace)) throw celError('Invalid service account namespace');
  return new CelAuthorizerValue(auth.authorizer, {
    username: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
  });
}

export const authzLibrary: CelLibrary = {
  name: 'kubernetes.authz',
  register(env) {
    const fn = (sig: string, h: (...args: never[]) => unknown): void => void env.registerFunction(sig, h);
    env.registerType(AUTHORIZER_TYPE, CelAuthorizerValue);
    env.registerType(PATH_CHECK, PathCheck);
    env.registerType(GROUP_CHECK, GroupCheck);
    env.registerType(RESOURCE_CHECK, ResourceCheck);
    env.registerType(DECISION, Decision);
    fn(`${AUTHORIZER_TYPE}.path(string): ${PATH_CHECK}`, (a: CelAuthorizerValue, p: string) => {
      if (p.trim() === '') throw celError('path must not be empty');
      return new PathCheck(a, p);
    });
    fn(`${AUTHORIZER_TYPE}.group(string): ${GROUP_CHECK}`, (a: CelAuthorizerValue, g: string) => new GroupCheck(a, g));
    fn(`${AUTHORIZER_TYPE}.serviceAccount(string, string): ${AUTHORIZER_TYPE}`, serviceAccount);
    fn(`${GROUP_CHECK}.resource(string): ${RESOURCE_CHECK}`, (g: GroupCheck, r: string) => {
      if (r.trim() === '') throw celError('resource must not be empty');
      return new ResourceCheck(g, { resource: r, subresource: '', namespace: '', name: '', fieldSelector: '', labelSelector: '' });
    });
    fn(`${RESOURCE_CHECK}.subresource(string): ${RESOURCE_CHECK}`, (r: ResourceCheck, s: string) => r.with({ subresource: s }));
    fn(`${RESOURCE_CHECK}.namespace(string): ${RESOURCE_CHECK}`, (r: ResourceCheck, s: string) => r.with({ namespace: s }));
    fn(`${RESOURCE_CHECK}.name(string): ${RESOURCE_CHECK}`, (r: ResourceCheck, s: string) => r.with({ name: s }));
    fn(`${PATH_CHECK}.check(string): ${DECISION}`, (p: PathCheck, verb: string) =>
      decide(p.auth, {
        user: p.auth.user, verb, isResourceRequest: false, path: p.path,
        apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '',
      }),
    );
    fn(`${RESOURCE_CHECK}.check(string): ${DECISION}`, (r: ResourceCheck, verb: string) => decide(r.group.auth, resourceAttributes(r, verb)));
    fn(`${DECISION}.allowed(): bool`, (d: Decision) => d.result.decision === 'Allow');
    fn(`${DECISION}.reason(): string`, (d: Decision) => d.result.reason);
    fn(`${DECISION}.errored(): bool`, (d: Decision) => d.result.error !== undefined);
    fn(`${DECISION}.error(): string`, (d: Decision) => d.result.error ?? '');
  },
};

/** fieldSelector/labelSelector (kube's AuthzSelectors library), registered only with the AuthorizeWithSelectors gate. */
export const authzSelectorsLibrary: CelLibrary = {
  name: 'kubernetes.authzSelectors',
  register(env) {
    env.registerFunction(`${RESOURCE_CHECK}.fieldSelector(string): ${RESOURCE_CHECK}`, (r: ResourceCheck, s: string) => r.with({ fieldSelector: s }));
    env.registerFunction(`${RESOURCE_CHECK}.labelSelector(string): ${RESOURCE_CHECK}`, (r: ResourceCheck, s: string) => r.with({ labelSelector: s }));
  },
};
