// The superuser authorizer kube-apiserver puts in front of every configured mode
// (authorizerfactory.NewPrivilegedGroups(system:masters)): members of the
// privileged groups are allowed everything, even under AlwaysDeny, so the admin
// kubeconfig always works.
import type { Authorizer } from './authorizer.js';

export function privilegedGroupsAuthorizer(groups: readonly string[]): Authorizer {
  const privileged = new Set(groups);
  return (attrs) =>
    attrs.user.groups.some((g) => privileged.has(g)) ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: '' };
}
