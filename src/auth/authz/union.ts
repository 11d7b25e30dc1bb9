// Composition of authorizers in --authorization-mode order, as kube's union
// authorizer: the first Allow or Deny decides; NoOpinion passes to the next.
// When every member abstains the answer stays NoOpinion, with the members'
// reasons joined by newlines and their errors aggregated as kube's are: the filter forbids anything but Allow, and a
// SelfSubjectAccessReview reports `denied` only for an explicit Deny, as kube does.
// Their rules concatenate; the union is incomplete when any member is (kube's
// union RuleResolver), and evaluation errors are kept as kube aggregates them.
import { aggregateErrors } from '../../errors/aggregate.js';
import type { AuthorizationResult, Authorizer, AuthorizerMode, RulesResolver } from './authorizer.js';

export function unionAuthorizer(...authorizers: readonly Authorizer[]): Authorizer {
  return async (attrs) => {
    const reasons: string[] = [];
    const errors: string[] = [];
    for (const authorize of authorizers) {
      const result: AuthorizationResult = await authorize(attrs);
      if (result.error !== undefined && result.error !== '') errors.push(result.error);
      if (result.decision !== 'NoOpinion') return result;
      if (result.reason !== '') reasons.push(result.reason);
    }
    return { decision: 'NoOpinion', reason: reasons.join('\n'), ...(errors.length === 0 ? {} : { error: aggregateErrors(errors) }) };
  };
}

export function unionRulesResolver(...members: readonly RulesResolver[]): RulesResolver {
  return async (user, namespace) => {
    const results = await Promise.all(members.map((m) => m(user, namespace)));
    const errors = results.map((r) => r.evaluationError).filter((e): e is string => e !== undefined && e !== '');
    return {
      resourceRules: results.flatMap((r) => r.resourceRules),
      nonResourceRules: results.flatMap((r) => r.nonResourceRules),
      incomplete: results.some((r) => r.incomplete),
      ...(errors.length === 0 ? {} : { evaluationError: aggregateErrors(errors) }),
    };
  };
}

export function unionModes(...modes: readonly AuthorizerMode[]): AuthorizerMode {
  return { authorize: unionAuthorizer(...modes.map((m) => m.authorize)), rulesFor: unionRulesResolver(...modes.map((m) => m.rulesFor)) };
}
