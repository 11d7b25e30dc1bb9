// TokenReview over the server's real service-account authenticator: a token
// signed for a stored ServiceAccount is accepted with the account's user and the
// API audiences; a token for another audience, a deleted account or a tampered
// signature is not (the authenticator's error is the review's status.error).
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tokenReviews } from '../../../src/apis/authentication/v1/token-reviews.js';
import { serviceAccounts } from '../../../src/apis/core/v1/service-accounts.js';
import { createServiceAccountAuthenticator } from '../../../src/auth/authn/service-account.js';
import { withAuthenticatedGroup } from '../../../src/auth/authn/union.js';
import { createTokenKeys, type TokenKeys } from '../../../src/auth/serviceaccount/tokens.js';
import { isStatusError } from '../../../src/errors/status-error.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { NOW } from '../../endpoints/harness.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
let h: StoreHarness;
let keys: TokenKeys;
let review: (spec: Record<string, unknown>) => Promise<KubeObject>;

beforeAll(async () => {
  h = await createStoreHarness();
  keys = createTokenKeys({ issuer: ISSUER, signingKeyPem: generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
  const authenticator = withAuthenticatedGroup(
    createServiceAccountAuthenticator({
      keys,
      clock: () => NOW,
      lookup: async (resource, namespace, name) => {
        try {
          return await h.registry.store({ group: '', version: 'v1', resource }).get({ namespace, name });
        } catch (err) {
          if (isStatusError(err) && err.reason === 'NotFound') return undefined;
          throw err;
        }
      },
    }),
  );
  const def = tokenReviews({ authenticator, apiAudiences: keys.apiAudiences });
  review = async (spec) => def.virtualCreate!({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec }, { user: { username: 'admin', groups: [] }, namespace: undefined, dryRun: false });
});
afterAll(() => h.close());

async function tokenFor(name: string, audiences: readonly string[] = keys.apiAudiences): Promise<string> {
  const sa = (await h.create(serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'ns' } })).stored!;
  return keys.issue({ claims: { namespace: 'ns', serviceaccount: { name, uid: sa.metadata.uid ?? '' } }, audiences, now: NOW, expirationSeconds: 3600, jti: randomUUID() });
}

describe('TokenReview with service-account tokens', () => {
  test('a valid token: the account, its groups, the API audiences', async () => {
    const token = await tokenFor('robot');
    const out = await review({ token });
    expect(out.status).toMatchObject({
      authenticated: true,
      user: { username: 'system:serviceaccount:ns:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated'], extra: { 'authentication.kubernetes.io/credential-id': [expect.stringMatching(/^JTI=/)] } },
      audiences: [ISSUER],
    });
  });

  test('a token of another audience: not authenticated, with kube\'s reason', async () => {
    const out = await review({ token: await tokenFor('vault-user', ['vault']) });
    expect(out.status).toEqual({ user: {}, error: `token audiences ["vault"] is invalid for the target audiences ["${ISSUER}"]` });
  });

  test('a review asking for the audience the token was made for: authenticated for that audience', async () => {
    const out = await review({ token: await tokenFor('vault-client', ['vault', 'other']), audiences: ['vault', 'x'] });
    expect(out.status).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:ns:vault-client' }, audiences: ['vault'] });
  });

  test('asking for an audience the token is not for: not authenticated, kube\'s reason', async () => {
    const out = await review({ token: await tokenFor('other'), audiences: ['vault'] });
    expect(out.status).toEqual({ user: {}, error: `token audiences ["${ISSUER}"] is invalid for the target audiences ["vault"]` });
  });

  test('a deleted account: not authenticated, kube\'s reason', async () => {
    const token = await tokenFor('gone');
    await h.registry.store(serviceAccounts).delete({ namespace: 'ns', name: 'gone' });
    const out = await review({ token });
    expect(out.status).toEqual({ user: {}, error: 'serviceaccounts "gone" not found' });
  });

  test('a tampered signature: not authenticated, with an error', async () => {
    const token = await tokenFor('tampered');
    const out = await review({ token: `${token.slice(0, -4)}AAAA` });
    expect(out.status).toEqual({ user: {}, error: expect.any(String) });
  });
});
