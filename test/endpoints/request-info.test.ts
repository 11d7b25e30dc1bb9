import { describe, expect, test } from 'vitest';
import { pathProblem, resolveRequestInfo } from '../../src/endpoints/request-info.js';
import type { RequestInfo } from '../../src/endpoints/context.js';

type Want = Partial<RequestInfo>;

const cases: { name: string; method: string; url: string; want: Want }[] = [
  // Collections and objects in the core group.
  { name: 'core namespaced list', method: 'GET', url: '/api/v1/namespaces/default/pods', want: { isResourceRequest: true, verb: 'list', apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace: 'default', resource: 'pods', name: '', subresource: '', parts: ['pods'] } },
  { name: 'core namespaced get', method: 'GET', url: '/api/v1/namespaces/default/pods/web', want: { verb: 'get', namespace: 'default', resource: 'pods', name: 'web', parts: ['pods', 'web'] } },
  { name: 'HEAD is get', method: 'HEAD', url: '/api/v1/namespaces/default/pods/web', want: { verb: 'get', name: 'web' } },
  { name: 'core create', method: 'POST', url: '/api/v1/namespaces/default/configmaps', want: { verb: 'create', namespace: 'default', resource: 'configmaps', name: '' } },
  { name: 'core update', method: 'PUT', url: '/api/v1/namespaces/default/configmaps/app', want: { verb: 'update', resource: 'configmaps', name: 'app' } },
  { name: 'core patch', method: 'PATCH', url: '/api/v1/namespaces/default/configmaps/app', want: { verb: 'patch', name: 'app' } },
  { name: 'core delete', method: 'DELETE', url: '/api/v1/namespaces/default/configmaps/app', want: { verb: 'delete', name: 'app' } },
  { name: 'deletecollection', method: 'DELETE', url: '/api/v1/namespaces/default/configmaps?labelSelector=a%3Db', want: { verb: 'deletecollection', name: '', resource: 'configmaps', namespace: 'default' } },
  { name: 'all-namespaces list', method: 'GET', url: '/api/v1/pods?limit=500', want: { verb: 'list', namespace: '', resource: 'pods' } },
  { name: 'subresource', method: 'PUT', url: '/api/v1/namespaces/default/pods/web/status', want: { verb: 'update', resource: 'pods', name: 'web', subresource: 'status', parts: ['pods', 'web', 'status'] } },
  { name: 'subresource get', method: 'GET', url: '/api/v1/namespaces/default/pods/web/log?container=c', want: { verb: 'get', name: 'web', subresource: 'log' } },
  { name: 'subresource create', method: 'POST', url: '/api/v1/namespaces/default/serviceaccounts/default/token', want: { verb: 'create', resource: 'serviceaccounts', name: 'default', subresource: 'token' } },
  // Groups.
  { name: 'group namespaced list', method: 'GET', url: '/apis/apps/v1/namespaces/ns1/deployments', want: { verb: 'list', apiPrefix: 'apis', apiGroup: 'apps', apiVersion: 'v1', namespace: 'ns1', resource: 'deployments' } },
  { name: 'group get with scale', method: 'GET', url: '/apis/apps/v1/namespaces/ns1/deployments/d/scale', want: { verb: 'get', apiGroup: 'apps', name: 'd', subresource: 'scale' } },
  { name: 'group cluster-scoped get', method: 'GET', url: '/apis/rbac.authorization.k8s.io/v1/clusterroles/admin', want: { verb: 'get', apiGroup: 'rbac.authorization.k8s.io', namespace: '', resource: 'clusterroles', name: 'admin' } },
  { name: 'group cluster-scoped create', method: 'POST', url: '/apis/authentication.k8s.io/v1/selfsubjectreviews', want: { verb: 'create', resource: 'selfsubjectreviews', namespace: '' } },
  { name: 'core cluster-scoped list', method: 'GET', url: '/api/v1/nodes', want: { verb: 'list', resource: 'nodes', namespace: '' } },
  // Namespaces themselves.
  { name: 'namespaces list', method: 'GET', url: '/api/v1/namespaces', want: { verb: 'list', resource: 'namespaces', namespace: '', name: '', parts: ['namespaces'] } },
  { name: 'namespace get', method: 'GET', url: '/api/v1/namespaces/team-a', want: { verb: 'get', resource: 'namespaces', namespace: 'team-a', name: 'team-a', parts: ['namespaces', 'team-a'] } },
  { name: 'namespace delete', method: 'DELETE', url: '/api/v1/namespaces/team-a', want: { verb: 'delete', resource: 'namespaces', namespace: 'team-a', name: 'team-a' } },
  { name: 'namespace status', method: 'PUT', url: '/api/v1/namespaces/team-a/status', want: { verb: 'update', resource: 'namespaces', namespace: 'team-a', name: 'team-a', subresource: 'status' } },
  { name: 'namespace finalize', method: 'PUT', url: '/api/v1/namespaces/team-a/finalize', want: { verb: 'update', resource: 'namespaces', name: 'team-a', subresource: 'finalize' } },
  { name: 'namespaces create', method: 'POST', url: '/api/v1/namespaces', want: { verb: 'create', resource: 'namespaces', namespace: '' } },
  // Watch.
  { name: 'watch=true', method: 'GET', url: '/api/v1/namespaces/default/pods?watch=true', want: { verb: 'watch', resource: 'pods' } },
  { name: 'watch=1', method: 'GET', url: '/api/v1/pods?watch=1', want: { verb: 'watch', namespace: '' } },
  { name: 'watch=false is list', method: 'GET', url: '/api/v1/pods?watch=false', want: { verb: 'list' } },
  { name: 'watch=0 is list', method: 'GET', url: '/api/v1/pods?watch=0', want: { verb: 'list' } },
  { name: 'watch=yes is watch', method: 'GET', url: '/api/v1/pods?watch=yes', want: { verb: 'watch' } },
  { name: 'watch on a named GET is still get', method: 'GET', url: '/api/v1/namespaces/default/pods/web?watch=true', want: { verb: 'get', name: 'web' } },
  { name: 'legacy watch collection', method: 'GET', url: '/api/v1/watch/namespaces/default/pods', want: { verb: 'watch', namespace: 'default', resource: 'pods', name: '', parts: ['pods'] } },
  { name: 'legacy watch object', method: 'GET', url: '/api/v1/watch/namespaces/default/pods/web', want: { verb: 'watch', namespace: 'default', resource: 'pods', name: 'web' } },
  { name: 'legacy watch all namespaces', method: 'GET', url: '/apis/apps/v1/watch/deployments', want: { verb: 'watch', apiGroup: 'apps', namespace: '', resource: 'deployments' } },
  { name: 'legacy watch namespaces', method: 'GET', url: '/api/v1/watch/namespaces', want: { verb: 'watch', resource: 'namespaces', namespace: '' } },
  { name: 'legacy watch one namespace', method: 'GET', url: '/api/v1/watch/namespaces/ns1', want: { verb: 'watch', resource: 'namespaces', namespace: 'ns1', name: 'ns1' } },
  // Field selector on metadata.name narrows list/watch to a name (authorization sees it).
  { name: 'list by metadata.name', method: 'GET', url: '/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dweb&limit=500', want: { verb: 'list', name: 'web' } },
  { name: 'watch by metadata.name==', method: 'GET', url: '/api/v1/namespaces/default/pods?watch=true&fieldSelector=metadata.name%3D%3Dweb', want: { verb: 'watch', name: 'web' } },
  { name: 'metadata.name!= does not name', method: 'GET', url: '/api/v1/pods?fieldSelector=metadata.name!%3Dweb', want: { verb: 'list', name: '' } },
  { name: 'other field selector does not name', method: 'GET', url: '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1', want: { verb: 'list', name: '', fieldSelector: 'spec.nodeName=n1' } },
  // Selectors for the authorizers (AuthorizeWithSelectors): list, watch and deletecollection only, raw.
  { name: 'list carries both selectors', method: 'GET', url: '/api/v1/pods?labelSelector=app%3Dweb,tier!%3Ddb&fieldSelector=spec.nodeName%3Dn1', want: { verb: 'list', labelSelector: 'app=web,tier!=db', fieldSelector: 'spec.nodeName=n1' } },
  { name: 'watch carries its label selector', method: 'GET', url: '/api/v1/pods?watch=1&labelSelector=app', want: { verb: 'watch', labelSelector: 'app' } },
  { name: 'deletecollection carries its label selector', method: 'DELETE', url: '/api/v1/namespaces/default/configmaps?labelSelector=a%3Db', want: { verb: 'deletecollection', labelSelector: 'a=b' } },
  // Proxy keeps the rest of the path.
  { name: 'proxy verb', method: 'GET', url: '/api/v1/proxy/namespaces/default/pods/web/some/path', want: { verb: 'proxy', resource: 'pods', name: 'web', subresource: '' } },
  // Non-resource paths: lower-cased method.
  { name: 'root', method: 'GET', url: '/', want: { isResourceRequest: false, verb: 'get', path: '/' } },
  { name: 'healthz', method: 'GET', url: '/healthz?verbose', want: { isResourceRequest: false, verb: 'get', path: '/healthz' } },
  { name: 'version post', method: 'POST', url: '/version', want: { isResourceRequest: false, verb: 'post' } },
  { name: '/api discovery', method: 'GET', url: '/api', want: { isResourceRequest: false, verb: 'get', path: '/api' } },
  { name: '/api/v1 discovery', method: 'GET', url: '/api/v1', want: { isResourceRequest: false, verb: 'get' } },
  { name: '/apis discovery', method: 'GET', url: '/apis', want: { isResourceRequest: false } },
  { name: '/apis/<g> discovery', method: 'GET', url: '/apis/apps', want: { isResourceRequest: false } },
  { name: '/apis/<g>/<v> discovery', method: 'GET', url: '/apis/apps/v1', want: { isResourceRequest: false, apiGroup: '' } },
  { name: 'openapi', method: 'GET', url: '/openapi/v3/api/v1?hash=AB', want: { isResourceRequest: false, path: '/openapi/v3/api/v1' } },
  { name: 'delete on non-resource', method: 'DELETE', url: '/metrics', want: { isResourceRequest: false, verb: 'delete' } },
  { name: 'bare /api/v1/watch is not a resource', method: 'GET', url: '/api/v1/watch', want: { isResourceRequest: false } },
  { name: 'trailing slash', method: 'GET', url: '/api/v1/namespaces/default/pods/', want: { verb: 'list', resource: 'pods' } },
  // Non-canonical shapes: escapes are decoded before the path is split, as Go's URL.Path is.
  { name: 'encoded slash splits segments', method: 'GET', url: '/api/v1/namespaces/default/configmaps/a%2Fb', want: { path: '/api/v1/namespaces/default/configmaps/a/b', name: 'a', subresource: 'b' } },
  { name: 'encoded slash in the namespace position', method: 'GET', url: '/api/v1/namespaces/default%2Fconfigmaps', want: { verb: 'list', namespace: 'default', resource: 'configmaps' } },
  { name: 'encoded dots are dots', method: 'GET', url: '/api/v1/namespaces/%2e%2e/secrets', want: { namespace: '..', resource: 'secrets' } },
  { name: 'double-encoded stays one level encoded', method: 'GET', url: '/api/v1/namespaces/default/configmaps/%252e', want: { name: '%2e' } },
  { name: 'empty namespace segment', method: 'GET', url: '/api/v1/namespaces//configmaps', want: { namespace: '', resource: 'configmaps' } },
  { name: 'non-resource path is decoded for authorization', method: 'GET', url: '/heal%74hz', want: { isResourceRequest: false, path: '/healthz' } },
  { name: 'malformed escape keeps the raw path', method: 'GET', url: '/api/v1/namespaces/default/configmaps/%zz', want: { name: '%zz' } },
];

