// What a webhook's answer means (auth/authz/webhook/webhook.ts): allowed is Allow,
// denied is Deny, neither is NoOpinion, both is Deny with an error, a body that
// does not decode is a failure; and how long an answer is reused: the
// authorized TTL for allowed answers, the unauthorized TTL for the rest, keyed
// by the whole request, on an injected clock.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { AuthorizationAttributes, AuthorizationResult } from '../../../../src/auth/authz/authorizer.js';
import { createWebhookAuthorizer, type WebhookAuthorizerOptions } from '../../../../src/auth/authz/webhook/webhook.js';
import { allow, deny, noOpinion, startSarServer, type Answer, type SarServer } from './sar-server.js';

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

const attrs = (overrides: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: { username: 'jane', groups: ['dev'] }, verb: 'get', isResourceRequest: true, path: '', namespace: 'default', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: 'p', ...overrides,
});

async function decide(answer: Answer, opts: Partial<WebhookAuthorizerOptions> = {}): Promise<AuthorizationResult> {
  server.script.push(answer);
  const authorizer = createWebhookAuthorizer({ name: 'test', kubeconfig: server.kubeconfig(), subjectAccessReviewVersion: 'v1', sleep: async () => {}, ...opts });
  try {
    return await authorizer.authorize(attrs());
  } finally {
    authorizer.close();
  }
}

const body = (status: unknown, extra: Record<string, unknown> = {}): Answer => ({ body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status, ...extra }) });

describe('the decision', () => {
  const cases: { name: string; answer: Answer; opts?: Partial<WebhookAuthorizerOptions>; want: AuthorizationResult }[] = [
    { name: 'allowed is Allow, with the reason', answer: allow('bob may'), want: { decision: 'Allow', reason: 'bob may' } },
    { name: 'denied is Deny, with the reason', answer: deny('never'), want: { decision: 'Deny', reason: 'never' } },
    { name: 'neither is NoOpinion, with the reason', answer: noOpinion('not mine'), want: { decision: 'NoOpinion', reason: 'not mine' } },
    { name: 'both is Deny, with kube\'s error', answer: body({ allowed: true, denied: true, reason: 'confused' }), want: { decision: 'Deny', reason: 'confused', error: 'webhook subject access review returned both allow and deny response' } },
    { name: 'a v1beta1 answer reads the same', answer: { body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1beta1', kind: 'SubjectAccessReview', status: { allowed: true } }) }, opts: { subjectAccessReviewVersion: 'v1beta1' }, want: { decision: 'Allow', reason: '' } },
    { name: 'an answer without status is NoOpinion', answer: { body: '{}' }, want: { decision: 'NoOpinion', reason: '' } },
    { name: 'evaluationError alone does not decide', answer: body({ allowed: false, evaluationError: 'partial' }), want: { decision: 'NoOpinion', reason: '' } },
    {
      name: 'a body that is not JSON fails (NoOpinion by default)',
      answer: { body: 'not json' },
      want: { decision: 'NoOpinion', reason: '', error: "couldn't get version/kind; json parse error: the response body is not JSON" },
    },
    {
      name: 'a status field of the wrong type fails as Go\'s decoder fails, Deny under failurePolicy Deny',
      answer: body({ allowed: 'yes' }),
      opts: { failurePolicy: 'Deny' },
      want: { decision: 'Deny', reason: '', error: 'json: cannot unmarshal string into Go struct field SubjectAccessReviewStatus.status.allowed of type bool' },
    },
    { name: 'a 200 carrying a failed Status is an error', answer: { body: JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'quota exceeded', reason: 'Forbidden', code: 403 }) }, want: { decision: 'NoOpinion', reason: '', error: 'quota exceeded' } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      expect(await decide(c.answer, c.opts)).toEqual(c.want);
    });
  }
});

