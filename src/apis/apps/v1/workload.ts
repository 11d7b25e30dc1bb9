// What the apps/v1 workloads (Deployments, ReplicaSets, StatefulSets,
// DaemonSets) share, after kube's apps validation: int-or-percent values, the
// selector every workload must carry and its agreement with the template labels,
// the pod template as kube validates it, the rule that a selector is fixed once
// created, and the non-negative counters of their status. PodDisruptionBudgets
// (policy/v1) use the int-or-percent rules too.
import type { SubresourceDefinition } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, forbiddenField, goLiteral, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { deepEqual, validateImmutableField, validateNonnegative } from '../../../registry/validation/common.js';
import { addLabelErrors, addLabelSelectorErrors } from '../../../registry/validation/label-selector.js';
import { isDNS1123Label, matchesDNS1123Label } from '../../../registry/validation/names.js';
import { addAnnotationErrors } from '../../../registry/validation/object-meta.js';
import { LabelSelectorError, labelSelectorRequirements, matchesLabels, renderLabelSelector, type LabelRequirement, type LabelSelector } from '../../../schema/label-selector.js';
import { type Json, ensureObject, objectAt, stringAt } from '../../core/v1/helpers.js';
import { type PodSpecOptions, addPodSpecErrors, addTemplateEphemeralErrors } from '../../core/v1/pod-spec-validation.js';
import { addWorkloadTemplateWarnings, workloadTemplateWarnings } from '../../core/v1/pod-warnings.js';
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

const DECIMAL = /^[+-]?\d+$/;

/** ValidatePositiveIntOrPercent: a percent string, or an integer that is not negative. */
export function validatePositiveIntOrPercent(v: unknown, p: FieldPath): FieldError[] {
  if (typeof v === 'string') return PERCENT.test(v) ? [] : [invalidIntOrString(p, v, PERCENT_MSG)];
  return validateNonnegative(v, p);
}

/** validatePositiveIntOrPercent finds nothing: asked first, so a valid value makes no path. */
export function isPositiveIntOrPercent(v: unknown): boolean {
  return typeof v === 'string' ? PERCENT.test(v) : !isNegative(v);
}

/** The number an int-or-percent stands for in kube's checks: the percent's digits, an int, or a numeric string. */
export function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return 0;
  // parseInt stops at the '%', so a percent needs no slicing.
  if (PERCENT.test(v)) return Number.parseInt(v, 10);
  return DECIMAL.test(v) ? Number.parseInt(v, 10) : 0;
}

/** IsNotMoreThan100Percent. */
export function validateNotMoreThan100Percent(v: unknown, p: FieldPath): FieldError[] {
  return isOver100Percent(v) ? [invalidIntOrString(p, v, 'must not be greater than 100%')] : [];
}

/** What validateNotMoreThan100Percent refuses. */
export function isOver100Percent(v: unknown): boolean {
  return typeof v === 'string' && PERCENT.test(v) && intOrPercentValue(v) > 100;
}

/** An int-or-percent given as zero (kube compares values, so "0%" is zero too). */
export function isZero(v: unknown): boolean {
  return intOrPercentValue(v) === 0;
}

export { invalidIntOrString };

// --- selector and template ------------------------------------------------------------

/** What LabelSelectorAsSelector makes of spec.selector: nothing (absent), requirements, or an error. */
export type SelectorResult = { readonly kind: 'nothing' } | { readonly kind: 'requirements'; readonly reqs: LabelRequirement[] } | { readonly kind: 'invalid' };

const NOTHING: SelectorResult = Object.freeze({ kind: 'nothing' });
const INVALID: SelectorResult = Object.freeze({ kind: 'invalid' });

export function selectorOf(selector: unknown): SelectorResult {
  if (selector === undefined || selector === null || typeof selector !== 'object') return NOTHING;
  try {
    return { kind: 'requirements', reqs: labelSelectorRequirements(selector as LabelSelector) };
  } catch (err) {
    if (err instanceof LabelSelectorError) return INVALID;
    throw err;
  }
}

function isEmptySelector(selector: Json): boolean {
  const expressions = selector.matchExpressions;
  return !hasOwnMember(objectAt(selector, 'matchLabels')) && !(Array.isArray(expressions) && expressions.length > 0);
}

/** Whether an object has any own enumerable member (Object.keys(o).length > 0, without the array). */
function hasOwnMember(o: Json | undefined): boolean {
  for (const k in o) if (Object.hasOwn(o!, k)) return true;
  return false;
}

/**
 * The selector a Deployment, ReplicaSet or StatefulSet must have: present,
 * valid, not empty ("empty selector is invalid for <word>"), convertible.
 */
export function validateRequiredSelector(spec: Json, sp: FieldPath, word: string): FieldError[] {
  const errs: FieldError[] = [];
  addRequiredSelectorErrors(errs, spec, sp, word);
  return errs;
}

// The add…Errors forms below push into a list the caller holds: a workload's
// validation is many small checks that nearly always find nothing, and each
// returning (and spreading) an array of its own was most of what it allocated.

export function addRequiredSelectorErrors(errs: FieldError[], spec: Json, sp: FieldPath, word: string): void {
  const p = sp.child('selector');
  const selector = objectAt(spec, 'selector');
  if (selector === undefined) {
    errs.push(required(p));
    return;
  }
  addLabelSelectorErrors(errs, selector, p);
  if (isEmptySelector(selector)) errs.push(invalidValue(p, selector, `empty selector is invalid for ${word}`));
}

