// --authorization-mode and --authorization-webhook-* as kube-apiserver turns them
// into an AuthorizationConfiguration (auth/authz/config/from-flags.ts), and the
// flags' webhook at work: v1beta1 by default, failing open.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuthorizationAttributes, AuthorizerMode } from '../../../../src/auth/authz/authorizer.js';
import type { AuthorizationConfiguration } from '../../../../src/auth/authz/config/authorization-config.js';
import { buildConfiguredAuthorizer } from '../../../../src/auth/authz/config/build.js';
import { authorizationConfigurationFromFlags, type AuthorizationFlags } from '../../../../src/auth/authz/config/from-flags.js';
import { startSarServer, type SarServer } from '../webhook/sar-server.js';

const webhook = (overrides: Partial<NonNullable<AuthorizationConfiguration['authorizers'][number]['webhook']>> = {}) => ({
  type: 'Webhook',
  name: 'default',
  webhook: {
    authorizedTTL: 300_000, cacheAuthorizedRequests: true, unauthorizedTTL: 30_000, cacheUnauthorizedRequests: true, timeout: 30_000, failurePolicy: 'NoOpinion',
    subjectAccessReviewVersion: 'v1beta1', matchConditionSubjectAccessReviewVersion: '', connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '/etc/authz.kubeconfig' }, matchConditions: [], ...overrides,
  },
});

describe('from the flags', () => {
  const cases: { name: string; flags: AuthorizationFlags; want: AuthorizationConfiguration | Error }[] = [
    {
      name: 'modes in order, named in lower case; the webhook "default" with kube\'s flag defaults',
      flags: { modes: ['Node', 'RBAC', 'Webhook'], webhookConfigFile: '/etc/authz.kubeconfig' },
      want: { authorizers: [{ type: 'Node', name: 'node' }, { type: 'RBAC', name: 'rbac' }, webhook()] },
    },
    {
      name: 'a TTL of 0 turns that cache off; the version flag is passed through',
      flags: { modes: ['Webhook'], webhookConfigFile: '/etc/authz.kubeconfig', webhookVersion: 'v1', webhookCacheAuthorizedTtlMs: 0, webhookCacheUnauthorizedTtlMs: 1000 },
      want: { authorizers: [webhook({ authorizedTTL: 0, cacheAuthorizedRequests: false, unauthorizedTTL: 1000, subjectAccessReviewVersion: 'v1' })] },
    },
    { name: 'a repeated mode', flags: { modes: ['RBAC', 'RBAC'] }, want: new Error('modes should not be repeated in --authorization-mode') },
  ];
  for (const c of cases) {
    test(c.name, () => {
      if (c.want instanceof Error) expect(() => authorizationConfigurationFromFlags(c.flags)).toThrow(c.want.message);
      else expect(authorizationConfigurationFromFlags(c.flags)).toEqual(c.want);
    });
  }
});

describe('the flags\' webhook at work', () => {
  let server: SarServer;
  beforeAll(async () => {
    server = await startSarServer();
  });
  afterAll(async () => server.close());

  const never: AuthorizerMode = { authorize: async () => ({ decision: 'NoOpinion', reason: '' }), rulesFor: async () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }) };
  const deps = { alwaysAllow: never, alwaysDeny: never, webhook: { sleep: async () => {} } };
  const attrs: AuthorizationAttributes = { user: { username: 'jane', groups: ['dev'] }, verb: 'get', isResourceRequest: false, path: '/healthz', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };

  test('sends v1beta1 by default and fails open with the error', async () => {
    server.script.push({ status: 404, body: '' });
    const authorizer = buildConfiguredAuthorizer(authorizationConfigurationFromFlags({ modes: ['Webhook'], webhookConfigFile: server.kubeconfig() }), deps);
    try {
      expect(await authorizer.authorize(attrs)).toEqual({ decision: 'NoOpinion', reason: '', error: 'the server could not find the requested resource' });
      expect(server.requests.map((r) => r.body)).toEqual([
        '{"kind":"SubjectAccessReview","apiVersion":"authorization.k8s.io/v1beta1","metadata":{},"spec":{"nonResourceAttributes":{"path":"/healthz","verb":"get"},"user":"jane","group":["dev"]},"status":{"allowed":false}}\n',
      ]);
    } finally {
      authorizer.close();
    }
  });

  test('an unsupported --authorization-webhook-version is refused in kube\'s words', () => {
    const config = authorizationConfigurationFromFlags({ modes: ['Webhook'], webhookConfigFile: server.kubeconfig(), webhookVersion: 'v2' });
    expect(() => buildConfiguredAuthorizer(config, deps)).toThrow('unsupported webhook authorizer version "v2", supported versions are "v1", "v1beta1"');
  });
});
