// rbac.authorization.k8s.io/v1: roles, cluster roles and their bindings, in
// discovery's (alphabetical) order. The RBAC authorizer (auth/authz/rbac/) decides
// from them; with an escalation guard, writes are held to kube's escalation rules.
import type { EscalationGuard } from '../../../auth/authz/rbac/escalation.js';
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { bindingWriteCheck, roleWriteCheck } from './escalation.js';
import { clusterRoleBindings } from './cluster-role-bindings.js';
import { clusterRoles } from './cluster-roles.js';
import { roleBindings } from './role-bindings.js';
import { roles } from './roles.js';

export { clusterRoleBindings, clusterRoles, roleBindings, roles };

function guarded(def: ResourceDefinition, authorizeWrite: NonNullable<ResourceDefinition['strategy']['authorizeWrite']>): ResourceDefinition {
  return { ...def, strategy: { ...def.strategy, authorizeWrite } };
}

export function rbacV1(deps: { escalation?: EscalationGuard } = {}): ResourceDefinition[] {
  const guard = deps.escalation;
  if (guard === undefined) return [clusterRoleBindings, clusterRoles, roleBindings, roles];
  return [
    guarded(clusterRoleBindings, bindingWriteCheck(guard, 'clusterrolebindings')),
    guarded(clusterRoles, roleWriteCheck(guard, 'clusterroles')),
    guarded(roleBindings, bindingWriteCheck(guard, 'rolebindings')),
    guarded(roles, roleWriteCheck(guard, 'roles')),
  ];
}
