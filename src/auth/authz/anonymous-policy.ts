// What an anonymous request may reach before RBAC exists: the non-resource paths
// kube-apiserver's default policy opens to everyone (health, version, discovery,
// OpenAPI and the service-account issuer documents). Outside them the request is
// denied whatever the mode says (AlwaysAllow grants nothing to system:anonymous);
// inside them the configured modes decide, so AlwaysDeny still denies.
import type { Authorizer } from './authorizer.js';

const UNAUTHENTICATED = 'system:unauthenticated';

/** kube's nonResourceURLs rules: an exact path, or a prefix ending in `*`. */
const PUBLIC_PATHS: readonly string[] = [
  '/healthz', '/healthz/*', '/livez', '/livez/*', '/readyz', '/readyz/*', '/version', '/version/',
  '/api', '/api/*', '/apis', '/apis/*', '/openapi', '/openapi/*',
  '/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/',
];

function matches(path: string, rule: string): boolean {
  return rule.endsWith('*') ? path.startsWith(rule.slice(0, -1)) : path === rule;
}

export function anonymousPolicyAuthorizer(paths: readonly string[] = PUBLIC_PATHS): Authorizer {
  return async (attrs) => {
    if (!attrs.user.groups.includes(UNAUTHENTICATED)) return { decision: 'NoOpinion', reason: '' };
    const open = !attrs.isResourceRequest && attrs.verb === 'get' && paths.some((rule) => matches(attrs.path, rule));
    return open ? { decision: 'NoOpinion', reason: '' } : { decision: 'Deny', reason: '' };
  };
}
