// --authorization-mode=ABAC: one mode of the authorizer union (create.ts), asked
// after the privileged-group and anonymous-policy checks, over the policies read at
// start from --authorization-policy-file (policy.ts). It allows when any policy matches
// the user, the verb and the resource or path, and otherwise abstains, so a later
// mode may still allow. Matching is kube's pkg/auth/authorizer/abac/abac.go: exact
// strings or `*`, no subresource or name, and `readonly` meaning get, list, watch.
import type { UserInfo } from '../../../schema/user.js';
import type { AuthorizationAttributes, AuthorizerMode, NonResourceRule, ResourceRule, RulesResult } from '../authorizer.js';
import type { AbacPolicy } from './convert.js';

export type { AbacPolicy } from './convert.js';

/** kube's reason when it abstains, shown in the 403 message when nobody allows. */
export const NO_POLICY_MATCHED = 'No policy matched.';

/** authorizer.AttributesRecord.IsReadOnly; for a non-resource request the verb is the lower-case HTTP method, so HEAD is not read-only. */
function isReadOnly(verb: string): boolean {
  return verb === 'get' || verb === 'list' || verb === 'watch';
}

/**
 * A policy names a user, a group, or both (then both must match). `*` matches
 * anyone here, though conversion has already turned a file's `*` into the group
 * system:authenticated; a policy with neither matches nobody.
 */
function subjectMatches(p: AbacPolicy, user: UserInfo): boolean {
  let matched = false;
  if (p.user !== '') {
    if (p.user !== '*' && p.user !== user.username) return false;
    matched = true;
  }
  if (p.group !== '') {
    if (p.group !== '*' && !user.groups.includes(p.group)) return false;
    matched = true;
  }
  return matched;
}

function verbMatches(p: AbacPolicy, attrs: AuthorizationAttributes): boolean {
  return isReadOnly(attrs.verb) || !p.readonly;
}

const matchesOrStar = (rule: string, value: string): boolean => rule === '*' || rule === value;

/** Only namespace, resource and API group count: a policy for pods also covers pods/exec and every name. */
function resourceMatches(p: AbacPolicy, attrs: AuthorizationAttributes): boolean {
  return attrs.isResourceRequest && matchesOrStar(p.namespace, attrs.namespace) && matchesOrStar(p.resource, attrs.resource) && matchesOrStar(p.apiGroup, attrs.apiGroup);
}

/** `*`, the exact path, or a prefix: any trailing `*`s (all of them, as strings.TrimRight) end a prefix, so `/ro*` covers `/root`. */
function nonResourceMatches(p: AbacPolicy, attrs: AuthorizationAttributes): boolean {
  if (attrs.isResourceRequest) return false;
  const rule = p.nonResourcePath;
  if (rule === '*' || rule === attrs.path) return true;
  if (!rule.endsWith('*')) return false;
  let end = rule.length;
  while (end > 0 && rule[end - 1] === '*') end--;
  return attrs.path.startsWith(rule.slice(0, end));
}

function matches(p: AbacPolicy, attrs: AuthorizationAttributes): boolean {
  // Resource and non-resource requests are exclusive: at most one of the two can match.
  return subjectMatches(p, attrs.user) && verbMatches(p, attrs) && (resourceMatches(p, attrs) || nonResourceMatches(p, attrs));
}

/** What a policy allows, as SelfSubjectRulesReview lists it (kube's getVerbs). */
function verbsOf(p: AbacPolicy): string[] {
  return p.readonly ? ['get', 'list', 'watch'] : ['*'];
}

/**
 * kube's PolicyList.RulesFor: one rule per policy naming the user (or a group of
 * theirs) whose namespace is `*` or the one asked about — the namespace test also
 * gates non-resource rules, as in kube. The list is complete: ABAC allows nothing
 * it does not list.
 */
function rulesFor(policies: readonly AbacPolicy[], user: UserInfo, namespace: string): RulesResult {
  const resourceRules: ResourceRule[] = [];
  const nonResourceRules: NonResourceRule[] = [];
  for (const p of policies) {
    if (!subjectMatches(p, user) || !matchesOrStar(p.namespace, namespace)) continue;
    if (p.resource !== '') resourceRules.push({ verbs: verbsOf(p), apiGroups: [p.apiGroup], resources: [p.resource] });
    if (p.nonResourcePath !== '') nonResourceRules.push({ verbs: verbsOf(p), nonResourceURLs: [p.nonResourcePath] });
  }
  return { resourceRules, nonResourceRules, incomplete: false };
}

/**
 * The ABAC mode over parsed policies (parseAbacPolicyFile). The policies are copied,
 * so the mode never changes after it is built; kube reads the file only at start.
 */
export function createAbacAuthorizer(policies: readonly AbacPolicy[]): AuthorizerMode {
  const list: readonly AbacPolicy[] = Object.freeze(policies.map((p) => Object.freeze({ ...p })));
  return {
    authorize: (attrs) => (list.some((p) => matches(p, attrs)) ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: NO_POLICY_MATCHED }),
    rulesFor: async (user, namespace) => rulesFor(list, user, namespace),
  };
}
