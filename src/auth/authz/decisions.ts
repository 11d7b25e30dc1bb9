// apiserver_authorization_decisions_total: every terminal decision (Allow or Deny)
// an authorizer of the chain makes, by its type and name, as kube's instrumented
// authorizers count them (NoOpinion is no decision). The recorder is handed in so
// auth/ knows no metrics library.
import { isPending, type AuthorizationResult, type AuthorizerMode } from './authorizer.js';

export interface AuthorizerLabels {
  readonly type: string;
  readonly name: string;
}

export type DecisionRecorder = (labels: AuthorizerLabels, decision: 'allowed' | 'denied') => void;

export function instrumented(mode: AuthorizerMode, labels: AuthorizerLabels, record: DecisionRecorder | undefined): AuthorizerMode {
  if (record === undefined) return mode;
  const counted = (result: AuthorizationResult): AuthorizationResult => {
    if (result.decision === 'Allow') record(labels, 'allowed');
    else if (result.decision === 'Deny') record(labels, 'denied');
    return result;
  };
  return {
    rulesFor: mode.rulesFor,
    // No promise where the mode answers at once: this runs for every request.
    authorize: (attrs) => {
      const answer = mode.authorize(attrs);
      return isPending(answer) ? answer.then(counted) : counted(answer);
    },
  };
}
