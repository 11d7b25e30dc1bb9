// One authorizer from a configuration (auth/authz/config/build.ts): members in
// file order, the first Allow or Deny deciding, reasons and errors of those that
// abstained kept, rules listed together; the server's own modes must have been
// started; webhooks built from their configuration (version, TTLs, caches,
// failure policy, match conditions) against a real webhook.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { AuthorizationAttributes, AuthorizationResult, AuthorizerMode, Decision, RulesResult } from '../../../../src/auth/authz/authorizer.js';
import { buildConfiguredAuthorizer, type ConfiguredAuthorizerDeps } from '../../../../src/auth/authz/config/build.js';
import { parseAuthorizationConfiguration } from '../../../../src/auth/authz/config/load.js';
import { allow, deny, startSarServer, type SarServer } from '../webhook/sar-server.js';

let server: SarServer;
beforeAll(async () => {
  server = await startSarServer();
});
afterAll(async () => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.script.length = 0;
  server.fallback = allow();
});

const EVERYTHING: RulesResult = { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false };
const NOTHING: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
const mode = (decision: Decision, reason: string, rules: RulesResult = NOTHING): AuthorizerMode => ({ authorize: async () => ({ decision, reason }), rulesFor: async () => rules });

const deps: ConfiguredAuthorizerDeps = {
  alwaysAllow: mode('Allow', '', EVERYTHING),
  alwaysDeny: mode('NoOpinion', 'Everything is forbidden.'),
  rbac: mode('NoOpinion', 'no RBAC binding', { resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], nonResourceRules: [], incomplete: false }),
  node: mode('NoOpinion', ''),
  webhook: { sleep: async () => {} },
};

const attrs: AuthorizationAttributes = { user: { username: 'jane', groups: [] }, verb: 'get', isResourceRequest: true, path: '', namespace: 'ns', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: 'p' };

type Json = Record<string, unknown>;
const webhook = (name: string, overrides: Json = {}): Json => ({
  type: 'Webhook',
  name,
  webhook: { timeout: '3s', subjectAccessReviewVersion: 'v1', failurePolicy: 'NoOpinion', connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: server.kubeconfig() }, ...overrides },
});
const configOf = (...authorizers: Json[]) => parseAuthorizationConfiguration(JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthorizationConfiguration', authorizers }));

describe('deciding', () => {
  const cases: { name: string; authorizers: () => Json[]; answers?: ReturnType<typeof allow>[]; want: AuthorizationResult; wantCalls: number }[] = [
    { name: 'nobody decides: NoOpinion, reasons joined in order', authorizers: () => [{ type: 'AlwaysDeny', name: 'alwaysdeny' }, { type: 'RBAC', name: 'rbac' }], want: { decision: 'NoOpinion', reason: 'Everything is forbidden.\nno RBAC binding' }, wantCalls: 0 },
    { name: 'the webhook after RBAC decides', authorizers: () => [{ type: 'RBAC', name: 'rbac' }, webhook('policy')], answers: [deny('not on weekends')], want: { decision: 'Deny', reason: 'not on weekends' }, wantCalls: 1 },
    { name: 'an Allow before the webhook spares the call', authorizers: () => [{ type: 'AlwaysAllow', name: 'alwaysallow' }, webhook('policy')], want: { decision: 'Allow', reason: '' }, wantCalls: 0 },
    { name: 'a webhook skipped by its match conditions passes on', authorizers: () => [webhook('policy', { matchConditionSubjectAccessReviewVersion: 'v1', matchConditions: [{ expression: "request.user == 'bob'" }] }), { type: 'AlwaysAllow', name: 'alwaysallow' }], want: { decision: 'Allow', reason: '' }, wantCalls: 0 },
    {
      name: 'a failing NoOpinion webhook passes on; its error stays with the final NoOpinion',
      authorizers: () => [webhook('policy'), { type: 'RBAC', name: 'rbac' }],
      answers: [{ status: 404, body: '' }],
      want: { decision: 'NoOpinion', reason: 'no RBAC binding', error: 'the server could not find the requested resource' },
      wantCalls: 1,
    },
    { name: 'a failing Deny webhook stops the chain', authorizers: () => [webhook('policy', { failurePolicy: 'Deny' }), { type: 'AlwaysAllow', name: 'alwaysallow' }], answers: [{ status: 404, body: '' }], want: { decision: 'Deny', reason: '', error: 'the server could not find the requested resource' }, wantCalls: 1 },
    { name: 'webhooks are asked in file order', authorizers: () => [webhook('first'), webhook('second')], answers: [{ body: '{"status":{"allowed":false,"reason":"first abstains"}}' }, allow('second allows')], want: { decision: 'Allow', reason: 'second allows' }, wantCalls: 2 },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      server.script.push(...(c.answers ?? []));
      const authorizer = buildConfiguredAuthorizer(configOf(...c.authorizers()), deps);
      try {
        expect({ result: await authorizer.authorize(attrs), calls: server.requests.length }).toEqual({ result: c.want, calls: c.wantCalls });
      } finally {
        authorizer.close();
      }
    });
  }
});

