// Composition of authorizers in --authorization-mode order, as kube's union
// authorizer: the first Allow or Deny decides; NoOpinion passes to the next.
// When every member abstains the answer stays NoOpinion, with the members'
// reasons joined by newlines: the filter forbids anything but Allow, and a
// SelfSubjectAccessReview reports `denied` only for an explicit Deny, as kube does.
import type { AuthorizationResult, Authorizer } from './authorizer.js';

export function unionAuthorizer(...authorizers: readonly Authorizer[]): Authorizer {
  return async (attrs) => {
    const reasons: string[] = [];
    for (const authorize of authorizers) {
      const result: AuthorizationResult = await authorize(attrs);
      if (result.decision !== 'NoOpinion') return result;
      if (result.reason !== '') reasons.push(result.reason);
    }
    return { decision: 'NoOpinion', reason: reasons.join('\n') };
  };
}
