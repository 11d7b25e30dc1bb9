// autoscaling/v1 <-> autoscaling/v2 HorizontalPodAutoscaler, as kube converts them:
// v1 carries one CPU target and one CPU reading; everything else v2 holds travels
// in annotations of the v1 form (the other metrics, the current metrics, the
// conditions, the behavior) and is lifted back out when a v1 object is written, so
// a read-modify-write through v1 keeps what a v2 client set. Objects are plain
// JSON; these functions never mutate their input.
import { badRequest } from '../../../errors/status-error.js';
import type { KubeObject } from '../../../schema/object.js';

export const METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const CURRENT_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';

/** autoscaling/v1's implicit target when no metric is named (kube's DefaultCPUUtilization). */
const DEFAULT_CPU_UTILIZATION = 80;

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function obj(v: unknown): Json {
  return isObject(v) ? v : {};
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A new object from entries, dropping undefined values; keys are defined, never assigned. */
function compact(entries: readonly (readonly [string, unknown])[]): Json {
  const out: Json = {};
  for (const [k, v] of entries) if (v !== undefined) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

/** A Go resource.Quantity field without omitempty: "0" when unset. */
function quantity(v: unknown): unknown {
  return v === undefined || v === null ? '0' : v;
}

function isCpuResource(metric: Json): boolean {
  return metric.type === 'Resource' && isObject(metric.resource) && metric.resource.name === 'cpu';
}

// ---- v2 -> v1 -------------------------------------------------------------

function metricSpecToV1(m: Json): Json {
  const o = obj(m.object);
  const p = obj(m.pods);
  const r = obj(m.resource);
  const c = obj(m.containerResource);
  const e = obj(m.external);
  return compact([
    ['type', m.type],
    ['object', isObject(m.object) ? compact([
      ['target', compact([['kind', obj(o.describedObject).kind], ['name', obj(o.describedObject).name], ['apiVersion', obj(o.describedObject).apiVersion]])],
      ['metricName', obj(o.metric).name ?? ''],
      ['targetValue', quantity(obj(o.target).value)],
      ['selector', obj(o.metric).selector],
      ['averageValue', obj(o.target).averageValue],
    ]) : undefined],
    ['pods', isObject(m.pods) ? compact([['metricName', obj(p.metric).name ?? ''], ['targetAverageValue', quantity(obj(p.target).averageValue)], ['selector', obj(p.metric).selector]]) : undefined],
    ['resource', isObject(m.resource) ? compact([['name', r.name], ['targetAverageUtilization', obj(r.target).averageUtilization], ['targetAverageValue', obj(r.target).averageValue]]) : undefined],
    ['containerResource', isObject(m.containerResource)
      ? compact([['name', c.name], ['targetAverageUtilization', obj(c.target).averageUtilization], ['targetAverageValue', obj(c.target).averageValue], ['container', c.container ?? '']])
      : undefined],
    ['external', isObject(m.external)
      ? compact([['metricName', obj(e.metric).name ?? ''], ['metricSelector', obj(e.metric).selector], ['targetValue', obj(e.target).value], ['targetAverageValue', obj(e.target).averageValue]])
      : undefined],
  ]);
}

function metricStatusToV1(m: Json): Json {
  const o = obj(m.object);
  const p = obj(m.pods);
  const r = obj(m.resource);
  const c = obj(m.containerResource);
  const e = obj(m.external);
  return compact([
    ['type', m.type],
    ['object', isObject(m.object) ? compact([
      ['target', compact([['kind', obj(o.describedObject).kind], ['name', obj(o.describedObject).name], ['apiVersion', obj(o.describedObject).apiVersion]])],
      ['metricName', obj(o.metric).name ?? ''],
      ['currentValue', quantity(obj(o.current).value)],
      ['selector', obj(o.metric).selector],
      ['averageValue', obj(o.current).averageValue],
    ]) : undefined],
    ['pods', isObject(m.pods) ? compact([['metricName', obj(p.metric).name ?? ''], ['currentAverageValue', quantity(obj(p.current).averageValue)], ['selector', obj(p.metric).selector]]) : undefined],
    ['resource', isObject(m.resource) ? compact([['name', r.name], ['currentAverageUtilization', obj(r.current).averageUtilization], ['currentAverageValue', quantity(obj(r.current).averageValue)]]) : undefined],
    ['containerResource', isObject(m.containerResource)
      ? compact([['name', c.name], ['currentAverageUtilization', obj(c.current).averageUtilization], ['currentAverageValue', quantity(obj(c.current).averageValue)], ['container', c.container ?? '']])
      : undefined],
    ['external', isObject(m.external)
      ? compact([['metricName', obj(e.metric).name ?? ''], ['metricSelector', obj(e.metric).selector], ['currentValue', quantity(obj(e.current).value)], ['currentAverageValue', obj(e.current).averageValue]])
      : undefined],
  ]);
}

/** kube stores the behavior in the v1 form as its internal Go type marshals: capitalised names, nulls kept. */
function rulesToInternal(rules: unknown): unknown {
  if (!isObject(rules)) return null;
  return {
    StabilizationWindowSeconds: rules.stabilizationWindowSeconds ?? null,
    SelectPolicy: rules.selectPolicy ?? null,
    Policies: Array.isArray(rules.policies) ? rules.policies.map((p) => ({ Type: obj(p).type ?? '', Value: obj(p).value ?? 0, PeriodSeconds: obj(p).periodSeconds ?? 0 })) : null,
    Tolerance: rules.tolerance ?? null,
  };
}

/** A stored (v2) HorizontalPodAutoscaler as autoscaling/v1 sees it. */
export function hpaToV1(v2: KubeObject): KubeObject {
  const spec = obj(v2.spec);
  const status = obj(v2.status);
  const metrics = list(spec.metrics).filter(isObject);
  const cpu = metrics.find(isCpuResource);
  const other = metrics.filter((m) => !(isCpuResource(m) && obj(obj(m.resource).target).averageUtilization !== undefined));
  const current = list(status.currentMetrics).filter(isObject);
  const conditions = list(status.conditions);
  let currentCpu: unknown;
  for (const m of current) if (isCpuResource(m) && obj(obj(m.resource).current).averageUtilization !== undefined) currentCpu = obj(obj(m.resource).current).averageUtilization;

  const annotations: Json = compact(Object.entries(obj(v2.metadata.annotations)));
  if (other.length > 0) annotations[METRICS_ANNOTATION] = JSON.stringify(other.map(metricSpecToV1));
  if (current.length > 0) annotations[CURRENT_METRICS_ANNOTATION] = JSON.stringify(current.map(metricStatusToV1));
  if (conditions.length > 0) annotations[CONDITIONS_ANNOTATION] = JSON.stringify(conditions);
  if (isObject(spec.behavior)) annotations[BEHAVIOR_ANNOTATION] = JSON.stringify({ ScaleUp: rulesToInternal(spec.behavior.scaleUp), ScaleDown: rulesToInternal(spec.behavior.scaleDown) });
  const metadata = { ...v2.metadata } as KubeObject['metadata'];
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations as Record<string, string>;

  return compact([
    ['kind', 'HorizontalPodAutoscaler'],
    ['apiVersion', 'autoscaling/v1'],
    ['metadata', metadata],
    ['spec', compact([
      ['scaleTargetRef', spec.scaleTargetRef],
      ['minReplicas', spec.minReplicas],
      ['maxReplicas', spec.maxReplicas ?? 0],
      ['targetCPUUtilizationPercentage', cpu === undefined ? undefined : obj(obj(cpu.resource).target).averageUtilization],
    ])],
    ['status', v2.status === undefined ? undefined : compact([
      ['observedGeneration', status.observedGeneration],
      ['lastScaleTime', status.lastScaleTime],
      ['currentReplicas', status.currentReplicas ?? 0],
      ['desiredReplicas', status.desiredReplicas ?? 0],
      ['currentCPUUtilizationPercentage', currentCpu],
    ])],
  ]) as KubeObject;
}

// ---- v1 -> v2 -------------------------------------------------------------

/** The value of an annotation that holds JSON of the given shape; 400 for a malformed one. */
function annotationJson(annotations: Json, key: string, shape: 'array' | 'object'): unknown {
  const raw = annotations[key];
  if (typeof raw !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest(`invalid annotation ${key}: not valid JSON`);
  }
  if (shape === 'array' ? !Array.isArray(parsed) && parsed !== null : !isObject(parsed) && parsed !== null) {
    throw badRequest(`invalid annotation ${key}: must be a JSON ${shape}`);
  }
  return parsed ?? undefined;
}

function target(opts: { utilization?: unknown; value?: unknown; averageValue?: unknown }, fallback: 'Value' | 'AverageValue'): Json {
  const type = opts.utilization !== undefined ? 'Utilization' : fallback;
  return compact([['type', type], ['value', opts.value], ['averageValue', opts.averageValue], ['averageUtilization', opts.utilization]]);
}

function metricSpecFromV1(m: Json): Json {
  const o = obj(m.object);
  const p = obj(m.pods);
  const r = obj(m.resource);
  const c = obj(m.containerResource);
  const e = obj(m.external);
  const identifier = (name: unknown, selector: unknown) => compact([['name', name ?? ''], ['selector', selector]]);
  return compact([
    ['type', m.type],
    ['object', isObject(m.object) ? compact([
      ['describedObject', compact([['kind', obj(o.target).kind], ['name', obj(o.target).name], ['apiVersion', obj(o.target).apiVersion]])],
      ['target', compact([['type', o.averageValue === undefined ? 'Value' : 'AverageValue'], ['value', quantity(o.targetValue)], ['averageValue', o.averageValue]])],
      ['metric', identifier(o.metricName, o.selector)],
    ]) : undefined],
    ['pods', isObject(m.pods) ? compact([['metric', identifier(p.metricName, p.selector)], ['target', compact([['type', 'AverageValue'], ['averageValue', quantity(p.targetAverageValue)]])]]) : undefined],
    ['resource', isObject(m.resource) ? compact([['name', r.name], ['target', target({ utilization: r.targetAverageUtilization, averageValue: r.targetAverageValue }, 'AverageValue')]]) : undefined],
    ['containerResource', isObject(m.containerResource)
      ? compact([['name', c.name], ['target', target({ utilization: c.targetAverageUtilization, averageValue: c.targetAverageValue }, 'AverageValue')], ['container', c.container ?? '']])
      : undefined],
    ['external', isObject(m.external)
      ? compact([['metric', identifier(e.metricName, e.metricSelector)], ['target', compact([['type', e.targetValue === undefined ? 'AverageValue' : 'Value'], ['value', e.targetValue], ['averageValue', e.targetAverageValue]])]])
      : undefined],
  ]);
}

function metricStatusFromV1(m: Json): Json {
  const o = obj(m.object);
  const p = obj(m.pods);
  const r = obj(m.resource);
  const c = obj(m.containerResource);
  const e = obj(m.external);
  const identifier = (name: unknown, selector: unknown) => compact([['name', name ?? ''], ['selector', selector]]);
  return compact([
    ['type', m.type],
    ['object', isObject(m.object) ? compact([
      ['metric', identifier(o.metricName, o.selector)],
      ['current', compact([['value', quantity(o.currentValue)], ['averageValue', o.averageValue]])],
      ['describedObject', compact([['kind', obj(o.target).kind], ['name', obj(o.target).name], ['apiVersion', obj(o.target).apiVersion]])],
    ]) : undefined],
    ['pods', isObject(m.pods) ? compact([['metric', identifier(p.metricName, p.selector)], ['current', compact([['averageValue', quantity(p.currentAverageValue)]])]]) : undefined],
    ['resource', isObject(m.resource) ? compact([['name', r.name], ['current', compact([['averageValue', quantity(r.currentAverageValue)], ['averageUtilization', r.currentAverageUtilization]])]]) : undefined],
    ['containerResource', isObject(m.containerResource)
      ? compact([['name', c.name], ['current', compact([['averageValue', quantity(c.currentAverageValue)], ['averageUtilization', c.currentAverageUtilization]])], ['container', c.container ?? '']])
      : undefined],
    ['external', isObject(m.external)
      ? compact([['metric', identifier(e.metricName, e.metricSelector)], ['current', compact([['value', quantity(e.currentValue)], ['averageValue', e.currentAverageValue]])]])
      : undefined],
  ]);
}

function rulesFromInternal(rules: unknown): Json | undefined {
  if (!isObject(rules)) return undefined;
  return compact([
    ['stabilizationWindowSeconds', rules.StabilizationWindowSeconds ?? undefined],
    ['selectPolicy', rules.SelectPolicy ?? undefined],
    ['policies', Array.isArray(rules.Policies) ? rules.Policies.map((p) => compact([['type', obj(p).Type], ['value', obj(p).Value], ['periodSeconds', obj(p).PeriodSeconds]])) : undefined],
    ['tolerance', rules.Tolerance ?? undefined],
  ]);
}

/** An autoscaling/v1 HorizontalPodAutoscaler as it is stored (v2). */
export function hpaFromV1(v1: KubeObject): KubeObject {
  const spec = obj(v1.spec);
  const annotations: Json = compact(Object.entries(obj(v1.metadata?.annotations)));
  const other = list(annotationJson(annotations, METRICS_ANNOTATION, 'array')).filter(isObject).map(metricSpecFromV1);
  const current = annotationJson(annotations, CURRENT_METRICS_ANNOTATION, 'array');
  const conditions = annotationJson(annotations, CONDITIONS_ANNOTATION, 'array');
  const behavior = annotationJson(annotations, BEHAVIOR_ANNOTATION, 'object');
  for (const key of [METRICS_ANNOTATION, CURRENT_METRICS_ANNOTATION, CONDITIONS_ANNOTATION, BEHAVIOR_ANNOTATION]) delete annotations[key];

  const metrics = [...other];
  if (typeof spec.targetCPUUtilizationPercentage === 'number') {
    metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } });
  }
  // v1 had an implicit CPU target; v2 states it.
  if (metrics.length === 0) metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } });

  const metadata = { ...(v1.metadata ?? {}) } as KubeObject['metadata'];
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations as Record<string, string>;
  else delete metadata.annotations;

  const status = obj(v1.status);
  let currentMetrics: unknown;
  if (current !== undefined) currentMetrics = list(current).filter(isObject).map(metricStatusFromV1);
  else if (typeof status.currentCPUUtilizationPercentage === 'number') {
    currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }];
  }
  const behaviorV2 = isObject(behavior) ? compact([['scaleUp', rulesFromInternal(behavior.ScaleUp)], ['scaleDown', rulesFromInternal(behavior.ScaleDown)]]) : undefined;

  return compact([
    ['kind', 'HorizontalPodAutoscaler'],
    ['apiVersion', 'autoscaling/v2'],
    ['metadata', metadata],
    ['spec', compact([
      ['scaleTargetRef', spec.scaleTargetRef],
      ['minReplicas', spec.minReplicas],
      ['maxReplicas', spec.maxReplicas ?? 0],
      ['metrics', metrics],
      ['behavior', behaviorV2],
    ])],
    ['status', v1.status === undefined && conditions === undefined && current === undefined ? undefined : compact([
      ['observedGeneration', status.observedGeneration],
      ['lastScaleTime', status.lastScaleTime],
      ['currentReplicas', status.currentReplicas ?? 0],
      ['desiredReplicas', status.desiredReplicas ?? 0],
      ['currentMetrics', currentMetrics],
      ['conditions', conditions],
    ])],
  ]) as KubeObject;
}
