// Prometheus metrics in kube-apiserver's names and labels, so dashboards and
// alerts written for kube-apiserver read kapi unchanged. One registry per server
// (never prom-client's global one) so tests can run several servers in a process.
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FeatureGates } from '../features/feature-gates.js';
import type { RequestInfo } from '../endpoints/context.js';

const LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;

// kube-apiserver's apiserver_request_duration_seconds buckets.
const DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

export interface ApiMetrics {
  readonly registry: Registry;
  observe(opts: { info: RequestInfo; method: string; dryRun: boolean; code: number; seconds: number }): void;
}

/** kube reports verbs upper-cased, with LIST and WATCH told apart from GET. */
function metricVerb(info: RequestInfo, method: string): string {
  if (!info.isResourceRequest) return method.toUpperCase();
  switch (info.verb) {
    case 'list':
      return 'LIST';
    case 'watch':
      return 'WATCH';
    case 'get':
      return 'GET';
    case 'create':
      return 'POST';
    case 'update':
      return 'PUT';
    case 'patch':
      return 'PATCH';
    case 'delete':
    case 'deletecollection':
      return 'DELETE';
    default:
      return method.toUpperCase();
  }
}

function scopeOf(info: RequestInfo): string {
  if (!info.isResourceRequest) return '';
  if (info.name !== '') return 'resource';
  return info.namespace !== '' ? 'namespace' : 'cluster';
}

export function createApiMetrics(): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const total = new Counter({
    name: 'apiserver_request_total',
    help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
    labelNames: [...LABELS, 'code'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'apiserver_request_duration_seconds',
    help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
    labelNames: [...LABELS],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  // prom-client hashes a label object on every call; the label sets a server sees
  // are few (verb x resource x code), so each one's children are looked up once.
  type Children = { readonly duration: ReturnType<typeof duration.labels>; readonly codes: Map<number, ReturnType<typeof total.labels>> };
  const children = new Map<string, Children>();
  const childrenOf = (labels: Record<(typeof LABELS)[number], string>): Children => {
    const key = `${labels.verb} ${labels.dry_run} ${labels.group} ${labels.version} ${labels.resource} ${labels.subresource} ${labels.scope}`;
    let found = children.get(key);
    if (found === undefined) {
      found = { duration: duration.labels(labels), codes: new Map() };
      children.set(key, found);
    }
    return found;
  };
  return {
    registry,
    observe({ info, method, dryRun, code, seconds }) {
      const labels = {
        verb: metricVerb(info, method),
        dry_run: dryRun ? 'All' : '',
        group: info.apiGroup,
        version: info.apiVersion,
        resource: info.resource,
        subresource: info.subresource,
        scope: scopeOf(info),
        component: 'apiserver',
      };
      const set = childrenOf(labels);
      let counter = set.codes.get(code);
      if (counter === undefined) {
        counter = total.labels({ ...labels, code: String(code) });
        set.codes.set(code, counter);
      }
      counter.inc();
      // Watches last as long as the client wants; kube excludes them from latency too.
      if (labels.verb !== 'WATCH') set.duration.observe(seconds);
    },
  };
}

export function registerMetricsRoute(app: FastifyInstance, metrics: ApiMetrics): void {
  app.get('/metrics', async (_request, reply) => {
    reply.header('Content-Type', metrics.registry.contentType);
    return reply.send(await metrics.registry.metrics());
  });
}

/**
 * kubernetes_feature_enabled{name,stage}: 1 or 0 per known gate, as component-base's
 * featuregate.AddMetrics records it (metrics/prometheus/feature); stage is the
 * PreRelease string, '' for GA.
 */
export function recordFeatureGates(metrics: ApiMetrics, gates: FeatureGates): void {
  const gauge = new Gauge({
    name: 'kubernetes_feature_enabled',
    help: 'This metric records the data about the stage and enablement of a k8s feature.',
    labelNames: ['name', 'stage'],
    registers: [metrics.registry],
  });
  for (const gate of gates.all()) gauge.set({ name: gate.name, stage: gate.stage }, gate.enabled ? 1 : 0);
}
