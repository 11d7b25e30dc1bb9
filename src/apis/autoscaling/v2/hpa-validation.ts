// HorizontalPodAutoscaler rules in the autoscaling/v2 shape (kube's
// pkg/apis/autoscaling/validation): replica bounds, the scale target and
// metric object references, each metric source against its type, and the
// scaling behavior. Exported for any other served version of the same stored
// object, which validates its converted v2 form.
import { type FieldError, type FieldPath, forbiddenField, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { isDNS1123Label, isQualifiedName, isValidPathSegmentName } from '../../../registry/validation/names.js';
import { parseQuantity, quantitySign } from '../../../schema/quantity.js';
import type { KubeObject } from '../../../schema/object.js';
import { type Json, arrayAt, objectAt, stringAt } from '../../core/v1/helpers.js';

const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
// Sorted, as kube's sets.List prints them.
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'] as const;
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'] as const;
const POLICY_TYPES = ['Percent', 'Pods'] as const;
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

/** The metric source field each type populates. */
const SOURCE_FIELD: Readonly<Record<string, string>> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  External: 'external',
  ContainerResource: 'containerResource',
};

export interface ReferenceOptions {
  /** An apiVersion without a group ("v1") passes (object metrics; ReplicationController targets). */
  readonly allowEmptyAPIGroup: boolean;
  /** apiVersion is not checked (updates that keep the stored target's kind and apiVersion). */
  readonly allowInvalidAPIVersion: boolean;
}

export interface HpaValidationOptions {
  readonly minReplicasLowerBound: number;
  readonly scaleTargetRef: ReferenceOptions;
  readonly objectMetrics: ReferenceOptions;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** Sign of a quantity; undefined when it does not parse (the decoder refuses those first). */
function signOf(v: unknown): number | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  try {
    return quantitySign(parseQuantity(String(v)));
  } catch {
    return undefined;
  }
}

/** schema.ParseGroupVersion's error, or whether the group is missing. */
function apiVersionError(apiVersion: string, opts: ReferenceOptions): string | undefined {
  if (opts.allowInvalidAPIVersion) return undefined;
  let group = '';
  if (apiVersion !== '' && apiVersion !== '/') {
    const parts = apiVersion.split('/');
    if (parts.length > 2) return `unexpected GroupVersion string: ${apiVersion}`;
    group = parts.length === 2 ? parts[0]! : '';
  }
  return group === '' && !opts.allowEmptyAPIGroup ? 'apiVersion must specify API group' : undefined;
}

export function validateCrossVersionObjectReference(ref: Json | undefined, p: FieldPath, opts: ReferenceOptions): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name'] as const) {
    const v = stringAt(ref, f);
    if (v === '') errs.push(required(p.child(f)));
    else for (const msg of isValidPathSegmentName(v)) errs.push(invalidValue(p.child(f), v, msg));
  }
  const apiVersion = stringAt(ref, 'apiVersion');
  const versionErr = apiVersionError(apiVersion, opts);
  if (versionErr !== undefined) errs.push(invalidValue(p.child('apiVersion'), apiVersion, versionErr));
  return errs;
}

