// The vocabulary the default RBAC policy's data is written in (bootstrap-policy*.ts):
// a policy rule as rbac.authorization.k8s.io/v1 stores it, and two short builders
// so each role reads as one line per rule. Lists inside a rule are written in the
// order kube's testdata shows them (its rule builder sorts verbs, groups,
// resources and names); the order of rules within a role is kube's own.

/** rbac.authorization.k8s.io/v1 PolicyRule, fields in the order kube serializes them. */
export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** The core ("legacy") API group, as rules spell it. */
export const CORE = [''] as const;

function words(list: string): string[] {
  return list.split(' ').filter((w) => w !== '');
}

/**
 * A rule on resources. Verbs, resources and resource names never contain a space,
 * so they are written as space-separated lists; groups are an array because the
 * core group is the empty string.
 */
export function rule(verbs: string, apiGroups: readonly string[], resources: string, resourceNames?: string): PolicyRule {
  return {
    verbs: words(verbs),
    apiGroups: [...apiGroups],
    resources: words(resources),
    ...(resourceNames === undefined ? {} : { resourceNames: words(resourceNames) }),
  };
}

/** A rule on non-resource URLs (only ClusterRoles carry them). */
export function urls(verbs: string, paths: string): PolicyRule {
  return { verbs: words(verbs), nonResourceURLs: words(paths) };
}

/** Every verb on a resource that does not escalate (kube's ReadWrite). */
export const READ_WRITE = 'create delete deletecollection get list patch update watch';
/** kube's Read. */
export const READ = 'get list watch';

/** The events rule almost every controller and component gets (both event APIs). */
export const EVENTS = rule('create patch update', ['', 'events.k8s.io'], 'events');
