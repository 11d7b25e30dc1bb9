// kube-apiserver 1.36's default RBAC policy as the objects the rbac/bootstrap-roles
// post-start hook ensures (server/bootstrap-rbac.ts): the data of
// bootstrap-policy-{cluster-roles,controllers,namespaces}.ts with kube's metadata
// on every object — the label kubernetes.io/bootstrapping=rbac-defaults and the
// annotation rbac.authorization.kubernetes.io/autoupdate=true — and each
// controller role bound to its service account in kube-system.
import type { KubeObject } from '../../schema/object.js';
import { CLUSTER_ROLES, CLUSTER_ROLE_BINDINGS, type BootstrapSubject } from './bootstrap-policy-cluster-roles.js';
import { CONTROLLER_ROLES, CONTROLLER_ROLE_PREFIX } from './bootstrap-policy-controllers.js';
import { NAMESPACED_ROLES, NAMESPACED_ROLE_BINDINGS } from './bootstrap-policy-namespaces.js';
import type { PolicyRule } from './bootstrap-policy-rules.js';

export const BOOTSTRAPPING_LABEL = 'kubernetes.io/bootstrapping';
export const BOOTSTRAPPING_VALUE = 'rbac-defaults';
/** "false" on an object hands it to its users: the bootstrap leaves it alone. */
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const API_VERSION = `${RBAC_GROUP}/v1`;

/** What every bootstrap object carries (kube's addDefaultMetadata). */
function metadata(name: string, extraLabels: Readonly<Record<string, string>> = {}, namespace?: string): KubeObject['metadata'] {
  return {
    name,
    ...(namespace === undefined ? {} : { namespace }),
    labels: { [BOOTSTRAPPING_LABEL]: BOOTSTRAPPING_VALUE, ...extraLabels },
    annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
  };
}

function rulesJson(rules: readonly PolicyRule[]): Record<string, unknown>[] {
  return rules.map((r) => ({ ...structuredClone(r) }));
}

/** Subjects as stored: User and Group in the rbac group (what defaulting would add anyway). */
function subjectsJson(subjects: readonly BootstrapSubject[]): Record<string, unknown>[] {
  return subjects.map((s) => (s.kind === 'ServiceAccount' ? { kind: s.kind, name: s.name, namespace: s.namespace } : { kind: s.kind, apiGroup: RBAC_GROUP, name: s.name }));
}

function binding(kind: 'ClusterRoleBinding' | 'RoleBinding', meta: KubeObject['metadata'], roleKind: 'ClusterRole' | 'Role', role: string, subjects: readonly BootstrapSubject[]): KubeObject {
  return {
    apiVersion: API_VERSION,
    kind,
    metadata: meta,
    roleRef: { apiGroup: RBAC_GROUP, kind: roleKind, name: role },
    // kube leaves `subjects` out when there are none (system:node).
    ...(subjects.length === 0 ? {} : { subjects: subjectsJson(subjects) }),
  };
}

export function bootstrapClusterRoles(): KubeObject[] {
  const people = CLUSTER_ROLES.map((r) => ({
    apiVersion: API_VERSION,
    kind: 'ClusterRole',
    metadata: metadata(r.name, r.labels),
    ...(r.aggregatedFrom === undefined ? {} : { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [r.aggregatedFrom]: 'true' } }] } }),
    rules: rulesJson(r.rules),
  }));
  const controllers = CONTROLLER_ROLES.map((r) => ({
    apiVersion: API_VERSION,
    kind: 'ClusterRole',
    metadata: metadata(CONTROLLER_ROLE_PREFIX + r.controller),
    rules: rulesJson(r.rules),
  }));
  return [...people, ...controllers];
}

export function bootstrapClusterRoleBindings(): KubeObject[] {
  const people = CLUSTER_ROLE_BINDINGS.map((b) => binding('ClusterRoleBinding', metadata(b.name), 'ClusterRole', b.role, b.subjects));
  const controllers = CONTROLLER_ROLES.map((r) => {
    const name = CONTROLLER_ROLE_PREFIX + r.controller;
    return binding('ClusterRoleBinding', metadata(name), 'ClusterRole', name, [{ kind: 'ServiceAccount', name: r.controller, namespace: 'kube-system' }]);
  });
  return [...people, ...controllers];
}

export function bootstrapRoles(): KubeObject[] {
  return NAMESPACED_ROLES.map((r) => ({ apiVersion: API_VERSION, kind: 'Role', metadata: metadata(r.name, {}, r.namespace), rules: rulesJson(r.rules) }));
}

export function bootstrapRoleBindings(): KubeObject[] {
  return NAMESPACED_ROLE_BINDINGS.map((b) => binding('RoleBinding', metadata(b.name, {}, b.namespace), 'Role', b.role, b.subjects));
}
