// Composition of authorizers in --authorization-mode order, as kube's union
// authorizer: the first Allow or Deny decides; NoOpinion passes to the next.
// When every member abstains the answer is Deny with the members' reasons joined
// by newlines. (Kube's union itself returns NoOpinion there and its filter treats
// anything but Allow as forbidden; answering Deny here gives the same result at
// the top level while making "no decision" impossible for callers to misread.)
import type { AuthorizationResult, Authorizer } from './authorizer.js';

export function unionAuthorizer(...authorizers: readonly Authorizer[]): Authorizer {
  return async (attrs) => {
    const reasons: string[] = [];
    for (const authorize of authorizers) {
      const result: AuthorizationResult = await authorize(attrs);
      if (result.decision !== 'NoOpinion') return result;
      if (result.reason !== '') reasons.push(result.reason);
    }
    return { decision: 'Deny', reason: reasons.join('\n') };
  };
}
