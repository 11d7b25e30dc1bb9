// ClusterRoleBindings: grant a ClusterRole cluster-wide; service-account subjects
// must say their namespace. The roleRef is fixed for the binding's life.
import { defineResource } from '../../../registry/define-resource.js';
import { roleBindingTable } from './rbac-table.js';
import { defaultBinding, validateBinding, validateRoleRefUnchanged } from './bindings.js';

export const clusterRoleBindings = defineResource({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'ClusterRoleBinding',
  plural: 'clusterrolebindings',
  scope: 'Cluster',
  nameValidation: 'path-segment',
  table: roleBindingTable,
  strategy: {
    defaults: defaultBinding,
    validate: (crb) => validateBinding(crb, false),
    validateUpdate: (next, prev) => [...validateBinding(next, false), ...validateRoleRefUnchanged(next, prev)],
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
  },
});
