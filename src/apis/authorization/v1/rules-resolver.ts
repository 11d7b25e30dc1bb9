// What SelfSubjectRulesReview asks: the rules an authorizer can enumerate for a
// user in a namespace (kube's authorizer.RuleResolver). Per mode, as kube's
// authorizers answer RulesFor: AlwaysAllow everything (`*`), AlwaysDeny nothing,
// both complete; modes that cannot enumerate (Webhook) answer incomplete. The
// union concatenates the members' rules and is incomplete when any member is.
// The privileged-group authorizer enumerates nothing, as in kube (there
// system:masters' rules come from RBAC's cluster-admin binding).
import type { Authorizer } from '../../../auth/authz/authorizer.js';
import type { UserInfo } from '../../../schema/user.js';

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

const EVERYTHING: RulesResult = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};
const NOTHING: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
const UNKNOWN: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: true };

/** The modes of --authorization-mode as kube's authorizers enumerate them; any other mode cannot. */
const BY_MODE: Readonly<Record<string, RulesResult>> = { AlwaysAllow: EVERYTHING, AlwaysDeny: NOTHING };

export function unionRulesResolver(...members: readonly RulesResolver[]): RulesResolver {
  return async (user, namespace) => {
    const results = await Promise.all(members.map((m) => m(user, namespace)));
    const errors = results.map((r) => r.evaluationError).filter((e): e is string => e !== undefined && e !== '');
    return {
      resourceRules: results.flatMap((r) => r.resourceRules),
      nonResourceRules: results.flatMap((r) => r.nonResourceRules),
      incomplete: results.some((r) => r.incomplete),
      ...(errors.length === 0 ? {} : { evaluationError: `[${errors.join(', ')}]` }),
    };
  };
}

/** The resolver kube-apiserver builds beside the authorizer for the same --authorization-mode list. */
export function createRulesResolver(opts: { modes: readonly string[] }): RulesResolver {
  return unionRulesResolver(...opts.modes.map((mode): RulesResolver => {
    const result = Object.hasOwn(BY_MODE, mode) ? BY_MODE[mode]! : UNKNOWN;
    return async () => result;
  }));
}

/**
 * For a server that hands in only its authorizer: ask it whether the user may do
 * everything (`*` on every resource and every path). If so the answer is the
 * `*` rules, complete; otherwise no rules, incomplete, since an opaque authorizer
 * cannot say what it would allow.
 */
export function probingRulesResolver(authorizer: Authorizer): RulesResolver {
  return async (user, namespace) => {
    const base = { user, namespace, apiGroup: '*', apiVersion: '*', resource: '*', subresource: '', name: '', verb: '*' };
    const [resources, paths] = await Promise.all([
      authorizer({ ...base, isResourceRequest: true, path: '' }),
      authorizer({ ...base, namespace: '', apiGroup: '', apiVersion: '', resource: '', isResourceRequest: false, path: '*' }),
    ]);
    if (resources.decision === 'Allow' && paths.decision === 'Allow') return EVERYTHING;
    return UNKNOWN;
  };
}
