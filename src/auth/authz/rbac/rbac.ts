// The RBAC mode (kube's RBACAuthorizer): a request is allowed when a rule of a role
// bound to the user, or to one of their groups or their service account, allows
// it; otherwise RBAC has no opinion, and the reason names the roles it could not
// read ("RBAC: clusterrole.rbac.authorization.k8s.io "x" not found"). The same walk
// lists a user's rules for SelfSubjectRulesReview and for escalation checks.
import { aggregateErrors } from '../../../errors/aggregate.js';
import type { AuthorizerMode, RulesResult } from '../authorizer.js';
import type { UserInfo } from '../../../schema/user.js';
import type { PolicyIndex } from './policy-index.js';
import { ruleAllows, toReviewRules, type PolicyRule } from './rules.js';


/** Every rule bound to the user in the namespace (and cluster-wide), and the roles that could not be read. */
export function rulesFor(index: PolicyIndex, user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  index.visitRulesFor(user, namespace, (_source, rule, error) => {
    if (rule !== undefined) rules.push(rule);
    if (error !== undefined) errors.push(error);
    return true;
  });
  return { rules, errors };
}

export function createRbacMode(index: PolicyIndex): AuthorizerMode {
  return {
    authorize(attrs) {
      let allowedBy: (() => string) | undefined;
      const errors: string[] = [];
      index.visitRulesFor(attrs.user, attrs.namespace, (source, rule, error) => {
        if (error !== undefined) errors.push(error);
        if (rule !== undefined && ruleAllows(attrs, rule)) {
          allowedBy = source;
          return false;
        }
        return true;
      });
      if (allowedBy !== undefined) return { decision: 'Allow', reason: `RBAC: allowed by ${allowedBy()}` };
      return { decision: 'NoOpinion', reason: errors.length === 0 ? '' : `RBAC: ${aggregateErrors(errors)}` };
    },
    async rulesFor(user, namespace): Promise<RulesResult> {
      const { rules, errors } = rulesFor(index, user, namespace);
      return { ...toReviewRules(rules), incomplete: false, ...(errors.length === 0 ? {} : { evaluationError: aggregateErrors(errors) }) };
    },
  };
}
