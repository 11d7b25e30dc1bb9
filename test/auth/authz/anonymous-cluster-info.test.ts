// The one object anonymous requests may read (auth/authz/anonymous-policy.ts):
// get of configmaps/cluster-info in kube-public, as kubeadm's
// `kubeadm:bootstrap-signer-clusterinfo` Role bound to system:anonymous grants —
// and nothing next to it.
import { describe, expect, test } from 'vitest';
import type { AuthorizationAttributes } from '../../../src/auth/authz/authorizer.js';
import { createAuthorizer } from '../../../src/auth/authz/create.js';

const anonymous = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

function attrs(over: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
  return {
    user: anonymous,
    verb: 'get',
    isResourceRequest: true,
    path: '/api/v1/namespaces/kube-public/configmaps/cluster-info',
    namespace: 'kube-public',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'configmaps',
    subresource: '',
    name: 'cluster-info',
    ...over,
  };
}

describe('AlwaysAllow', () => {
  const authorize = createAuthorizer({ modes: ['AlwaysAllow'] }).authorize;
  const cases: { name: string; attrs: AuthorizationAttributes; want: string }[] = [
    { name: 'get cluster-info', attrs: attrs(), want: 'Allow' },
    { name: 'list configmaps in kube-public', attrs: attrs({ verb: 'list', name: '' }), want: 'Deny' },
    { name: 'watch cluster-info', attrs: attrs({ verb: 'watch' }), want: 'Deny' },
    { name: 'update cluster-info', attrs: attrs({ verb: 'update' }), want: 'Deny' },
    { name: 'delete cluster-info', attrs: attrs({ verb: 'delete' }), want: 'Deny' },
    { name: 'another configmap in kube-public', attrs: attrs({ name: 'kube-root-ca.crt' }), want: 'Deny' },
    { name: 'cluster-info in another namespace', attrs: attrs({ namespace: 'kube-system' }), want: 'Deny' },
    { name: 'a secret named cluster-info', attrs: attrs({ resource: 'secrets' }), want: 'Deny' },
    { name: 'another group\'s configmaps', attrs: attrs({ apiGroup: 'example.com' }), want: 'Deny' },
    { name: 'a subresource of it', attrs: attrs({ subresource: 'status' }), want: 'Deny' },
    { name: 'the group without the user (impersonated)', attrs: attrs({ user: { username: 'mallory', groups: ['system:unauthenticated'] } }), want: 'Deny' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      expect((await authorize(c.attrs)).decision).toBe(c.want);
    });
  }
});

test('AlwaysDeny: cluster-info is not granted by the policy, only not refused by it', async () => {
  expect((await createAuthorizer({ modes: ['AlwaysDeny'] }).authorize(attrs())).decision).not.toBe('Allow');
});
