// What the apps/v1 workloads (Deployments, ReplicaSets, StatefulSets,
// DaemonSets) share, after kube's apps validation: int-or-percent values, the
// selector every workload must carry and its agreement with the template labels,
// the pod template as kube validates it, the rule that a selector is fixed once
// created, and the non-negative counters of their status. PodDisruptionBudgets
// (policy/v1) use the int-or-percent rules too.
import type { SubresourceDefinition } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, forbiddenField, goLiteral, invalidValue, notSupported, path, required } from '../../../errors/field-errors.js';
import { deepEqual, validateImmutableField, validateNonnegative } from '../../../registry/validation/common.js';
import { validateLabelSelector, validateLabels } from '../../../registry/validation/label-selector.js';
import { isDNS1123Label } from '../../../registry/validation/names.js';
import { validateAnnotations } from '../../../registry/validation/object-meta.js';
import { LabelSelectorError, labelSelectorRequirements, matchesLabels, renderLabelSelector, type LabelRequirement, type LabelSelector } from '../../../schema/label-selector.js';
import { type Json, ensureObject, objectAt, stringAt } from '../../core/v1/helpers.js';
import { validatePodSpec } from '../../core/v1/pod-spec-validation.js';
import { workloadTemplateWarnings } from '../../core/v1/pod-warnings.js';
import { defaultTemplate } from '../../core/v1/pod-templates.js';

export { type Json, ensureObject, objectAt, stringAt };

// --- int or percent (intstr.IntOrString) --------------------------------------------