describe('the cache', () => {
  const MIN = 60_000;
  type Step = { readonly at: number; readonly attrs?: Partial<AuthorizationAttributes>; readonly want: 'Allow' | 'Deny' | 'NoOpinion' };
  const cases: { name: string; opts?: Partial<WebhookAuthorizerOptions>; answers: Answer[]; steps: Step[]; wantCalls: number }[] = [
    {
      name: 'an allowed answer is reused up to the authorized TTL (default 5m), then asked again',
      answers: [allow(), noOpinion()],
      steps: [{ at: 0, want: 'Allow' }, { at: 5 * MIN, want: 'Allow' }, { at: 5 * MIN + 1, want: 'NoOpinion' }],
      wantCalls: 2,
    },
    {
      name: 'a denied answer is reused up to the unauthorized TTL (default 30s)',
      answers: [deny(), allow()],
      steps: [{ at: 0, want: 'Deny' }, { at: 30_000, want: 'Deny' }, { at: 30_001, want: 'Allow' }],
      wantCalls: 2,
    },
    {
      name: 'a NoOpinion answer counts as unauthorized',
      opts: { unauthorizedTtlMs: 1000 },
      answers: [noOpinion(), allow()],
      steps: [{ at: 0, want: 'NoOpinion' }, { at: 1000, want: 'NoOpinion' }, { at: 1001, want: 'Allow' }],
      wantCalls: 2,
    },
    {
      name: 'a TTL of 0 caches nothing',
      opts: { authorizedTtlMs: 0 },
      answers: [allow(), deny()],
      steps: [{ at: 0, want: 'Allow' }, { at: 0, want: 'Deny' }],
      wantCalls: 2,
    },
    {
      name: 'the key is the whole request: another verb is asked',
      answers: [allow(), deny()],
      steps: [{ at: 0, want: 'Allow' }, { at: 0, attrs: { verb: 'delete' }, want: 'Deny' }, { at: 1, want: 'Allow' }],
      wantCalls: 2,
    },
    {
      name: 'the key is the whole request: another group of the same user is asked',
      answers: [allow(), deny()],
      steps: [{ at: 0, want: 'Allow' }, { at: 0, attrs: { user: { username: 'jane', groups: ['ops'] } }, want: 'Deny' }],
      wantCalls: 2,
    },
    {
      name: 'failures are not cached',
      answers: [{ status: 403, body: 'no' }, allow()],
      steps: [{ at: 0, want: 'NoOpinion' }, { at: 0, want: 'Allow' }],
      wantCalls: 2,
    },
    {
      name: 'requester-controlled attributes of 10000 bytes or more are never cached',
      answers: [allow(), deny()],
      steps: [{ at: 0, attrs: { name: 'n'.repeat(9_990) }, want: 'Allow' }, { at: 0, attrs: { name: 'n'.repeat(9_990) }, want: 'Deny' }],
      wantCalls: 2,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      server.script.push(...c.answers);
      let now = Date.parse('2030-01-01T00:00:00Z');
      const start = now;
      const authorizer = createWebhookAuthorizer({ name: 'test', kubeconfig: server.kubeconfig(), subjectAccessReviewVersion: 'v1', clock: () => new Date(now), sleep: async () => {}, ...c.opts });
      try {
        const got: string[] = [];
        for (const step of c.steps) {
          now = start + step.at;
          got.push((await authorizer.authorize(attrs(step.attrs))).decision);
        }
        expect({ decisions: got, calls: server.requests.length }).toEqual({ decisions: c.steps.map((s) => s.want), calls: c.wantCalls });
      } finally {
        authorizer.close();
      }
    });
  }
});

test('rulesFor cannot list: no rules, incomplete, kube\'s error', async () => {
  const authorizer = createWebhookAuthorizer({ name: 'test', kubeconfig: server.kubeconfig(), subjectAccessReviewVersion: 'v1' });
  try {
    expect(await authorizer.rulesFor({ username: 'jane', groups: [] }, 'default')).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'webhook authorizer does not support user rule resolution',
    });
    expect(server.requests).toEqual([]);
  } finally {
    authorizer.close();
  }
});
