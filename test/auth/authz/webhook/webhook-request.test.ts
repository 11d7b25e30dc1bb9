// What a webhook receives (auth/authz/webhook/subject-access-review.ts): the exact
// bytes kube-apiserver's encoder would send for v1 and v1beta1, resource and
// non-resource requests, selectors (AuthorizeWithSelectors) and hostile names,
// POSTed to the kubeconfig's server path with its client certificate or token.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuthorizationAttributes } from '../../../../src/auth/authz/authorizer.js';
import { createWebhookAuthorizer } from '../../../../src/auth/authz/webhook/webhook.js';
import type { SubjectAccessReviewVersion } from '../../../../src/auth/authz/webhook/subject-access-review.js';
import type { UserInfo } from '../../../../src/schema/user.js';
import { startSarServer, type SarServer } from './sar-server.js';

let server: SarServer;
beforeAll(async () => {
  server = await startSarServer();
});
afterAll(async () => server.close());

const jane: UserInfo = { username: 'jane', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { 'scopes.example.com': ['a', 'b'], 'a-first': ['x'] } };

function resource(overrides: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
  return { user: jane, verb: 'get', isResourceRequest: true, path: '/apis/apps/v1/namespaces/default/deployments/web/scale', namespace: 'default', apiGroup: 'apps', apiVersion: 'v1', resource: 'deployments', subresource: 'scale', name: 'web', ...overrides };
}

const nonResource: AuthorizationAttributes = { user: jane, verb: 'get', isResourceRequest: false, path: '/healthz', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };

const USER_V1 = '"user":"jane","groups":["dev","system:authenticated"],"extra":{"a-first":["x"],"scopes.example.com":["a","b"]},"uid":"u-1"';
const USER_V1BETA1 = '"user":"jane","group":["dev","system:authenticated"],"extra":{"a-first":["x"],"scopes.example.com":["a","b"]},"uid":"u-1"';
const review = (version: SubjectAccessReviewVersion, spec: string) =>
  `{"kind":"SubjectAccessReview","apiVersion":"authorization.k8s.io/${version}","metadata":{},"spec":{${spec}},"status":{"allowed":false}}\n`;

