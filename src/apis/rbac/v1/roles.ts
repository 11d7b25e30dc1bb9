// Roles: namespaced sets of policy rules. Stored objects only until an RBAC
// authorizer reads them. Names need only be safe as a path segment, as in kube.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import type { FieldError } from '../../../schema/field-errors.js';
import { validateRules } from './rules.js';

export function validateRole(role: KubeObject): FieldError[] {
  return validateRules(role, true);
}

export const roles = defineResource({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'Role',
  plural: 'roles',
  scope: 'Namespaced',
  nameValidation: 'path-segment',
  strategy: {
    validate: validateRole,
    // Reconcilers (kubectl auth reconcile, the bootstrap policy) PUT roles that may not exist yet.
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
  },
});
