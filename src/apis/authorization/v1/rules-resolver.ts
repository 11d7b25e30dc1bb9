// What SelfSubjectRulesReview asks: the rules an authorizer can enumerate for a
// user in a namespace (kube's authorizer.RuleResolver). The server hands in its
// authorizer mode's own rulesFor (auth/authz/create.ts: one mode decides and
// lists); a server that hands in only an authorizer gets the probe below.
import { EVERYTHING } from '../../../auth/authz/always.js';
import type { Authorizer, RulesResolver, RulesResult } from '../../../auth/authz/authorizer.js';

export type { NonResourceRule, ResourceRule, RulesResolver, RulesResult } from '../../../auth/authz/authorizer.js';

const UNKNOWN: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: true };

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
