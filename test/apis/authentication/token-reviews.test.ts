// TokenReview asks the server's authenticator (here a stand-in that knows one
// token) and answers kube's status: authenticated, user, audiences, error.
import { describe, expect, test } from 'vitest';
import { tokenReviews } from '../../../src/apis/authentication/v1/token-reviews.js';
import { authenticationV1 } from '../../../src/apis/authentication/v1/index.js';
import { AuthenticationError, type Authenticator } from '../../../src/auth/authn/authenticator.js';
import type { KubeObject } from '../../../src/schema/object.js';

const API_AUDIENCES = ['https://kubernetes.default.svc.cluster.local'];
const user = { username: 'admin', groups: ['system:masters'] };

const authenticator: Authenticator = async (req) => {
  const header = req.headers['authorization'];
  if (header === 'Bearer good') return { user: { username: 'system:serviceaccount:ns:sa', uid: 'u1', groups: ['system:serviceaccounts', 'system:authenticated'], extra: { k: ['v'] } } };
  if (header === 'Bearer expired') throw new AuthenticationError('token has expired');
  return undefined;
};

const def = tokenReviews({ authenticator, apiAudiences: API_AUDIENCES });
const review = (spec: Record<string, unknown>, namespace?: string): Promise<KubeObject> =>
  Promise.resolve(def.virtualCreate!({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec }, { user, namespace, dryRun: false }));

describe('TokenReview', () => {
  const cases = [
    {
      name: 'a valid token: the user and the API audiences',
      spec: { token: 'good' },
      want: {
        authenticated: true,
        user: { username: 'system:serviceaccount:ns:sa', uid: 'u1', groups: ['system:serviceaccounts', 'system:authenticated'], extra: { k: ['v'] } },
        audiences: API_AUDIENCES,
      },
    },
    { name: 'spec.audiences naming the API audience', spec: { token: 'good', audiences: ['other', API_AUDIENCES[0]] }, want: { authenticated: true, audiences: API_AUDIENCES } },
    // kube's audience-agnostic wrapper abstains, and its bearer-token authenticator names the token invalid.
    { name: 'spec.audiences the token is not for: not authenticated', spec: { token: 'good', audiences: ['vault'] }, want: { user: {}, error: 'invalid bearer token' } },
    { name: 'an unknown token: not authenticated, no error', spec: { token: 'nope' }, want: { user: {} } },
    { name: 'a rejected token: the authenticator error', spec: { token: 'expired' }, want: { user: {}, error: 'token has expired' } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const out = await review(c.spec);
      expect(out).toMatchObject({ kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', spec: c.spec });
      expect(out.status).toEqual(c.want.authenticated === true ? expect.objectContaining(c.want) : c.want);
    });
  }

  const refused = [
    { name: 'no token', spec: {}, namespace: undefined, message: 'token is required for TokenReview in authentication' },
    { name: 'a namespace', spec: { token: 'good' }, namespace: 'ns', message: 'namespace is not allowed on this type: ns' },
  ];
  for (const c of refused) {
    test(`${c.name} is a 400`, async () => {
      await expect(review(c.spec, c.namespace)).rejects.toMatchObject({ code: 400, reason: 'BadRequest', message: c.message });
    });
  }

  test('served only with an authenticator', () => {
    expect(authenticationV1().map((d) => d.plural)).toEqual(['selfsubjectreviews']);
    expect(authenticationV1({ authenticator, apiAudiences: API_AUDIENCES }).map((d) => d.plural)).toEqual(['selfsubjectreviews', 'tokenreviews']);
  });
});
