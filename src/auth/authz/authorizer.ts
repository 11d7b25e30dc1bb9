// Authorization: the last filter before a handler reads the body. An Authorizer
// looks at who asks (UserInfo) and what the request means (RequestInfo's
// attributes) and answers Allow, Deny or NoOpinion with a reason; the union
// (union.ts) decides, and anything but Allow becomes kube's 403 text
// (forbidden-message.ts). Every mode is one AuthorizerMode: the decision and the
// rules it can enumerate (SelfSubjectRulesReview), from the same state.
import type { UserInfo } from '../../schema/user.js';

/** NoOpinion lets the next authorizer decide; the chain treats "nobody allowed" as Deny. */
export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

/** k8s.io/apiserver/pkg/authorization/authorizer.Attributes. */
export interface AuthorizationAttributes {
  readonly user: UserInfo;
  /** Resource verb (get, list, watch, create, ...) or, for non-resource URLs, the lower-case HTTP method. */
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /**
   * The request's label and field selectors as sent (list, watch, deletecollection),
   * for kube's AuthorizeWithSelectors (on by default in 1.36): a webhook receives
   * them; RBAC, Node and ABAC ignore them. Absent when the request has none.
   */
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

export interface AuthorizationResult {
  readonly decision: Decision;
  /** Why, for the 403 message and audit; '' when there is nothing to say. */
  readonly reason: string;
  /** A failure to decide that did not stop the decision (kube's evaluationError in access reviews). */
  readonly error?: string;
}

/**
 * May be called concurrently; must not mutate the attributes. Throws (or rejects)
 * only on failure to decide (a 500). A mode that decides from memory (RBAC, Node,
 * ABAC) answers at once, without a promise: every request passes the chain, and
 * each promise hop costs it more than an RBAC decision does. Callers await the answer.
 */
export type Authorizer = (attrs: AuthorizationAttributes) => AuthorizationResult | Promise<AuthorizationResult>;

/** Whether an answer is still to come. */
export function isPending<T>(answer: T | Promise<T>): answer is Promise<T> {
  return typeof (answer as { then?: unknown } | null)?.then === 'function';
}

/** rbac/v1 PolicyRule's resource half, as SelfSubjectRulesReview lists it. */
export interface ResourceRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames?: readonly string[];
}

export interface NonResourceRule {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/** kube's authorizer.RuleResolver answer. */
export interface RulesResult {
  readonly resourceRules: readonly ResourceRule[];
  readonly nonResourceRules: readonly NonResourceRule[];
  /** The authorizer allows more than the rules say, or could not say everything. */
  readonly incomplete: boolean;
  /** Set when enumeration failed part-way (kube's evaluationError). */
  readonly evaluationError?: string;
}

/** May be called concurrently; throws only on failure to enumerate. */
export type RulesResolver = (user: UserInfo, namespace: string) => Promise<RulesResult>;

/**
 * One authorization mode (RBAC, Node, ABAC, Webhook, AlwaysAllow, …): its decision
 * and its rule listing come from the same state, so `kubectl auth can-i --list`
 * and the 403s never disagree.
 */
export interface AuthorizerMode {
  readonly authorize: Authorizer;
  readonly rulesFor: RulesResolver;
}

/** Members may do everything, whatever the configured modes say. */
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';