const cases: { name: string; version: SubjectAccessReviewVersion; attrs: AuthorizationAttributes; want: string }[] = [
  {
    name: 'v1 resource request: every attribute, extra keys sorted',
    version: 'v1',
    attrs: resource(),
    want: review('v1', `"resourceAttributes":{"namespace":"default","verb":"get","group":"apps","version":"v1","resource":"deployments","subresource":"scale","name":"web"},${USER_V1}`),
  },
  {
    name: 'v1beta1 names the groups field "group"',
    version: 'v1beta1',
    attrs: resource(),
    want: review('v1beta1', `"resourceAttributes":{"namespace":"default","verb":"get","group":"apps","version":"v1","resource":"deployments","subresource":"scale","name":"web"},${USER_V1BETA1}`),
  },
  {
    name: 'non-resource request: path and verb only',
    version: 'v1',
    attrs: nonResource,
    want: review('v1', `"nonResourceAttributes":{"path":"/healthz","verb":"get"},${USER_V1}`),
  },
  {
    name: 'empty fields are omitted (cluster scope, core group, no uid, groups or extra)',
    version: 'v1',
    attrs: resource({ user: { username: 'system:anonymous', groups: [] }, verb: 'list', namespace: '', apiGroup: '', resource: 'nodes', subresource: '', name: '' }),
    want: review('v1', '"resourceAttributes":{"verb":"list","version":"v1","resource":"nodes"},"user":"system:anonymous"'),
  },
  {
    name: 'selectors become requirements: sorted, = and in as In, != as NotIn, exists, !, gt dropped',
    version: 'v1',
    attrs: resource({ verb: 'list', name: '', subresource: '', resource: 'pods', apiGroup: '', labelSelector: 'tier!=db,app in (web,api),!legacy,env,count>3', fieldSelector: 'spec.nodeName=n1,metadata.name!=x' }),
    want: review(
      'v1',
      '"resourceAttributes":{"namespace":"default","verb":"list","version":"v1","resource":"pods",' +
        '"fieldSelector":{"requirements":[{"key":"metadata.name","operator":"NotIn","values":["x"]},{"key":"spec.nodeName","operator":"In","values":["n1"]}]},' +
        '"labelSelector":{"requirements":[{"key":"app","operator":"In","values":["api","web"]},{"key":"env","operator":"Exists"},{"key":"legacy","operator":"DoesNotExist"},{"key":"tier","operator":"NotIn","values":["db"]}]}},' +
        USER_V1,
    ),
  },
  {
    name: 'v1beta1 carries the selectors too',
    version: 'v1beta1',
    attrs: resource({ verb: 'list', name: '', subresource: '', fieldSelector: 'metadata.name=web' }),
    want: review('v1beta1', `"resourceAttributes":{"namespace":"default","verb":"list","group":"apps","version":"v1","resource":"deployments","fieldSelector":{"requirements":[{"key":"metadata.name","operator":"In","values":["web"]}]}},${USER_V1BETA1}`),
  },
  {
    name: 'a selector that does not parse adds nothing',
    version: 'v1',
    attrs: resource({ verb: 'list', name: '', subresource: '', labelSelector: 'a in (', fieldSelector: 'nonsense' }),
    want: review('v1', `"resourceAttributes":{"namespace":"default","verb":"list","group":"apps","version":"v1","resource":"deployments"},${USER_V1}`),
  },
  {
    name: 'HTML characters are escaped as Go escapes them; __proto__ is an ordinary extra key',
    version: 'v1',
    attrs: resource({ name: '<a&b>', user: { username: 'u\u2028', groups: [], extra: JSON.parse('{"__proto__":["p"]}') as Record<string, string[]> } }),
    want: review('v1', '"resourceAttributes":{"namespace":"default","verb":"get","group":"apps","version":"v1","resource":"deployments","subresource":"scale","name":"\\u003ca\\u0026b\\u003e"},"user":"u\\u2028","extra":{"__proto__":["p"]}'),
  },
];

describe('the SubjectAccessReview sent', () => {
  for (const c of cases) {
    test(c.name, async () => {
      const authorizer = createWebhookAuthorizer({ name: 'test', kubeconfig: server.kubeconfig(), subjectAccessReviewVersion: c.version, authorizedTtlMs: 0, unauthorizedTtlMs: 0 });
      try {
        server.requests.length = 0;
        await authorizer.authorize(c.attrs);
        expect(server.requests.map((r) => r.body)).toEqual([c.want]);
      } finally {
        authorizer.close();
      }
    });
  }
});

describe('how it is sent', () => {
  const cases: { name: string; kubeconfig: () => string; want: { path: string; authorization: string | undefined; clientCn: string } }[] = [
    { name: 'to the server URL path, with the client certificate', kubeconfig: () => server.kubeconfig({ path: '/authz/v1?cluster=a' }), want: { path: '/authz/v1?cluster=a', authorization: undefined, clientCn: 'kapi-apiserver' } },
    { name: 'with a bearer token and a CA file relative to the kubeconfig', kubeconfig: () => server.kubeconfig({ token: 'secret-token', withClientCert: false, inlineCa: false }), want: { path: '/authorize', authorization: 'Bearer secret-token', clientCn: '' } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const authorizer = createWebhookAuthorizer({ name: 'test', kubeconfig: c.kubeconfig(), subjectAccessReviewVersion: 'v1' });
      try {
        server.requests.length = 0;
        await authorizer.authorize(nonResource);
        const [got] = server.requests;
        expect({ method: got?.method, contentType: got?.contentType, path: got?.path, authorization: got?.authorization, clientCn: got?.clientCn }).toEqual({ method: 'POST', contentType: 'application/json', ...c.want });
      } finally {
        authorizer.close();
      }
    });
  }
});