function validateMetricTarget(target: Json | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = stringAt(target, 'type');
  if (type === '') errs.push(required(p.child('type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') {
    errs.push(invalidValue(p.child('type'), type, 'must be either Utilization, Value, or AverageValue'));
  }
  for (const f of ['value', 'averageValue'] as const) {
    if (present(target?.[f]) && signOf(target?.[f]) !== 1) errs.push(invalidValue(p.child(f), target?.[f], 'must be positive'));
  }
  const utilization = num(target?.averageUtilization);
  if (utilization !== undefined && utilization < 1) errs.push(invalidValue(p.child('averageUtilization'), utilization, 'must be greater than 0'));
  return errs;
}

function validateMetricIdentifier(id: Json | undefined, p: FieldPath): FieldError[] {
  const name = stringAt(id, 'name');
  if (name === '') return [required(p.child('name'), 'must specify a metric name')];
  return isValidPathSegmentName(name).map((msg) => invalidValue(p.child('name'), name, msg));
}

function validateObjectSource(src: Json, p: FieldPath, opts: ReferenceOptions): FieldError[] {
  const target = objectAt(src, 'target');
  const errs = [
    ...validateCrossVersionObjectReference(objectAt(src, 'describedObject'), p.child('describedObject'), opts),
    ...validateMetricIdentifier(objectAt(src, 'metric'), p.child('metric')),
    ...validateMetricTarget(target, p.child('target')),
  ];
  if (!present(target?.value) && !present(target?.averageValue)) errs.push(required(p.child('target', 'averageValue'), 'must set either a target value or averageValue'));
  return errs;
}

function validateExternalSource(src: Json, p: FieldPath): FieldError[] {
  const target = objectAt(src, 'target');
  const errs = [...validateMetricIdentifier(objectAt(src, 'metric'), p.child('metric')), ...validateMetricTarget(target, p.child('target'))];
  if (!present(target?.value) && !present(target?.averageValue)) {
    errs.push(required(p.child('target', 'averageValue'), 'must set either a target value for metric or a per-pod target'));
  }
  if (present(target?.value) && present(target?.averageValue)) {
    errs.push(forbiddenField(p.child('target', 'value'), 'may not set both a target value for metric and a per-pod target'));
  }
  return errs;
}

function validatePodsSource(src: Json, p: FieldPath): FieldError[] {
  const target = objectAt(src, 'target');
  const errs = [...validateMetricIdentifier(objectAt(src, 'metric'), p.child('metric')), ...validateMetricTarget(target, p.child('target'))];
  if (!present(target?.averageValue)) errs.push(required(p.child('target', 'averageValue'), 'must specify a positive target averageValue'));
  return errs;
}

function validateUtilizationTarget(target: Json | undefined, p: FieldPath): FieldError[] {
  const errs = validateMetricTarget(target, p);
  if (!present(target?.averageUtilization) && !present(target?.averageValue)) {
    errs.push(required(p.child('averageUtilization'), 'must set either a target raw value or a target utilization'));
  }
  if (present(target?.averageUtilization) && present(target?.averageValue)) {
    errs.push(forbiddenField(p.child('averageValue'), 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

function validateResourceSource(src: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (stringAt(src, 'name') === '') errs.push(required(p.child('name'), 'must specify a resource name'));
  return [...errs, ...validateUtilizationTarget(objectAt(src, 'target'), p.child('target'))];
}

/** ValidateContainerResourceName: a qualified name; without a domain, one of the standard container resources. */
function validateContainerResourceName(name: string, p: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalidValue(p, name, msg));
  if (!name.includes('/') && !STANDARD_CONTAINER_RESOURCES.has(name) && !name.startsWith('hugepages-')) {
    errs.push(invalidValue(p, name, 'must be a standard resource for containers'));
  }
  return errs;
}

function validateContainerResourceSource(src: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = stringAt(src, 'name');
  if (name === '') errs.push(required(p.child('name'), 'must specify a resource name'));
  else errs.push(...validateContainerResourceName(name, p.child('name')));
  const container = stringAt(src, 'container');
  if (container === '') errs.push(required(p.child('container'), 'must specify a container'));
  else for (const msg of isDNS1123Label(container)) errs.push(invalidValue(p.child('container'), container, msg));
  return [...errs, ...validateUtilizationTarget(objectAt(src, 'target'), p.child('target'))];
}

function validateMetricSpec(spec: Json, p: FieldPath, opts: ReferenceOptions): FieldError[] {
  const errs: FieldError[] = [];
  const type = stringAt(spec, 'type');
  if (type === '') errs.push(required(p.child('type'), 'must specify a metric source type'));
  const known = (METRIC_SOURCE_TYPES as readonly string[]).includes(type);
  if (!known) errs.push(notSupported(p.child('type'), type, METRIC_SOURCE_TYPES));
  // Only the first populated source is validated; the others are refused below.
  const present: string[] = [];
  const validators: readonly [string, (src: Json, sp: FieldPath) => FieldError[]][] = [
    ['object', (src, sp) => validateObjectSource(src, sp, opts)],
    ['external', validateExternalSource],
    ['pods', validatePodsSource],
    ['resource', validateResourceSource],
    ['containerResource', validateContainerResourceSource],
  ];
  for (const [field, validate] of validators) {
    const src = objectAt(spec, field);
    if (src === undefined) continue;
    present.push(field);
    if (present.length === 1) errs.push(...validate(src, p.child(field)));
  }
  const expected = known ? SOURCE_FIELD[type]! : '';
  if (known) {
    if (objectAt(spec, expected) === undefined) errs.push(required(p.child(expected), 'must populate information for the given metric source'));
  } else {
    // kube's switch refuses an unknown type a second time.
    errs.push(notSupported(p.child('type'), type, METRIC_SOURCE_TYPES));
  }
  if (present.length !== 1) {
    for (const field of present) if (field !== expected) errs.push(forbiddenField(p.child(field), 'must populate the given metric source only'));
  }
  return errs;
}

function validateMetrics(metrics: Json[], p: FieldPath, minReplicas: number | undefined, opts: ReferenceOptions): FieldError[] {
  const errs: FieldError[] = [];
  metrics.forEach((m, i) => errs.push(...validateMetricSpec(m, p.index(i), opts)));
  const scalesToZeroBy = metrics.some((m) => m.type === 'Object' || m.type === 'External');
  if (minReplicas === 0 && !scalesToZeroBy) {
    errs.push(forbiddenField(p, 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  return errs;
}

function validateScalingRules(rules: Json | undefined, p: FieldPath): FieldError[] {
  if (rules === undefined) return [];
  const errs: FieldError[] = [];
  const window = num(rules.stabilizationWindowSeconds);
  if (window !== undefined && window < 0) errs.push(invalidValue(p.child('stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (window !== undefined && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(invalidValue(p.child('stabilizationWindowSeconds'), window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  if (present(rules.selectPolicy) && !(SELECT_POLICIES as readonly unknown[]).includes(rules.selectPolicy)) {
    errs.push(notSupported(p.child('selectPolicy'), rules.selectPolicy, SELECT_POLICIES));
  }
  const pp = p.child('policies');
  const policies = arrayAt(rules, 'policies');
  if (policies.length === 0) errs.push(required(pp, 'must specify at least one Policy'));
  policies.forEach((policy, i) => {
    const ip = pp.index(i);
    if (policy.type !== 'Pods' && policy.type !== 'Percent') errs.push(notSupported(ip.child('type'), policy.type ?? '', POLICY_TYPES));
    const value = num(policy.value) ?? 0;
    if (value <= 0) errs.push(invalidValue(ip.child('value'), value, 'must be greater than zero'));
    const period = num(policy.periodSeconds) ?? 0;
    if (period <= 0) errs.push(invalidValue(ip.child('periodSeconds'), period, 'must be greater than zero'));
    if (period > MAX_PERIOD_SECONDS) errs.push(invalidValue(ip.child('periodSeconds'), period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  if (present(rules.tolerance) && (signOf(rules.tolerance) ?? -1) < 0) {
    errs.push(invalidValue(p.child('tolerance'), rules.tolerance, 'must be greater than or equal to 0'));
  }
  return errs;
}

export function validateHpaSpec(spec: Json, opts: HpaValidationOptions): FieldError[] {
  const p = path('spec');
  const errs: FieldError[] = [];
  const min = num(spec.minReplicas);
  const max = num(spec.maxReplicas) ?? 0;
  if (min !== undefined && min < opts.minReplicasLowerBound) {
    errs.push(invalidValue(p.child('minReplicas'), min, `must be greater than or equal to ${opts.minReplicasLowerBound}`));
  }
  if (max < 1) errs.push(invalidValue(p.child('maxReplicas'), max, 'must be greater than 0'));
  if (min !== undefined && max < min) errs.push(invalidValue(p.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(objectAt(spec, 'scaleTargetRef'), p.child('scaleTargetRef'), opts.scaleTargetRef));
  errs.push(...validateMetrics(arrayAt(spec, 'metrics'), p.child('metrics'), min, opts.objectMetrics));
  const behavior = objectAt(spec, 'behavior');
  if (behavior !== undefined) {
    errs.push(...validateScalingRules(objectAt(behavior, 'scaleUp'), p.child('behavior', 'scaleUp')));
    errs.push(...validateScalingRules(objectAt(behavior, 'scaleDown'), p.child('behavior', 'scaleDown')));
  }
  return errs;
}

function specOf(hpa: KubeObject): Json {
  return objectAt(hpa, 'spec') ?? {};
}

/** Feature gates the rules depend on. */
export interface HpaFeatures {
  /** HPAScaleToZero (alpha, off by default): minReplicas may be 0. */
  readonly scaleToZero?: boolean;
}

/**
 * The strategy's options: minReplicas 0 with HPAScaleToZero or where the HPA
 * already had it; a group-less target apiVersion
 * only for ReplicationControllers; an update that keeps the target's kind and
 * apiVersion skips that check, and so do object metrics already stored invalid.
 */
export function hpaValidationOptions(next: KubeObject, prev: KubeObject | undefined, features: HpaFeatures = {}): HpaValidationOptions {
  const spec = specOf(next);
  const prevSpec = prev === undefined ? undefined : specOf(prev);
  const ref = objectAt(spec, 'scaleTargetRef');
  const prevRef = objectAt(prevSpec, 'scaleTargetRef');
  const sameTarget = prevSpec !== undefined && stringAt(prevRef, 'apiVersion') === stringAt(ref, 'apiVersion') && stringAt(prevRef, 'kind') === stringAt(ref, 'kind');
  const objectMetrics: ReferenceOptions = { allowEmptyAPIGroup: true, allowInvalidAPIVersion: false };
  const storedInvalid = arrayAt(prevSpec, 'metrics').some((m) => {
    const described = objectAt(objectAt(m, 'object'), 'describedObject');
    return m.type === 'Object' && described !== undefined && apiVersionError(stringAt(described, 'apiVersion'), objectMetrics) !== undefined;
  });
  return {
    minReplicasLowerBound: features.scaleToZero === true || prevSpec?.minReplicas === 0 ? 0 : 1,
    scaleTargetRef: { allowInvalidAPIVersion: sameTarget, allowEmptyAPIGroup: !sameTarget && stringAt(ref, 'kind') === 'ReplicationController' },
    objectMetrics: { ...objectMetrics, allowInvalidAPIVersion: storedInvalid },
  };
}

export function validateHorizontalPodAutoscaler(hpa: KubeObject, features: HpaFeatures = {}): FieldError[] {
  return validateHpaSpec(specOf(hpa), hpaValidationOptions(hpa, undefined, features));
}

export function validateHorizontalPodAutoscalerUpdate(next: KubeObject, prev: KubeObject, features: HpaFeatures = {}): FieldError[] {
  return validateHpaSpec(specOf(next), hpaValidationOptions(next, prev, features));
}

/** A status write: the replica counts are not negative. */
export function validateHorizontalPodAutoscalerStatus(next: KubeObject): FieldError[] {
  const status = objectAt(next, 'status') ?? {};
  const p = path('status');
  return (['currentReplicas', 'desiredReplicas'] as const).flatMap((f) => {
    const v = num(status[f]);
    return v !== undefined && v < 0 ? [invalidValue(p.child(f), v, 'must be greater than or equal to 0')] : [];
  });
}
