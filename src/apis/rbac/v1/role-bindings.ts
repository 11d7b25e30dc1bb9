// RoleBindings: grant a Role or ClusterRole to users, groups and service accounts
// within one namespace. The roleRef is fixed for the binding's life.
import { defineResource } from '../../../registry/define-resource.js';
import { roleBindingTable } from './rbac-table.js';
import { defaultBinding, validateBinding, validateRoleRefUnchanged } from './bindings.js';

export const roleBindings = defineResource({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'RoleBinding',
  plural: 'rolebindings',
  scope: 'Namespaced',
  nameValidation: 'path-segment',
  table: roleBindingTable,
  strategy: {
    defaults: defaultBinding,
    validate: (rb) => validateBinding(rb, true),
    validateUpdate: (next, prev) => [...validateBinding(next, true), ...validateRoleRefUnchanged(next, prev)],
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
  },
});
