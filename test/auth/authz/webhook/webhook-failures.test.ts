// When the webhook fails (auth/authz/webhook/webhook.ts, errors.ts, backoff.ts):
// which failures are retried with kube's backoff (5xx but 503, 504, 429,
// Retry-After, a reset connection) and how long each wait is, which fail at
// once, the per-call timeout, the failure policy's answer, and the metrics.
import { createServer } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { AuthorizationAttributes, AuthorizationResult } from '../../../../src/auth/authz/authorizer.js';
import { promWebhookMetrics, type WebhookMetrics } from '../../../../src/auth/authz/webhook/metrics.js';
import { createWebhookAuthorizer, type WebhookAuthorizerOptions } from '../../../../src/auth/authz/webhook/webhook.js';
import { allow, startSarServer, type Answer, type SarServer } from './sar-server.js';

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

const attrs: AuthorizationAttributes = { user: { username: 'jane', groups: [] }, verb: 'get', isResourceRequest: false, path: '/metrics', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
const fail500: Answer = { status: 500, body: '{"oops":true}' };
const INTERNAL = 'an error on the server ("unknown") has prevented the request from succeeding';

/** kube's DefaultRetryBackoff waits with wait.Jitter's random fixed at 0.5: d * (1 + 0.5 * 0.2). */
const WAITS = [550, 825, 1237.5, 1856.25];

interface Run {
  result: AuthorizationResult;
  calls: number;
  waits: number[];
  evaluations: string[];
  failOpen: string[];
}

async function run(answers: Answer[], opts: Partial<WebhookAuthorizerOptions> = {}, kubeconfig = server.kubeconfig()): Promise<Run> {
  server.script.push(...answers);
  const waits: number[] = [];
  const evaluations: string[] = [];
  const failOpen: string[] = [];
  const metrics: WebhookMetrics = {
    webhookEvaluation: (name, result) => evaluations.push(`${name}:${result}`),
    webhookFailOpen: (name, result) => failOpen.push(`${name}:${result}`),
    matchConditionEvaluation: () => {},
    matchConditionError: () => {},
    matchConditionExclusion: () => {},
  };
  const authorizer = createWebhookAuthorizer({ name: 'wh', kubeconfig, subjectAccessReviewVersion: 'v1', sleep: async (ms) => void waits.push(ms), random: () => 0.5, metrics, ...opts });
  try {
    const result = await authorizer.authorize(attrs);
    return { result, calls: server.requests.length, waits, evaluations, failOpen };
  } finally {
    authorizer.close();
  }
}

describe('retries', () => {
  const cases: { name: string; answers: Answer[]; want: { result: AuthorizationResult; calls: number; waits: number[] } }[] = [
    { name: '500 twice, then an answer: three calls, two waits', answers: [fail500, fail500, allow()], want: { result: { decision: 'Allow', reason: '' }, calls: 3, waits: WAITS.slice(0, 2) } },
    { name: '500 every time: five calls, then the error', answers: [fail500, fail500, fail500, fail500, fail500], want: { result: { decision: 'NoOpinion', reason: '', error: INTERNAL }, calls: 5, waits: WAITS } },
    { name: 'a text body is quoted in the 5xx error', answers: Array(5).fill({ status: 502, body: ' bad gateway \n', headers: { 'content-type': 'text/plain' } }), want: { result: { decision: 'NoOpinion', reason: '', error: 'an error on the server ("bad gateway") has prevented the request from succeeding' }, calls: 5, waits: WAITS } },
    { name: '504 is retried', answers: [{ status: 504, body: '' }, allow()], want: { result: { decision: 'Allow', reason: '' }, calls: 2, waits: WAITS.slice(0, 1) } },
    { name: '429 is retried', answers: [{ status: 429, body: '' }, allow()], want: { result: { decision: 'Allow', reason: '' }, calls: 2, waits: WAITS.slice(0, 1) } },
    { name: '503 with Retry-After is retried', answers: [{ status: 503, body: '', headers: { 'retry-after': '1' } }, allow()], want: { result: { decision: 'Allow', reason: '' }, calls: 2, waits: WAITS.slice(0, 1) } },
    { name: 'a reset connection is retried', answers: ['reset', allow()], want: { result: { decision: 'Allow', reason: '' }, calls: 2, waits: WAITS.slice(0, 1) } },
    {
      name: 'a Status body speaks for itself (InternalError: retried)',
      answers: [{ status: 500, body: JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'InternalError', message: 'backend down', code: 500 }) }, allow()],
      want: { result: { decision: 'Allow', reason: '' }, calls: 2, waits: WAITS.slice(0, 1) },
    },
    { name: '503 without Retry-After fails at once', answers: [{ status: 503, body: '' }], want: { result: { decision: 'NoOpinion', reason: '', error: 'the server is currently unable to handle the request' }, calls: 1, waits: [] } },
    { name: '403 fails at once with the server\'s text', answers: [{ status: 403, body: 'go away', headers: { 'content-type': 'text/plain' } }], want: { result: { decision: 'NoOpinion', reason: '', error: 'go away' }, calls: 1, waits: [] } },
    { name: '404 fails at once', answers: [{ status: 404, body: '' }], want: { result: { decision: 'NoOpinion', reason: '', error: 'the server could not find the requested resource' }, calls: 1, waits: [] } },
    { name: 'a body cut off fails at once, in client-go\'s words', answers: ['partial'], want: { result: { decision: 'NoOpinion', reason: '', error: 'unexpected error when reading response body. Please retry. Original error: unexpected EOF' }, calls: 1, waits: [] } },
    { name: 'a connection closed without an answer (Go\'s EOF) fails at once', answers: ['close'], want: { result: { decision: 'NoOpinion', reason: '', error: 'Post "<server>/authorize": EOF' }, calls: 1, waits: [] } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const got = await run(c.answers);
      // The server's URL is known only once it runs.
      const error = c.want.result.error?.replace('<server>', server.url);
      expect({ result: got.result, calls: got.calls, waits: got.waits }).toEqual({ ...c.want, result: { ...c.want.result, ...(error === undefined ? {} : { error }) } });
    });
  }
});