test('rules are listed together; the webhook makes them incomplete', async () => {
  const authorizer = buildConfiguredAuthorizer(configOf({ type: 'RBAC', name: 'rbac' }, webhook('policy'), { type: 'AlwaysAllow', name: 'alwaysallow' }), deps);
  try {
    expect(await authorizer.rulesFor({ username: 'jane', groups: [] }, 'ns')).toEqual({
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, ...EVERYTHING.resourceRules],
      nonResourceRules: EVERYTHING.nonResourceRules,
      incomplete: true,
      evaluationError: 'webhook authorizer does not support user rule resolution',
    });
  } finally {
    authorizer.close();
  }
});

describe('a webhook built from its configuration', () => {
  const cases: { name: string; overrides: Json; answers: ReturnType<typeof allow>[]; want: { decisions: Decision[]; calls: number; body?: string } }[] = [
    { name: 'allowed answers are cached by default', overrides: {}, answers: [allow(), deny()], want: { decisions: ['Allow', 'Allow'], calls: 1 } },
    { name: 'cacheAuthorizedRequests: false asks every time', overrides: { cacheAuthorizedRequests: false }, answers: [allow(), deny()], want: { decisions: ['Allow', 'Deny'], calls: 2 } },
    { name: 'cacheUnauthorizedRequests: false asks every time', overrides: { cacheUnauthorizedRequests: false }, answers: [deny(), allow()], want: { decisions: ['Deny', 'Allow'], calls: 2 } },
    { name: 'subjectAccessReviewVersion v1beta1 is what is sent', overrides: { subjectAccessReviewVersion: 'v1beta1' }, answers: [allow()], want: { decisions: ['Allow', 'Allow'], calls: 1, body: 'authorization.k8s.io/v1beta1' } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      server.script.push(...c.answers);
      const authorizer = buildConfiguredAuthorizer(configOf(webhook('policy', c.overrides)), deps);
      try {
        const decisions = [(await authorizer.authorize(attrs)).decision, (await authorizer.authorize(attrs)).decision];
        expect({ decisions, calls: server.requests.length }).toEqual({ decisions: c.want.decisions, calls: c.want.calls });
        if (c.want.body !== undefined) expect(server.requests[0]?.body).toContain(c.want.body);
      } finally {
        authorizer.close();
      }
    });
  }
});

/** A kubeconfig file that names nothing (an empty YAML document). */
function emptyKubeconfig(): string {
  const file = server.kubeconfig();
  writeFileSync(file, '{}');
  return file;
}

describe('refusals', () => {
  const cases: { name: string; authorizers: () => Json[]; deps?: Partial<ConfiguredAuthorizerDeps>; want: string }[] = [
    { name: 'RBAC the server did not start with', authorizers: () => [{ type: 'RBAC', name: 'rbac' }], deps: { rbac: undefined }, want: 'authorizer type RBAC is not allowed if it was not enabled at initial server startup' },
    { name: 'Node the server did not start with', authorizers: () => [{ type: 'Node', name: 'node' }], deps: { node: undefined }, want: 'authorizer type Node is not allowed if it was not enabled at initial server startup' },
    { name: 'ABAC, which kapi never starts', authorizers: () => [{ type: 'ABAC', name: 'abac' }], want: 'authorizer type ABAC is not allowed if it was not enabled at initial server startup' },
    {
      name: 'a webhook whose kubeconfig cannot be used',
      authorizers: () => [webhook('w', { connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: emptyKubeconfig() } })],
      want: 'invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable',
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(() => buildConfiguredAuthorizer(configOf(...c.authorizers()), { ...deps, ...c.deps })).toThrow(c.want);
    });
  }
});