/** Paths that must not be served as they read: kube's answer, or kapi's where kube's is a 500 or a wider list. */
const refused: { name: string; url: string; want: { code: number; message: string } | undefined }[] = [
  { name: 'canonical path passes', url: '/api/v1/namespaces/default/configmaps/app', want: undefined },
  { name: 'trailing slashes pass (kube trims them)', url: '/api/v1/namespaces/default/configmaps//', want: undefined },
  { name: 'namespace object passes', url: '/api/v1/namespaces/team-a/status', want: undefined },
  { name: 'non-resource dots are left to the router', url: '/version/..', want: undefined },
  { name: '.. as namespace', url: '/api/v1/namespaces/../secrets', want: { code: 400, message: `Namespace parameter invalid: "..": may not be '..'` } },
  { name: '. as namespace', url: '/api/v1/namespaces/./secrets', want: { code: 400, message: `Namespace parameter invalid: ".": may not be '.'` } },
  { name: 'encoded .. as namespace', url: '/api/v1/namespaces/%2E%2E/secrets', want: { code: 400, message: `Namespace parameter invalid: "..": may not be '..'` } },
  { name: '% in a namespace', url: '/api/v1/namespaces/a%25b/secrets', want: { code: 400, message: `Namespace parameter invalid: "a%b": may not contain '%'` } },
  { name: '.. as name', url: '/api/v1/namespaces/default/configmaps/..', want: { code: 400, message: `Name parameter invalid: "..": may not be '..'` } },
  { name: '.. as a namespace object name', url: '/api/v1/namespaces/..', want: { code: 400, message: `Name parameter invalid: "..": may not be '..'` } },
  { name: '.. as a cluster-scoped name', url: '/apis/rbac.authorization.k8s.io/v1/clusterroles/..', want: { code: 400, message: `Name parameter invalid: "..": may not be '..'` } },
  { name: 'double-encoded dot leaves a % in the name', url: '/api/v1/namespaces/default/configmaps/%252e%252e', want: { code: 400, message: `Name parameter invalid: "%2e%2e": may not contain '%'` } },
  { name: 'legacy watch with .. namespace', url: '/api/v1/watch/namespaces/../pods', want: { code: 400, message: `Namespace parameter invalid: "..": may not be '..'` } },
  { name: 'empty namespace', url: '/api/v1/namespaces//configmaps', want: { code: 404, message: 'the server could not find the requested resource' } },
  { name: 'empty segment after version', url: '/api/v1//configmaps', want: { code: 404, message: 'the server could not find the requested resource' } },
  { name: 'empty group segment', url: '/apis//v1/deployments', want: { code: 404, message: 'the server could not find the requested resource' } },
  { name: '.. after a namespace', url: '/api/v1/namespaces/default/../kube-system/configmaps', want: { code: 404, message: 'the server could not find the requested resource' } },
  { name: '. as resource', url: '/api/v1/namespaces/default/./configmaps', want: { code: 404, message: 'the server could not find the requested resource' } },
  { name: '.. as subresource', url: '/api/v1/namespaces/default/pods/web/..', want: { code: 404, message: 'the server could not find the requested resource' } },
  { name: 'empty name segment before subresource', url: '/api/v1/namespaces/default/pods//status', want: { code: 404, message: 'the server could not find the requested resource' } },
  { name: 'malformed escape', url: '/api/v1/namespaces/default/configmaps/%zz', want: { code: 400, message: 'the request URL is not valid: it holds a malformed percent-escape' } },
  { name: 'malformed escape in a non-resource path', url: '/healthz%', want: { code: 400, message: 'the request URL is not valid: it holds a malformed percent-escape' } },
];