/** ValidatePodTemplateSpec: labels, annotations, the pod spec (images may come later), no ephemeral containers. */
export function validatePodTemplateSpec(template: Json, tp: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  addPodTemplateErrors(errs, template, tp);
  return errs;
}

function addPodTemplateErrors(errs: FieldError[], template: Json, tp: FieldPath): void {
  const meta = objectAt(template, 'metadata');
  const spec = objectAt(template, 'spec') ?? {};
  const labels = meta?.labels;
  if (labels !== undefined) addLabelErrors(errs, labels, tp.child('labels'));
  const annotations = objectAt(meta, 'annotations') as Record<string, string> | undefined;
  if (annotations !== undefined) addAnnotationErrors(errs, annotations, tp.child('annotations'));
  addPodSpecErrors(errs, spec, tp.child('spec'), TEMPLATE_POD_SPEC);
  addTemplateEphemeralErrors(errs, spec, tp.child('spec'));
}

const TEMPLATE_POD_SPEC: PodSpecOptions = Object.freeze({ isPod: false });

/** The selector agrees with the template labels; an absent selector selects nothing, so it never does. */
export function validateSelectorMatchesTemplate(selector: SelectorResult, template: Json, tp: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  addSelectorMatchErrors(errs, selector, template, tp);
  return errs;
}

function addSelectorMatchErrors(errs: FieldError[], selector: SelectorResult, template: Json, tp: FieldPath): void {
  if (selector.kind === 'invalid') return;
  // An empty selector (every pod) is refused on its own and checks no labels.
  if (selector.kind === 'requirements' && selector.reqs.length === 0) return;
  const labels = objectAt(objectAt(template, 'metadata'), 'labels');
  if (selector.kind === 'requirements' && matchesLabels(selector.reqs, labels)) return;
  errs.push(invalidValue(tp.child('metadata', 'labels'), labels ?? {}, '`selector` does not match template `labels`'));
}

/** What a pod managed by a long-running controller may not ask for: restartPolicy other than Always, a deadline. */
export function validateLongRunningTemplate(template: Json, tp: FieldPath, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  addLongRunningErrors(errs, template, tp, kind);
  return errs;
}

function addLongRunningErrors(errs: FieldError[], template: Json, tp: FieldPath, kind: string): void {
  const spec = objectAt(template, 'spec');
  const restartPolicy = stringAt(spec, 'restartPolicy');
  if (restartPolicy !== 'Always') errs.push(notSupported(tp.child('spec', 'restartPolicy'), restartPolicy, ALWAYS));
  if (spec?.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(forbiddenField(tp.child('spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`));
  }
}

const ALWAYS = ['Always'] as const;

/**
 * ValidatePodTemplateSpecForReplicaSet (Deployments and ReplicaSets): the
 * selector matches, the template is a valid pod template, and its pods run for
 * good. `selectorError` is kube's text when the selector does not convert.
 */
export function addReplicatedTemplateErrors(errs: FieldError[], spec: Json, sp: FieldPath, selectorError: string): void {
  const selector = selectorOf(spec.selector);
  if (selector.kind === 'invalid') {
    errs.push(invalidValue(sp.child('selector'), spec.selector, selectorError));
    return;
  }
  const tp = sp.child('template');
  const template = objectAt(spec, 'template') ?? {};
  addSelectorMatchErrors(errs, selector, template, tp);
  addPodTemplateErrors(errs, template, tp);
  addLongRunningErrors(errs, template, tp, 'ReplicaSet');
}

/** Fields of a spec that must be non-negative when set. */
export function validateNonnegativeFields(obj: Json | undefined, fields: readonly string[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  addNonnegativeFieldErrors(errs, obj, fields, p);
  return errs;
}

export function addNonnegativeFieldErrors(errs: FieldError[], obj: Json | undefined, fields: readonly string[], p: FieldPath): void {
  // The path is made only for a field that is refused.
  for (const f of fields) if (isNegative(obj?.[f])) errs.push(...validateNonnegative(obj?.[f], p.child(f)));
}

export function isNegative(value: unknown): boolean {
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
  const name = obj.metadata.name ?? '';
  // Nearly every name is a label: the check that makes no list is asked first.
  if (name === '' || matchesDNS1123Label(name)) return [];
  return [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${isDNS1123Label(name).join(' ')}]`];
}

const SPEC_TEMPLATE = path('spec', 'template');

/** GetWarningsForPodTemplate at spec.template: on create, and on update when the generation moved (kube's apps strategies). */
export function specTemplateWarnings(obj: KubeObject, prev: KubeObject | undefined): string[] {
  return workloadTemplateWarnings(obj, prev, SPEC_TEMPLATE, objectAt(objectAt(obj, 'spec'), 'template'));
}

/** A Deployment's or ReplicaSet's warnings: its name (on create), then its template's, in one list. */
export function replicatedWarnings(obj: KubeObject, prev: KubeObject | undefined): string[] {
  const out = prev === undefined ? dnsLabelNameWarning(obj) : [];
  addWorkloadTemplateWarnings(out, obj, prev, SPEC_TEMPLATE, objectAt(objectAt(obj, 'spec'), 'template'));
  return out;
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
