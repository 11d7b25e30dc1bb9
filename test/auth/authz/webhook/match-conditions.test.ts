// A webhook's matchConditions (auth/authz/webhook/match-conditions.ts): which
// expressions compile and kube's messages for those that do not; then, through
// the authorizer, that all-true calls the webhook, any false skips it without a
// call (even after an error), and an error answers with the failure policy.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { AuthorizationAttributes, AuthorizationResult } from '../../../../src/auth/authz/authorizer.js';
import { compileMatchConditions } from '../../../../src/auth/authz/webhook/match-conditions.js';
import { createWebhookAuthorizer, type FailurePolicy } from '../../../../src/auth/authz/webhook/webhook.js';
import { path } from '../../../../src/schema/field-errors.js';
import { allow, startSarServer, type SarServer } from './sar-server.js';

describe('compiling', () => {
  const at = path('authorizers').index(0);
  const cases: { name: string; expressions: string[]; wantErrors: string[]; wantPrograms?: number }[] = [
    {
      name: 'every field of the request, the reserved word namespace included',
      expressions: [
        "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'default'",
        "has(request.nonResourceAttributes) && request.nonResourceAttributes.path.startsWith('/healthz')",
        "request.user == 'jane' && 'dev' in request.groups && request.uid != 'x'",
        "request.extra.exists(k, k == 'scopes') || true",
        "!has(request.resourceAttributes.labelSelector) || request.resourceAttributes.labelSelector.requirements.all(r, r.operator in ['In', 'Exists'])",
        "!has(request.resourceAttributes.fieldSelector) || request.resourceAttributes.fieldSelector.requirements.exists(r, r.key == 'spec.nodeName')",
      ],
      wantErrors: [],
      wantPrograms: 6,
    },
    { name: 'a blank expression is required', expressions: ['  '], wantErrors: ['authorizers[0].matchConditions[0].expression: Required value'] },
    {
      name: 'an expression twice is a duplicate',
      expressions: ["request.user == 'a'", "request.user == 'a'"],
      wantErrors: ['authorizers[0].matchConditions[1].expression: Duplicate value: "request.user == \'a\'"'],
      wantPrograms: 1,
    },
    { name: 'a result that is not bool', expressions: ['request.user'], wantErrors: ['authorizers[0].matchConditions[0].expression: Invalid value: "request.user": must evaluate to bool but got string'] },
    { name: 'a field the request does not have', expressions: ['request.verb == "get"'], wantErrors: ['authorizers[0].matchConditions[0].expression: Invalid value: "request.verb == \\"get\\"": compilation failed: No such key: verb (at 1:9)'] },
    { name: 'more than 64 conditions', expressions: Array.from({ length: 65 }, (_, i) => `request.user == '${i}'`), wantErrors: ['authorizers[0].matchConditions: Too many: 65: must have at most 64 items'] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const { programs, errors } = compileMatchConditions(c.expressions, at);
      expect({ errors: errors.map((e) => e.message), programs: programs.length }).toEqual({ errors: c.wantErrors, programs: c.wantPrograms ?? 0 });
    });
  }

  test('a syntax error is a compilation failure', () => {
    const { errors } = compileMatchConditions(['request.user =='], at);
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^authorizers\[0\]\.matchConditions\[0\]\.expression: Invalid value: "request.user ==": compilation failed: /)]);
  });

  test('createWebhookAuthorizer refuses what does not compile, with kube\'s root path', () => {
    expect(() => createWebhookAuthorizer({ name: 'x', kubeconfig: { server: 'https://127.0.0.1:1', insecureSkipTlsVerify: true }, subjectAccessReviewVersion: 'v1', matchConditions: ['request.user'] })).toThrow(
      'matchConditions[0].expression: Invalid value: "request.user": must evaluate to bool but got string',
    );
  });
});

describe('deciding whether to call', () => {
  let server: SarServer;
  beforeAll(async () => {
    server = await startSarServer();
  });
  afterAll(async () => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    server.fallback = allow();
  });

  const pods: AuthorizationAttributes = {
    user: { username: 'jane', uid: 'u-1', groups: ['dev'], extra: { scopes: ['read'] } },
    verb: 'list', isResourceRequest: true, path: '', namespace: 'default', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: '', labelSelector: 'app=web',
  };
  const healthz: AuthorizationAttributes = { ...pods, isResourceRequest: false, path: '/healthz', verb: 'get', namespace: '', resource: '', apiVersion: '', labelSelector: undefined };
  const NO_RESOURCE = "cel evaluation error: expression 'request.resourceAttributes.verb == \"list\"' resulted in error: No such key: resourceAttributes";

  const cases: { name: string; conditions: string[]; attrs: AuthorizationAttributes; policy?: FailurePolicy; want: AuthorizationResult; wantCalls: number }[] = [
    {
      name: 'all true: the webhook is asked',
      conditions: ["request.resourceAttributes.namespace == 'default'", "request.extra['scopes'][0] == 'read'", "request.resourceAttributes.labelSelector.requirements.exists(r, r.key == 'app' && r.values == ['web'])"],
      attrs: pods,
      want: { decision: 'Allow', reason: '' },
      wantCalls: 1,
    },
    { name: 'one false: NoOpinion, no call', conditions: ["'dev' in request.groups", "request.user == 'bob'"], attrs: pods, want: { decision: 'NoOpinion', reason: '' }, wantCalls: 0 },
    { name: 'an error under NoOpinion: NoOpinion with the error, no call', conditions: ['request.resourceAttributes.verb == "list"'], attrs: healthz, want: { decision: 'NoOpinion', reason: '', error: NO_RESOURCE }, wantCalls: 0 },
    { name: 'an error under Deny: Deny with the error, no call', conditions: ['request.resourceAttributes.verb == "list"'], attrs: healthz, policy: 'Deny', want: { decision: 'Deny', reason: '', error: NO_RESOURCE }, wantCalls: 0 },
    { name: 'a false after an error wins: NoOpinion without error', conditions: ['request.resourceAttributes.verb == "list"', "request.nonResourceAttributes.path == '/livez'"], attrs: healthz, policy: 'Deny', want: { decision: 'NoOpinion', reason: '' }, wantCalls: 0 },
    {
      name: 'two errors are aggregated in brackets',
      conditions: ['request.resourceAttributes.verb == "list"', 'request.resourceAttributes.name == ""'],
      attrs: healthz,
      want: { decision: 'NoOpinion', reason: '', error: `[${NO_RESOURCE}, cel evaluation error: expression 'request.resourceAttributes.name == ""' resulted in error: No such key: resourceAttributes]` },
      wantCalls: 0,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const authorizer = createWebhookAuthorizer({ name: 'test', kubeconfig: server.kubeconfig(), subjectAccessReviewVersion: 'v1', matchConditions: c.conditions, failurePolicy: c.policy ?? 'NoOpinion' });
      try {
        expect({ result: await authorizer.authorize(c.attrs), calls: server.requests.length }).toEqual({ result: c.want, calls: c.wantCalls });
      } finally {
        authorizer.close();
      }
    });
  }
});
