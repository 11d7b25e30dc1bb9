// RBAC's policy rules as data, and the two questions asked of them: does a rule
// allow this request (kube's RuleAllows, for every decision), and do a user's rules
// cover a set of rules (kube's Covers, for escalation checks on roles and bindings).
// Matching follows k8s.io/kubernetes pkg/apis/rbac/v1 helpers and
// pkg/registry/rbac/validation exactly: `*` wildcards, `resource/subresource` and
// `*/subresource`, resourceNames, and non-resource URLs with a trailing `*`.
import { goQuote } from '../../../schema/go-quote.js';
import type { AuthorizationAttributes, NonResourceRule, ResourceRule } from '../authorizer.js';

/** rbac/v1 PolicyRule with every list present. */
export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

const ALL = '*';

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function own(obj: unknown, key: string): unknown {
  return typeof obj === 'object' && obj !== null && Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** A stored rule (already typed by the schema walk) as a PolicyRule; missing lists are empty. */
export function policyRuleOf(rule: unknown): PolicyRule {
  return {
    verbs: strings(own(rule, 'verbs')),
    apiGroups: strings(own(rule, 'apiGroups')),
    resources: strings(own(rule, 'resources')),
    resourceNames: strings(own(rule, 'resourceNames')),
    nonResourceURLs: strings(own(rule, 'nonResourceURLs')),
  };
}

export function policyRulesOf(role: unknown): PolicyRule[] {
  const rules = own(role, 'rules');
  return Array.isArray(rules) ? rules.map(policyRuleOf) : [];
}

function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources) {
    if (r === ALL || r === combined) return true;
    if (subresource !== '' && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

export function nonResourceURLMatches(ruleURL: string, path: string): boolean {
  if (ruleURL === ALL || ruleURL === path) return true;
  return ruleURL.endsWith('*') && path.startsWith(ruleURL.replace(/\*+$/, ''));
}

/** kube's RuleAllows. */
export function ruleAllows(attrs: AuthorizationAttributes, rule: PolicyRule): boolean {
  const verbMatches = rule.verbs.includes(ALL) || rule.verbs.includes(attrs.verb);
  if (!verbMatches) return false;
  if (!attrs.isResourceRequest) return rule.nonResourceURLs.some((u) => nonResourceURLMatches(u, attrs.path));
  const combined = attrs.subresource === '' ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
  return (
    (rule.apiGroups.includes(ALL) || rule.apiGroups.includes(attrs.apiGroup)) &&
    resourceMatches(rule, combined, attrs.subresource) &&
    (rule.resourceNames.length === 0 || rule.resourceNames.includes(attrs.name))
  );
}

/** SelfSubjectRulesReview's split of a rule list (kube's ConvertToSelfSubjectRulesReview… helpers). */
export function toReviewRules(rules: readonly PolicyRule[]): { resourceRules: ResourceRule[]; nonResourceRules: NonResourceRule[] } {
  const resourceRules: ResourceRule[] = [];
  const nonResourceRules: NonResourceRule[] = [];
  for (const r of rules) {
    if (r.resources.length > 0) {
      resourceRules.push({ verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources, ...(r.resourceNames.length === 0 ? {} : { resourceNames: r.resourceNames }) });
    }
    if (r.nonResourceURLs.length > 0) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
  }
  return { resourceRules, nonResourceRules };
}

const rule = (parts: Partial<PolicyRule>): PolicyRule => ({ verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [], ...parts });

/** kube's BreakdownRule: one rule per group × resource × verb (× name), and per URL × verb. */
export function breakdownRule(r: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of r.apiGroups) {
    for (const resource of r.resources) {
      for (const verb of r.verbs) {
        if (r.resourceNames.length === 0) out.push(rule({ apiGroups: [group], resources: [resource], verbs: [verb] }));
        else for (const name of r.resourceNames) out.push(rule({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] }));
      }
    }
  }
  for (const url of r.nonResourceURLs) for (const verb of r.verbs) out.push(rule({ nonResourceURLs: [url], verbs: [verb] }));
  return out;
}

const hasAll = (set: readonly string[], items: readonly string[]): boolean => items.every((i) => set.includes(i));

function resourceCoversAll(set: readonly string[], covers: readonly string[]): boolean {
  if (set.includes(ALL) || hasAll(set, covers)) return true;
  return covers.every((p) => {
    if (set.includes(p)) return true;
    const slash = p.indexOf('/');
    return slash >= 0 && set.includes(`*/${p.slice(slash + 1)}`);
  });
}

/** kube's ruleCovers: does one owner rule grant everything the (broken-down) rule asks? */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes(ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = owner.apiGroups.includes(ALL) || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = sub.nonResourceURLs.every((p) => owner.nonResourceURLs.some((o) => o === p || (o.endsWith('*') && p.startsWith(o.replace(/\*+$/, '')))));
  const names = sub.resourceNames.length === 0 ? owner.resourceNames.length === 0 : owner.resourceNames.length === 0 || hasAll(owner.resourceNames, sub.resourceNames);
  return verbs && groups && resources && urls && names;
}

/** kube's Covers: whether `owner` holds every permission of `servant`, and the atomic rules it lacks. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing = servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
  return { covered: missing.length === 0, missing };
}

/** kube's CompactRules: rules of one group and one resource (at most one name) merge their verbs. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, { rule: PolicyRule; verbs: string[] }>();
  for (const r of rules) {
    const isSimple = r.resourceNames.length <= 1 && r.nonResourceURLs.length === 0 && r.apiGroups.length === 1 && r.resources.length === 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups[0], r.resources[0], r.resourceNames.length === 1, r.resourceNames[0] ?? '']);
    const seen = simple.get(key);
    if (seen === undefined) simple.set(key, { rule: r, verbs: [...r.verbs] });
    else seen.verbs.push(...r.verbs);
  }
  for (const { rule: r, verbs } of simple.values()) out.push({ ...r, verbs });
  return out;
}

/** Go's %q of a []string: `["a" "b"]`. */
function quotedList(items: readonly string[]): string {
  return `[${items.map(goQuote).join(' ')}]`;
}

/** kube's CompactString, as escalation errors list missing rules: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (r.apiGroups.length > 0) parts.push(`APIGroups:${quotedList(r.apiGroups)}`);
  if (r.resources.length > 0) parts.push(`Resources:${quotedList(r.resources)}`);
  if (r.nonResourceURLs.length > 0) parts.push(`NonResourceURLs:${quotedList(r.nonResourceURLs)}`);
  if (r.resourceNames.length > 0) parts.push(`ResourceNames:${quotedList(r.resourceNames)}`);
  if (r.verbs.length > 0) parts.push(`Verbs:${quotedList(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}
