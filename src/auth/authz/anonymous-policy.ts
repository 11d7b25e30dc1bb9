// What an anonymous request may reach before RBAC exists: the non-resource paths
// kube-apiserver's default policy opens to everyone (health, version, discovery,
// OpenAPI and the service-account issuer documents), and the one object kubeadm
// opens to system:anonymous (its `kubeadm:bootstrap-signer-clusterinfo` Role and
// RoleBinding: get of configmaps/cluster-info in kube-public, which `kubeadm join
// --token` reads before it has credentials). Outside them the request is denied
// whatever the mode says (AlwaysAllow grants nothing to system:anonymous); inside
// them the configured modes decide, so AlwaysDeny still denies.
import type { AuthorizationAttributes, Authorizer } from './authorizer.js';

const UNAUTHENTICATED = 'system:unauthenticated';
const ANONYMOUS = 'system:anonymous';

/** kube's nonResourceURLs rules: an exact path, or a prefix ending in `*`. */
const PUBLIC_PATHS: readonly string[] = [
  '/healthz', '/healthz/*', '/livez', '/livez/*', '/readyz', '/readyz/*', '/version', '/version/',
  '/api', '/api/*', '/apis', '/apis/*', '/openapi', '/openapi/*',
  '/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/',
];

/** One named object and the verb allowed on it (an RBAC rule with resourceNames). */
interface PublicObject {
  readonly verb: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
}

/** kubeadm's clusterinfo.CreateClusterInfoRBACRules, bound to the user system:anonymous. */
const PUBLIC_OBJECTS: readonly PublicObject[] = [
  { verb: 'get', apiGroup: '', resource: 'configmaps', namespace: 'kube-public', name: 'cluster-info' },
];

function matches(path: string, rule: string): boolean {
  return rule.endsWith('*') ? path.startsWith(rule.slice(0, -1)) : path === rule;
}

function isPublicObject(attrs: AuthorizationAttributes): boolean {
  // The binding names the user, not the group (an impersonated group is not enough).
  if (attrs.user.username !== ANONYMOUS || attrs.subresource !== '') return false;
  return PUBLIC_OBJECTS.some(
    (o) => o.verb === attrs.verb && o.apiGroup === attrs.apiGroup && o.resource === attrs.resource && o.namespace === attrs.namespace && o.name === attrs.name,
  );
}

export function anonymousPolicyAuthorizer(paths: readonly string[] = PUBLIC_PATHS): Authorizer {
  return (attrs) => {
    if (!attrs.user.groups.includes(UNAUTHENTICATED)) return { decision: 'NoOpinion', reason: '' };
    const open = attrs.isResourceRequest
      ? isPublicObject(attrs)
      : attrs.verb === 'get' && paths.some((rule) => matches(attrs.path, rule));
    return open ? { decision: 'NoOpinion', reason: '' } : { decision: 'Deny', reason: '' };
  };
}