const PERCENT = /^[0-9]+%$/;
const PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** Go's %#v of an intstr.IntOrString, as field.Invalid prints one. */
function goIntOrString(v: unknown): string {
  if (typeof v === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`;
  return `intstr.IntOrString{Type:0, IntVal:${typeof v === 'number' ? v : 0}, StrVal:""}`;
}

function invalidIntOrString(p: FieldPath, v: unknown, detail: string): FieldError {
  return invalidValue(p, goLiteral(goIntOrString(v)), detail);
}

/** ValidatePositiveIntOrPercent: a percent string, or an integer that is not negative. */
export function validatePositiveIntOrPercent(v: unknown, p: FieldPath): FieldError[] {
  if (typeof v === 'string') return PERCENT.test(v) ? [] : [invalidIntOrString(p, v, PERCENT_MSG)];
  return validateNonnegative(v, p);
}

/** The number an int-or-percent stands for in kube's checks: the percent's digits, an int, or a numeric string. */
export function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return 0;
  if (PERCENT.test(v)) return Number.parseInt(v.slice(0, -1), 10);
  return /^[+-]?\d+$/.test(v) ? Number.parseInt(v, 10) : 0;
}

/** IsNotMoreThan100Percent. */
export function validateNotMoreThan100Percent(v: unknown, p: FieldPath): FieldError[] {
  if (typeof v !== 'string' || !PERCENT.test(v) || intOrPercentValue(v) <= 100) return [];
  return [invalidIntOrString(p, v, 'must not be greater than 100%')];
}

/** An int-or-percent given as zero (kube compares values, so "0%" is zero too). */
export function isZero(v: unknown): boolean {
  return intOrPercentValue(v) === 0;
}

export { invalidIntOrString };

// --- selector and template ------------------------------------------------------------

/** What LabelSelectorAsSelector makes of spec.selector: nothing (absent), requirements, or an error. */
export type SelectorResult = { readonly kind: 'nothing' } | { readonly kind: 'requirements'; readonly reqs: LabelRequirement[] } | { readonly kind: 'invalid' };

export function selectorOf(selector: unknown): SelectorResult {
  if (selector === undefined || selector === null || typeof selector !== 'object') return { kind: 'nothing' };
  try {
    return { kind: 'requirements', reqs: labelSelectorRequirements(selector as LabelSelector) };
  } catch (err) {
    if (err instanceof LabelSelectorError) return { kind: 'invalid' };
    throw err;
  }
}

function isEmptySelector(selector: Json): boolean {
  const labels = objectAt(selector, 'matchLabels');
  const expressions = selector.matchExpressions;
  return Object.keys(labels ?? {}).length === 0 && !(Array.isArray(expressions) && expressions.length > 0);
}

/**
 * The selector a Deployment, ReplicaSet or StatefulSet must have: present,
 * valid, not empty ("empty selector is invalid for <word>"), convertible.
 */
export function validateRequiredSelector(spec: Json, sp: FieldPath, word: string): FieldError[] {
  const p = sp.child('selector');
  const selector = objectAt(spec, 'selector');
  if (selector === undefined) return [required(p)];
  const errs = validateLabelSelector(selector, p);
  if (isEmptySelector(selector)) errs.push(invalidValue(p, selector, `empty selector is invalid for ${word}`));
  return errs;
}

/** ValidatePodTemplateSpec: labels, annotations, the pod spec (images may come later), no ephemeral containers. */
export function validatePodTemplateSpec(template: Json, tp: FieldPath): FieldError[] {
  const meta = objectAt(template, 'metadata');
  const spec = objectAt(template, 'spec') ?? {};
  const errs = [
    ...validateLabels(meta?.labels, tp.child('labels')),
    ...validateAnnotations(objectAt(meta, 'annotations') as Record<string, string> | undefined, tp.child('annotations')),
    ...validatePodSpec(spec, tp.child('spec'), { requireImage: false }),
  ];
  if (Array.isArray(spec.ephemeralContainers) && spec.ephemeralContainers.length > 0) {
    errs.push(forbiddenField(tp.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

/** The selector agrees with the template labels; an absent selector selects nothing, so it never does. */
export function validateSelectorMatchesTemplate(selector: SelectorResult, template: Json, tp: FieldPath): FieldError[] {
  if (selector.kind === 'invalid') return [];
  const labels = objectAt(objectAt(template, 'metadata'), 'labels');
  const matches = selector.kind === 'requirements' && matchesLabels(selector.reqs, labels);
  // An empty selector (every pod) is refused on its own and checks no labels.
  if (selector.kind === 'requirements' && selector.reqs.length === 0) return [];
  return matches ? [] : [invalidValue(tp.child('metadata', 'labels'), labels ?? {}, '`selector` does not match template `labels`')];
}

/** What a pod managed by a long-running controller may not ask for: restartPolicy other than Always, a deadline. */
export function validateLongRunningTemplate(template: Json, tp: FieldPath, kind: string): FieldError[] {
  const spec = objectAt(template, 'spec');
  const errs: FieldError[] = [];
  const restartPolicy = stringAt(spec, 'restartPolicy');
  if (restartPolicy !== 'Always') errs.push(notSupported(tp.child('spec', 'restartPolicy'), restartPolicy, ['Always']));
  if (spec?.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(forbiddenField(tp.child('spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return errs;
}

/**
 * ValidatePodTemplateSpecForReplicaSet (Deployments and ReplicaSets): the
 * selector matches, the template is a valid pod template, and its pods run for
 * good. `selectorError` is kube's text when the selector does not convert.
 */
export function validateReplicatedTemplate(spec: Json, sp: FieldPath, selectorError: string): FieldError[] {
  const selector = selectorOf(spec.selector);
  const tp = sp.child('template');
  if (selector.kind === 'invalid') return [invalidValue(sp.child('selector'), spec.selector, selectorError)];
  const template = objectAt(spec, 'template') ?? {};
  return [...validateSelectorMatchesTemplate(selector, template, tp), ...validatePodTemplateSpec(template, tp), ...validateLongRunningTemplate(template, tp, 'ReplicaSet')];
}

/** Fields of a spec that must be non-negative when set. */
export function validateNonnegativeFields(obj: Json | undefined, fields: readonly string[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  // The path is made only for a field that is refused.
  for (const f of fields) if (isNegative(obj?.[f])) errs.push(...validateNonnegative(obj?.[f], p.child(f)));
  return errs;
}

function isNegative(value: unknown): boolean {
  return typeof value === 'number' && value < 0;
}

/** apps/v1 keeps a workload's selector from the day it is created. */
export function validateSelectorUnchanged(next: KubeObject, prev: KubeObject): FieldError[] {
  return validateImmutableField(objectAt(next, 'spec')?.selector, objectAt(prev, 'spec')?.selector, path('spec', 'selector'));
}

/** The template's pod defaults (kube defaults the embedded PodSpec of every workload); the template is created when absent. */
export function defaultWorkloadTemplate(spec: Json): void {
  defaultTemplate(ensureObject(spec, 'template'));
}

// --- status -------------------------------------------------------------------------------

function count(status: Json | undefined, field: string): number {
  const v = status?.[field];
  return typeof v === 'number' ? v : 0;
}

/** Counters that may not exceed another (readyReplicas <= replicas ...): `[field, bound, message]`. */
export function validateStatusBounds(status: Json | undefined, sp: FieldPath, bounds: readonly (readonly [string, string, string])[]): FieldError[] {
  return bounds.filter(([f, b]) => count(status, f) > count(status, b)).map(([f, , msg]) => invalidValue(sp.child(f), count(status, f), msg));
}

/** status.collisionCount may only grow (IsDecremented). */
export function validateCollisionCount(next: KubeObject, prev: KubeObject): FieldError[] {
  const n = objectAt(next, 'status')?.collisionCount;
  const o = objectAt(prev, 'status')?.collisionCount;
  if (typeof o !== 'number') return [];
  const value = typeof n === 'number' ? n : 0;
  return typeof n !== 'number' || n < o ? [invalidValue(path('status', 'collisionCount'), value, 'cannot be decremented')] : [];
}

// --- generation and warnings ----------------------------------------------------------

/** Generation moves when any of the given top-level parts changed (spec; for Deployments annotations too). */
export function bumpGenerationOn(next: KubeObject, prev: KubeObject, changed: boolean): void {
  const generation = prev.metadata.generation ?? 1;
  next.metadata.generation = changed ? generation + 1 : generation;
}

export function specChanged(next: KubeObject, prev: KubeObject): boolean {
  return !deepEqual(next.spec, prev.spec);
}

/** Workloads whose names become pod names and hostnames warn when the name is not a DNS label (kube 1.27+). */
export function dnsLabelNameWarning(obj: KubeObject): string[] {
  const msgs = isDNS1123Label(obj.metadata.name ?? '');
  if (msgs.length === 0 || (obj.metadata.name ?? '') === '') return [];
  return [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`];
}

/** GetWarningsForPodTemplate at spec.template: on create, and on update when the generation moved (kube's apps strategies). */
export function specTemplateWarnings(obj: KubeObject, prev: KubeObject | undefined): string[] {
  return workloadTemplateWarnings(obj, prev, path('spec', 'template'), objectAt(objectAt(obj, 'spec'), 'template'));
}

/** The Selector column: metav1.FormatLabelSelector (`<none>` when empty, `<error>` when it does not convert). */
export function formatLabelSelector(selector: unknown): string {
  const s = selectorOf(selector);
  if (s.kind === 'invalid') return '<error>';
  const text = s.kind === 'requirements' ? renderLabelSelector(s.reqs) : '';
  return text === '' ? '<none>' : text;
}

/** /scale of Deployments, ReplicaSets and StatefulSets: spec.replicas, status.replicas, the LabelSelector as text. */
export const SCALE_SUBRESOURCE: SubresourceDefinition = {
  verbs: ['get', 'patch', 'update'],
  path: 'spec.replicas',
  responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
  scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: 'spec.selector' },
};
