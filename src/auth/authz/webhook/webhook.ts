// The Webhook authorization mode (k8s.io/apiserver plugin/pkg/authorizer/webhook):
// each request becomes a SubjectAccessReview POSTed to a remote service whose
// status decides (allowed: Allow, denied: Deny, neither: NoOpinion). Match
// conditions may skip the call; answers are cached for the authorized/unauthorized
// TTLs; failed calls are retried with kube's backoff, then answered with the
// failure policy (NoOpinion for the --authorization-webhook-* flags).
import type { AuthorizationAttributes, AuthorizationResult, AuthorizerMode, Decision, RulesResult } from '../authorizer.js';
import type { Program } from '../../../cel/index.js';
import { DEFAULT_RETRY_BACKOFF, realSleep, withExponentialBackoff, type Backoff } from './backoff.js';
import { createExpiringCache } from './cache.js';
import { createWebhookClient } from './client.js';
import { aggregateMessage, failedStatusIn, isRetryable, WebhookCallError } from './errors.js';
import { readWebhookKubeconfig, type WebhookKubeconfig } from './kubeconfig.js';
import { compileMatchConditions, evaluateMatchConditions } from './match-conditions.js';
import { NOOP_WEBHOOK_METRICS, type WebhookMetrics, type WebhookResult } from './metrics.js';
import { decodeReviewStatus, encodeReview, goJson, reviewSpecOf, specJson, type ReviewStatus, type SubjectAccessReviewVersion } from './subject-access-review.js';

export type FailurePolicy = 'NoOpinion' | 'Deny';

export interface WebhookAuthorizerOptions {
  /** The authorizer's name (metrics label); the flags' webhook is kube's "default". */
  readonly name: string;
  /** Where the service is: a kubeconfig file, or one already read. */
  readonly kubeconfig: string | WebhookKubeconfig;
  readonly subjectAccessReviewVersion: SubjectAccessReviewVersion;
  /** Bounds each call, the response included (default 30s, kube's defaultRequestTimeout). */
  readonly timeoutMs?: number;
  /** How long an allowed answer is reused; 0 caches none (default 5m). */
  readonly authorizedTtlMs?: number;
  /** How long any other answer is reused; 0 caches none (default 30s). */
  readonly unauthorizedTtlMs?: number;
  /** The answer when the call or a match condition fails (default NoOpinion, the flags' behaviour). */
  readonly failurePolicy?: FailurePolicy;
  readonly matchConditions?: readonly string[];
  readonly retryBackoff?: Backoff;
  readonly clock?: () => Date;
  /** How retries wait (tests pass one that does not). */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  readonly metrics?: WebhookMetrics;
}

export interface WebhookAuthorizer extends AuthorizerMode {
  /** Closes idle connections to the service. */
  close(): void;
}

/** A configuration problem (kubeconfig, match conditions); the message is kube's. */
export class WebhookConfigError extends Error {
  override readonly name = 'WebhookConfigError';
}

/** webhook.go maxControlledAttrCacheSize: larger requester-controlled attributes are never cached (a DoS guard). */
const MAX_CONTROLLED_ATTR_CACHE_SIZE = 10_000;

function shouldCache(a: AuthorizationAttributes): boolean {
  const size = [a.namespace, a.verb, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.name, a.path].reduce((n, s) => n + Buffer.byteLength(s), 0);
  return size < MAX_CONTROLLED_ATTR_CACHE_SIZE;
}

/** kube's RulesFor: a webhook cannot say what it would allow. */
const NO_RULES: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' };

/** Throws WebhookConfigError when the kubeconfig cannot be read or a match condition does not compile. */
export function createWebhookAuthorizer(opts: WebhookAuthorizerOptions): WebhookAuthorizer {
  let programs: Program[] = [];
  if ((opts.matchConditions ?? []).length > 0) {
    const compiled = compileMatchConditions(opts.matchConditions!);
    if (compiled.errors.length > 0) throw new WebhookConfigError(aggregateMessage(compiled.errors.map((e) => e.message)));
    programs = compiled.programs;
  }
  let kubeconfig: WebhookKubeconfig;
  try {
    kubeconfig = typeof opts.kubeconfig === 'string' ? readWebhookKubeconfig(opts.kubeconfig) : opts.kubeconfig;
  } catch (err) {
    throw new WebhookConfigError((err as Error).message);
  }
  const client = createWebhookClient({ kubeconfig, timeoutMs: opts.timeoutMs ?? 30_000 });
  const version = opts.subjectAccessReviewVersion;
  const onError: Decision = opts.failurePolicy ?? 'NoOpinion';
  const clock = opts.clock ?? (() => new Date());
  const metrics = opts.metrics ?? NOOP_WEBHOOK_METRICS;
  const cache = createExpiringCache<ReviewStatus>();
  const retry = { backoff: opts.retryBackoff ?? DEFAULT_RETRY_BACKOFF, shouldRetry: isRetryable, sleep: opts.sleep ?? realSleep, random: opts.random ?? Math.random };

  /** One round trip, recorded as kube records it (per attempt: result and latency). */
  async function call(body: string): Promise<ReviewStatus> {
    const start = performance.now();
    let result: WebhookResult = 'error';
    try {
      const res = await client.post(body);
      const failed = failedStatusIn(res.body, res.statusCode);
      if (failed !== undefined) throw failed;
      const status = decodeReviewStatus(res.body);
      result = 'success';
      return status;
    } catch (err) {
      if (err instanceof WebhookCallError && err.timeout) result = 'timeout';
      throw err;
    } finally {
      metrics.webhookEvaluation(opts.name, result, (performance.now() - start) / 1000);
    }
  }

  async function authorize(attrs: AuthorizationAttributes): Promise<AuthorizationResult> {
    const spec = reviewSpecOf(attrs);
    if (programs.length > 0) {
      const start = performance.now();
      const match = evaluateMatchConditions(programs, spec);
      metrics.matchConditionEvaluation(opts.name, (performance.now() - start) / 1000);
      // An error (and no false) answers with the failure policy; a false skips the webhook.
      if (match.kind === 'error') {
        metrics.matchConditionError(opts.name);
        return { decision: onError, reason: '', error: match.error };
      }
      if (match.kind === 'noMatch') {
        metrics.matchConditionExclusion(opts.name);
        return { decision: 'NoOpinion', reason: '' };
      }
    }
    const key = goJson(specJson(spec, 'v1'));
    let status = cache.get(key, clock().getTime());
    if (status === undefined) {
      try {
        status = await withExponentialBackoff(() => call(encodeReview(spec, version)), retry);
      } catch (err) {
        // Anything thrown that is not an Error is a bug here, not a webhook's failure.
        if (!(err instanceof Error)) throw err;
        if (onError === 'NoOpinion') metrics.webhookFailOpen(opts.name, err instanceof WebhookCallError && err.timeout ? 'timeout' : 'error');
        return { decision: onError, reason: '', error: err.message };
      }
      const ttl = status.allowed ? (opts.authorizedTtlMs ?? 300_000) : (opts.unauthorizedTtlMs ?? 30_000);
      if (ttl > 0 && shouldCache(attrs)) cache.add(key, status, ttl, clock().getTime());
    }
    if (status.denied && status.allowed) return { decision: 'Deny', reason: status.reason, error: 'webhook subject access review returned both allow and deny response' };
    if (status.denied) return { decision: 'Deny', reason: status.reason };
    if (status.allowed) return { decision: 'Allow', reason: status.reason };
    return { decision: 'NoOpinion', reason: status.reason };
  }

  return { authorize, rulesFor: async () => NO_RULES, close: () => client.close() };
}
