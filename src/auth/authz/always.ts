// The two static modes of --authorization-mode, with kube-apiserver's answers
// (k8s.io/apiserver/pkg/authorization/authorizerfactory/builtin.go), and the rules
// they enumerate: AlwaysAllow everything (`*`), AlwaysDeny nothing, both complete.
import type { Authorizer, AuthorizerMode, RulesResult } from './authorizer.js';

export const alwaysAllow: Authorizer = () => ({ decision: 'Allow', reason: '' });

/**
 * AlwaysDeny abstains rather than denies, exactly as kube's does, so an authorizer
 * after it may still allow; when nobody does, its reason ends up in the 403
 * message: `... in the namespace "default": Everything is forbidden.`
 */
export const alwaysDeny: Authorizer = () => ({ decision: 'NoOpinion', reason: 'Everything is forbidden.' });

export const EVERYTHING: RulesResult = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};
export const NOTHING: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };

export const alwaysAllowMode: AuthorizerMode = { authorize: alwaysAllow, rulesFor: async () => EVERYTHING };
export const alwaysDenyMode: AuthorizerMode = { authorize: alwaysDeny, rulesFor: async () => NOTHING };
