// rbac.authorization.k8s.io/v1: roles, cluster roles and their bindings, in
// discovery's (alphabetical) order. Stored and validated; no RBAC authorizer reads
// them yet.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { clusterRoleBindings } from './cluster-role-bindings.js';
import { clusterRoles } from './cluster-roles.js';
import { roleBindings } from './role-bindings.js';
import { roles } from './roles.js';

export { clusterRoleBindings, clusterRoles, roleBindings, roles };

export function rbacV1(): ResourceDefinition[] {
  return [clusterRoleBindings, clusterRoles, roleBindings, roles];
}
