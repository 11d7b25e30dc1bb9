// Composition of authorizers in --authorization-mode order, as kube's union
// authorizer: the first Allow or Deny decides; NoOpinion passes to the next.
// When every member abstains the answer stays NoOpinion, with the members'
// reasons joined by newlines and their errors aggregated as kube's are: the filter
// forbids anything but Allow, and a
// SelfSubjectAccessReview reports `denied` only for an explicit Deny, as kube does.
// Their rules concatenate; the union is incomplete when any member is (kube's
// union RuleResolver), and evaluation errors are kept as kube aggregates them.
import { aggregateErrors } from '../../errors/aggregate.js';
import { isPending, type AuthorizationResult, type Authorizer, type AuthorizerMode, type RulesResolver } from './authorizer.js';

export function unionAuthorizer(...authorizers: readonly Authorizer[]): Authorizer {
  // Every request passes here: members that answer at once are asked without a
  // promise, and the lists are made only when a member has something to say.
  return (attrs) => {
    let reasons: string[] | undefined;
    let errors: string[] | undefined;
    const noted = (result: AuthorizationResult): boolean => {
      if (result.error !== undefined && result.error !== '') (errors ??= []).push(result.error);
      if (result.decision !== 'NoOpinion') return true;
      if (result.reason !== '') (reasons ??= []).push(result.reason);
      return false;
    };
    const nobody = (): AuthorizationResult => ({ decision: 'NoOpinion', reason: reasons?.join('\n') ?? '', ...(errors === undefined ? {} : { error: aggregateErrors(errors) }) });
    const from = (start: number): AuthorizationResult | Promise<AuthorizationResult> => {
      for (let i = start; i < authorizers.length; i++) {
        const answer = authorizers[i]!(attrs);
        if (isPending(answer)) return answer.then((result) => (noted(result) ? result : from(i + 1)));
        if (noted(answer)) return answer;
      }
      return nobody();
    };
    return from(0);
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
