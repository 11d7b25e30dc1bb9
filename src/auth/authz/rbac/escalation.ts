// RBAC's escalation prevention (k8s.io/kubernetes pkg/registry/rbac: the
// policy-based role and binding storage). Nobody grants a permission they do not
// hold: a Role or ClusterRole is written only by a user whose own RBAC rules cover
// every rule in it, or who may `escalate` that role; a binding only by a user who
// may `bind` the role it references, or who holds all of that role's permissions.
// system:masters may do both, as kube's EscalationAllowed. The `escalate` and `bind`
// checks ask the whole authorizer chain; "holds" asks RBAC's own rules, as kube does.
import { forbidden, notFound } from '../../../errors/status-error.js';
import { goQuote } from '../../../schema/go-quote.js';
import type { UserInfo } from '../../../schema/user.js';
import { SYSTEM_PRIVILEGED_GROUP, type Authorizer } from '../authorizer.js';
import type { PolicyIndex } from './policy-index.js';
import { aggregateErrors } from '../../../errors/aggregate.js';
import { rulesFor } from './rbac.js';
import { compactRules, compactString, covers, type PolicyRule } from './rules.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** `*` on everything: what setting an aggregationRule needs, since it can gather anything. */
const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [], nonResourceURLs: [] },
  { verbs: ['*'], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: ['*'] },
];

export interface RoleWrite {
  readonly user: UserInfo;
  readonly resource: 'roles' | 'clusterroles';
  /** '' for cluster roles. */
  readonly namespace: string;
  /** The name the request's URL carries ('' for a create), which kube's `escalate` check asks about. */
  readonly name: string;
  /** The object's name, for the 403's subject. */
  readonly objectName: string;
  readonly rules: readonly PolicyRule[];
  /** The new or the stored object has an aggregationRule (cluster roles only). */
  readonly aggregation: boolean;
}

export interface BindingWrite {
  readonly user: UserInfo;
  readonly resource: 'rolebindings' | 'clusterrolebindings';
  readonly namespace: string;
  readonly name: string;
  readonly roleRef: { readonly kind: string; readonly name: string; readonly apiGroup: string };
}

export interface EscalationGuard {
  /** Throws 403 Forbidden with kube's text when the user may not write these rules. */
  checkRole(write: RoleWrite): Promise<void>;
  /** Throws 403 (or 404 for a missing role, as kube's lister answers) when the user may not bind the role. */
  checkBinding(write: BindingWrite): Promise<void>;
}

const isPrivileged = (user: UserInfo): boolean => user.groups.includes(SYSTEM_PRIVILEGED_GROUP);

export function createEscalationGuard(opts: { authorizer: Authorizer; index: PolicyIndex }): EscalationGuard {
  const allowed = async (user: UserInfo, verb: string, resource: string, namespace: string, name: string): Promise<boolean> => {
    const { decision } = await opts.authorizer({ user, verb, isResourceRequest: true, path: '', namespace, apiGroup: RBAC_GROUP, apiVersion: '*', resource, subresource: '', name });
    return decision === 'Allow';
  };

  /** kube's ConfirmNoEscalation: the error text, or undefined when the user holds every rule. */
  const missingRights = (user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined => {
    const owner = rulesFor(opts.index, user, namespace);
    const { covered, missing } = covers(owner.rules, rules);
    if (covered) return undefined;
    const described = [...new Set(compactRules(missing).map(compactString))].sort();
    const groups = `[${user.groups.map(goQuote).join(' ')}]`;
    let message = `user ${goQuote(user.username)} (groups=${groups}) is attempting to grant RBAC permissions not currently held:\n${described.join('\n')}`;
    if (owner.errors.length > 0) message += `; resolution errors: [${aggregateErrors(owner.errors)}]`;
    return message;
  };

  return {
    async checkRole(write) {
      if (isPrivileged(write.user)) return;
      const gr = { group: RBAC_GROUP, resource: write.resource };
      if (await allowed(write.user, 'escalate', write.resource, write.namespace, write.name)) return;
      const missing = missingRights(write.user, write.namespace, write.rules);
      if (missing !== undefined) throw forbidden(gr, write.objectName, missing);
      if (write.aggregation && missingRights(write.user, write.namespace, FULL_AUTHORITY) !== undefined) {
        throw forbidden(gr, write.objectName, 'must have cluster-admin privileges to use the aggregationRule');
      }
    },
    async checkBinding(write) {
      if (isPrivileged(write.user)) return;
      const { kind, name: roleName } = write.roleRef;
      const roleResource = kind === 'ClusterRole' ? 'clusterroles' : kind === 'Role' ? 'roles' : undefined;
      if (roleResource !== undefined && (await allowed(write.user, 'bind', roleResource, write.namespace, roleName))) return;
      const found = opts.index.roleRules(kind, roleName, write.namespace);
      if ('error' in found) throw notFound({ group: RBAC_GROUP, resource: kind === 'Role' ? 'role' : 'clusterrole' }, roleName);
      const missing = missingRights(write.user, write.namespace, found.rules);
      if (missing !== undefined) throw forbidden({ group: RBAC_GROUP, resource: write.resource }, write.name, missing);
    },
  };
}