describe('failure policy', () => {
  const cases: { name: string; opts: Partial<WebhookAuthorizerOptions>; want: Omit<Run, 'waits' | 'calls'> }[] = [
    { name: 'NoOpinion (the flags\' default) lets the next authorizer decide and counts a fail-open', opts: {}, want: { result: { decision: 'NoOpinion', reason: '', error: INTERNAL }, evaluations: Array(5).fill('wh:error'), failOpen: ['wh:error'] } },
    { name: 'Deny stops the chain; no fail-open is counted', opts: { failurePolicy: 'Deny' }, want: { result: { decision: 'Deny', reason: '', error: INTERNAL }, evaluations: Array(5).fill('wh:error'), failOpen: [] } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const got = await run(Array(5).fill(fail500), c.opts);
      expect({ result: got.result, evaluations: got.evaluations, failOpen: got.failOpen }).toEqual(c.want);
    });
  }
});

test('a call that does not answer within the timeout fails, is not retried, and counts as a timeout', async () => {
  const got = await run(['hang'], { timeoutMs: 100 });
  const url = new URL('/authorize', server.url).href;
  expect(got).toEqual({ result: { decision: 'NoOpinion', reason: '', error: `Post ${JSON.stringify(url)}: context deadline exceeded` }, calls: 1, waits: [], evaluations: ['wh:timeout'], failOpen: ['wh:timeout'] });
});

test('the timeout covers reading the body too', async () => {
  const got = await run(['stall'], { timeoutMs: 100 });
  expect({ error: got.result.error, evaluations: got.evaluations }).toEqual({ error: `Post ${JSON.stringify(new URL('/authorize', server.url).href)}: context deadline exceeded`, evaluations: ['wh:timeout'] });
});

test('a refused connection fails at once, in Go\'s words', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const kubeconfig = server.kubeconfig();
  const { writeFileSync, readFileSync } = await import('node:fs');
  writeFileSync(kubeconfig, readFileSync(kubeconfig, 'utf8').replace(new URL(server.url).port, String(port)));
  const got = await run([], { failurePolicy: 'Deny' }, kubeconfig);
  expect({ result: got.result, waits: got.waits }).toEqual({ result: { decision: 'Deny', reason: '', error: `Post "https://127.0.0.1:${port}/authorize": dial tcp 127.0.0.1:${port}: connect: connection refused` }, waits: [] });
});

test('prom-client metrics carry kube\'s names and labels', async () => {
  const registry = new Registry();
  await run([fail500, allow()], { metrics: promWebhookMetrics(registry) });
  const text = await registry.metrics();
  expect(text).toContain('apiserver_authorization_webhook_evaluations_total{name="wh",result="error"} 1');
  expect(text).toContain('apiserver_authorization_webhook_evaluations_total{name="wh",result="success"} 1');
  expect(text).toContain('apiserver_authorization_webhook_duration_seconds_count{name="wh",result="success"} 1');
});