describe('pathProblem', () => {
  for (const c of refused) {
    test(c.name, () => {
      const problem = pathProblem(c.url, resolveRequestInfo('GET', c.url));
      if (c.want === undefined) {
        expect(problem).toBeUndefined();
        return;
      }
      expect(problem?.toStatus()).toMatchObject({ kind: 'Status', status: 'Failure', code: c.want.code, message: c.want.message });
    });
  }
});

describe('resolveRequestInfo', () => {
  for (const c of cases) {
    test(c.name, () => {
      expect(resolveRequestInfo(c.method, c.url)).toMatchObject(c.want);
    });
  }
});

describe('selectors the authorizers do not get', () => {
  const cases = [
    { name: 'an empty selector is none', method: 'GET', url: '/api/v1/pods?labelSelector=&fieldSelector=' },
    { name: 'a get by name carries none', method: 'GET', url: '/api/v1/namespaces/default/pods/web?labelSelector=app' },
    { name: 'a create carries none', method: 'POST', url: '/api/v1/namespaces/default/pods?labelSelector=app' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = resolveRequestInfo(c.method, c.url);
      expect(Object.hasOwn(got, 'labelSelector')).toBe(false);
      expect(Object.hasOwn(got, 'fieldSelector')).toBe(false);
    });
  }
});
