// What a webhook authorizer reports, in kube-apiserver's metric names and labels
// (plugin/pkg/authorizer/webhook/metrics, authorization/cel/metrics.go): round
// trips and their latency by authorizer name and result, NoOpinion answers given
// because the webhook failed, and match-condition evaluations, errors and
// exclusions. The authorizer calls the interface; promWebhookMetrics registers
// the series on a registry the server owns (never prom-client's global one).
import { Counter, Histogram, type Registry } from 'prom-client';

/** webhook.go's metricsResult ('canceled' needs a request context kapi does not pass here). */
export type WebhookResult = 'success' | 'timeout' | 'error';

export interface WebhookMetrics {
  webhookEvaluation(name: string, result: WebhookResult, seconds: number): void;
  webhookFailOpen(name: string, result: WebhookResult): void;
  matchConditionEvaluation(name: string, seconds: number): void;
  matchConditionError(name: string): void;
  matchConditionExclusion(name: string): void;
}

export const NOOP_WEBHOOK_METRICS: WebhookMetrics = {
  webhookEvaluation: () => {},
  webhookFailOpen: () => {},
  matchConditionEvaluation: () => {},
  matchConditionError: () => {},
  matchConditionExclusion: () => {},
};

/** prometheus/client_golang DefBuckets. */
const DEF_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const MATCH_CONDITION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.1, 0.2, 0.25];

/** The series on `registry`; create once per registry (prom-client refuses a name twice). */
export function promWebhookMetrics(registry: Registry): WebhookMetrics {
  const registers = [registry];
  const byName = ['name', 'result'];
  const byType = ['type', 'name'];
  const evaluations = new Counter({ name: 'apiserver_authorization_webhook_evaluations_total', help: 'Round-trips to authorization webhooks.', labelNames: byName, registers });
  const duration = new Histogram({ name: 'apiserver_authorization_webhook_duration_seconds', help: 'Request latency in seconds.', labelNames: byName, buckets: DEF_BUCKETS, registers });
  const failOpen = new Counter({
    name: 'apiserver_authorization_webhook_evaluations_fail_open_total',
    help: 'NoOpinion results due to webhook timeout or error.',
    labelNames: byName,
    registers,
  });
  const mcErrors = new Counter({
    name: 'apiserver_authorization_match_condition_evaluation_errors_total',
    help: 'Total number of errors when an authorization webhook encounters a match condition error split by authorizer type and name.',
    labelNames: byType,
    registers,
  });
  const mcExclusions = new Counter({
    name: 'apiserver_authorization_match_condition_exclusions_total',
    help: 'Total number of exclusions when an authorization webhook is skipped because match conditions exclude it.',
    labelNames: byType,
    registers,
  });
  const mcSeconds = new Histogram({
    name: 'apiserver_authorization_match_condition_evaluation_seconds',
    help: 'Authorization match condition evaluation time in seconds, split by authorizer type and name.',
    labelNames: byType,
    buckets: MATCH_CONDITION_BUCKETS,
    registers,
  });
  return {
    webhookEvaluation(name, result, seconds) {
      evaluations.inc({ name, result });
      duration.observe({ name, result }, seconds);
    },
    webhookFailOpen: (name, result) => failOpen.inc({ name, result }),
    matchConditionEvaluation: (name, seconds) => mcSeconds.observe({ type: 'Webhook', name }, seconds),
    matchConditionError: (name) => mcErrors.inc({ type: 'Webhook', name }),
    matchConditionExclusion: (name) => mcExclusions.inc({ type: 'Webhook', name }),
  };
}
