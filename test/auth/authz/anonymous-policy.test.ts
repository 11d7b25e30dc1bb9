// The anonymous policy (auth/authz/anonymous-policy.ts) inside the authorizer
// kapi builds: system:anonymous reaches the public paths when the mode allows,
// and nothing else whatever the mode.
import { describe, expect, test } from 'vitest';
import type { AuthorizationAttributes } from '../../../src/auth/authz/authorizer.js';
import { createAuthorizer } from '../../../src/auth/authz/create.js';

const anonymous = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
const bob = { username: 'bob', groups: ['system:authenticated'] };

function path(p: string, user = anonymous, verb = 'get'): AuthorizationAttributes {
  return { user, verb, isResourceRequest: false, path: p, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

function resource(user = anonymous): AuthorizationAttributes {
  return { user, verb: 'list', isResourceRequest: true, path: '/api/v1/namespaces', namespace: '', apiGroup: '', apiVersion: 'v1', resource: 'namespaces', subresource: '', name: '' };
}

describe('AlwaysAllow', () => {
  const authorize = createAuthorizer({ modes: ['AlwaysAllow'] }).authorize;

  test.each(['/healthz', '/healthz/ping', '/livez', '/readyz', '/version', '/version/', '/api', '/api/v1', '/apis', '/apis/apps/v1', '/openapi/v2', '/openapi/v3/apis/apps/v1', '/.well-known/openid-configuration', '/openid/v1/jwks'])(
    'anonymous may get %s',
    async (p) => {
      expect((await authorize(path(p))).decision).toBe('Allow');
    },
  );

  test.each(['/metrics', '/logs', '/debug/pprof', '/versions', '/healthzx', '/openid/v1/jwks/x'])('anonymous may not get %s', async (p) => {
    expect((await authorize(path(p))).decision).toBe('Deny');
  });

  test('anonymous may not use another verb on a public path, nor any resource', async () => {
    expect((await authorize(path('/version', anonymous, 'post'))).decision).toBe('Deny');
    expect((await authorize(resource())).decision).toBe('Deny');
  });

  test('authenticated users are not held to the list', async () => {
    expect((await authorize(path('/metrics', bob))).decision).toBe('Allow');
    expect((await authorize(resource(bob))).decision).toBe('Allow');
  });
});

test('AlwaysDeny: the public paths are not granted by the policy, only not refused by it', async () => {
  const authorize = createAuthorizer({ modes: ['AlwaysDeny'] }).authorize;
  expect((await authorize(path('/version'))).decision).not.toBe('Allow');
});
