// Jobs: run pods to completion. Kube defaults the counts, modes and policies
// (defaultJobSpec), and on create generates the selector
// `batch.kubernetes.io/controller-uid=<uid>` and the template labels that match
// it unless manualSelector is set; most of the spec is immutable afterwards. The
// job controller owns status and writes it through /status.
import { defineResource } from '../../../registry/define-resource.js';
import type { WriteContext } from '../../../registry/strategy.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, duplicate, invalidValue, path, required } from '../../../schema/field-errors.js';
import { ownField } from '../../../schema/field-path.js';
import { deepEqual, validateImmutableField, validateNonnegative } from '../../../registry/validation/common.js';
import { validateLabelSelector } from '../../../registry/validation/label-selector.js';
import { isDNS1123Label } from '../../../registry/validation/names.js';
import { labelSelectorRequirements, matchesLabels, type LabelSelector } from '../../../schema/label-selector.js';
import { type Json, bumpGenerationIfChanged, ensureObject, objectAt } from '../../core/v1/helpers.js';
import { defaultJobSpec, isSet, validateJobSpecFields } from './job-spec.js';
import { jobTable } from './jobs-table.js';
import { workloadTemplateWarnings } from '../../core/v1/pod-warnings.js';

export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
export const LEGACY_JOB_NAME_LABEL = 'job-name';

function specOf(job: KubeObject): Json {
  return objectAt(job, 'spec') ?? {};
}

function templateLabels(spec: Json): Record<string, string> | undefined {
  return objectAt(objectAt(objectAt(spec, 'template'), 'metadata'), 'labels') as Record<string, string> | undefined;
}

/** A Job without labels of its own takes its template's (SetDefaults_Job). */
function defaultJobLabels(job: KubeObject): void {
  const labels = templateLabels(specOf(job));
  if (labels !== undefined && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...labels };
}

function applyDefaults(job: KubeObject): void {
  defaultJobSpec(ensureObject(job, 'spec'));
  defaultJobLabels(job);
}

/**
 * generateSelector: the template gets the job-name and controller-uid labels
 * (both the prefixed and the legacy keys) unless the client set them, and the
 * selector matches the uid. Labels the client set wrongly are validation's to refuse.
 */
function generateSelector(job: KubeObject): void {
  const spec = ensureObject(job, 'spec');
  const meta = ensureObject(ensureObject(spec, 'template'), 'metadata');
  const labels = ensureObject(meta, 'labels') as Record<string, unknown>;
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  for (const key of [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL]) if (!Object.hasOwn(labels, key)) labels[key] = name;
  for (const key of [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL]) if (!Object.hasOwn(labels, key)) labels[key] = uid;
  const selector = ensureObject(spec, 'selector');
  const matchLabels = ensureObject(selector, 'matchLabels');
  if (!Object.hasOwn(matchLabels, CONTROLLER_UID_LABEL)) matchLabels[CONTROLLER_UID_LABEL] = uid;
}

function prepareForCreate(job: KubeObject): void {
  if (specOf(job).manualSelector !== true) generateSelector(job);
  // kube defaults again whenever it reads the stored Job, so the generated
  // template labels become the Job's own when it had none: done here once.
  defaultJobLabels(job);
  delete job.status;
  job.metadata.generation = 1;
}

/** A selector as matching requirements; undefined when it does not convert (its own errors say why). */
function selectorMatches(selector: unknown, labels: Record<string, unknown> | undefined): boolean | undefined {
  if (selector === undefined || selector === null) return false;
  try {
    return matchesLabels(labelSelectorRequirements(selector as LabelSelector), labels);
  } catch {
    return undefined;
  }
}

/** ValidateHasLabel: the template carries key=value. */
function validateHasLabel(labels: Record<string, unknown> | undefined, p: FieldPath, key: string, value: string): FieldError[] {
  const lp = p.child('labels').key(key);
  if (labels === undefined || !Object.hasOwn(labels, key)) return [required(lp, value)];
  return labels[key] === value ? [] : [invalidValue(lp, labels, value)];
}

function validateGeneratedSelector(job: KubeObject, requirePrefixedLabels: boolean): FieldError[] {
  const spec = specOf(job);
  if (spec.manualSelector === true || !isSet(spec.selector)) return [];
  const errs: FieldError[] = [];
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  if (uid === '') errs.push(required(path('metadata', 'uid')));
  const tp = path('spec', 'template', 'metadata');
  const labels = templateLabels(spec);
  errs.push(...validateHasLabel(labels, tp, LEGACY_CONTROLLER_UID_LABEL, uid));
  errs.push(...validateHasLabel(labels, tp, LEGACY_JOB_NAME_LABEL, name));
  const expected: Record<string, string> = {};
  if (requirePrefixedLabels) {
    errs.push(...validateHasLabel(labels, tp, CONTROLLER_UID_LABEL, uid));
    errs.push(...validateHasLabel(labels, tp, JOB_NAME_LABEL, name));
    expected[CONTROLLER_UID_LABEL] = uid;
    expected[JOB_NAME_LABEL] = name;
  }
  expected[LEGACY_CONTROLLER_UID_LABEL] = uid;
  expected[LEGACY_JOB_NAME_LABEL] = name;
  if (selectorMatches(spec.selector, expected) === false) errs.push(invalidValue(path('spec', 'selector'), spec.selector, '`selector` not auto-generated'));
  return errs;
}

/** ValidateJobSpec: the shared fields, then the selector a Job must have and its match with the template. */
function validateJobSpec(spec: Json, allowInvalidLabelValueInSelector: boolean): FieldError[] {
  const sp = path('spec');
  const errs = validateJobSpecFields(spec, sp);
  if (!isSet(spec.selector)) errs.push(required(sp.child('selector')));
  else errs.push(...validateLabelSelector(spec.selector, sp.child('selector'), { allowInvalidLabelValueInSelector }));
  const labels = templateLabels(spec);
  if (selectorMatches(spec.selector, labels) === false) {
    errs.push(invalidValue(sp.child('template', 'metadata', 'labels'), labels ?? {}, '`selector` does not match template `labels`'));
  }
  return errs;
}

interface JobValidationOptions {
  readonly requirePrefixedLabels: boolean;
  readonly allowInvalidLabelValueInSelector: boolean;
}

function validateJobWith(job: KubeObject, opts: JobValidationOptions): FieldError[] {
  const spec = specOf(job);
  const errs = [...validateGeneratedSelector(job, opts.requirePrefixedLabels), ...validateJobSpec(spec, opts.allowInvalidLabelValueInSelector)];
  const completions = spec.completions;
  if (spec.completionMode === 'Indexed' && typeof completions === 'number' && completions > 0) {
    // Pods of an Indexed Job are named <job>-<index>; the largest must be a DNS label.
    const name = job.metadata.name ?? '';
    const hostname = `${name}-${completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) {
      errs.push(invalidValue(path('metadata', 'name'), name, `will not able to create pod with invalid DNS label: ${hostname}`));
    }
  }
  return errs;
}

export function validateJob(job: KubeObject): FieldError[] {
  return validateJobWith(job, { requirePrefixedLabels: true, allowInvalidLabelValueInSelector: false });
}

function hasInvalidLabelValueInSelector(selector: unknown): boolean {
  return validateLabelSelector(selector, path('s')).some((e) => e.field.startsWith('s.matchExpressions'));
}

/**
 * Node affinity, node selector, tolerations, scheduling gates and template
 * labels and annotations may change while a Job is suspended and has never
 * started; the rest of the template may not.
 */
function validateTemplateUpdate(spec: Json, prevSpec: Json, suspendedNeverStarted: boolean): FieldError[] {
  const template = objectAt(spec, 'template') ?? {};
  let old: Json = objectAt(prevSpec, 'template') ?? {};
  if (suspendedNeverStarted) {
    old = structuredClone(old);
    const oldSpec = ensureObject(old, 'spec');
    const newSpec = objectAt(template, 'spec') ?? {};
    const oldMeta = ensureObject(old, 'metadata');
    const newMeta = objectAt(template, 'metadata') ?? {};
    const newAffinity = objectAt(newSpec, 'affinity');
    const oldAffinity = objectAt(oldSpec, 'affinity');
    if (newAffinity === undefined && oldAffinity !== undefined) {
      delete oldAffinity.nodeAffinity;
      if (Object.keys(oldAffinity).length === 0) delete oldSpec.affinity;
    } else if (newAffinity !== undefined && oldAffinity === undefined) {
      oldSpec.affinity = newAffinity.nodeAffinity === undefined ? {} : { nodeAffinity: newAffinity.nodeAffinity };
    } else if (newAffinity !== undefined && oldAffinity !== undefined) {
      if (newAffinity.nodeAffinity === undefined) delete oldAffinity.nodeAffinity;
      else oldAffinity.nodeAffinity = newAffinity.nodeAffinity;
    }
    for (const f of ['nodeSelector', 'tolerations', 'schedulingGates'] as const) {
      if (newSpec[f] === undefined) delete oldSpec[f];
      else oldSpec[f] = newSpec[f];
    }
    for (const f of ['annotations', 'labels'] as const) {
      if (newMeta[f] === undefined) delete oldMeta[f];
      else oldMeta[f] = newMeta[f];
    }
  }
  return validateImmutableField(template, old, path('spec', 'template'));
}

/** Completions may change only for an Indexed Job, and only together with parallelism (ElasticIndexedJob). */
function validateCompletionsUpdate(spec: Json, prevSpec: Json): FieldError[] {
  const p = path('spec', 'completions');
  if (spec.completionMode !== 'Indexed') return validateImmutableField(spec.completions, prevSpec.completions, p);
  if (deepEqual(spec.completions, prevSpec.completions) || !isSet(spec.completions)) return [];
  return spec.completions !== spec.parallelism ? [invalidValue(p, spec.completions, 'can only be modified in tandem with spec.parallelism')] : [];
}

function validateJobUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  const spec = specOf(next);
  const prevSpec = specOf(prev);
  const prevLabels = templateLabels(prevSpec) ?? {};
  const opts: JobValidationOptions = {
    // Jobs stored before the prefixed labels existed stay writable.
    requirePrefixedLabels: Object.hasOwn(prevLabels, JOB_NAME_LABEL) && Object.hasOwn(prevLabels, CONTROLLER_UID_LABEL),
    allowInvalidLabelValueInSelector: hasInvalidLabelValueInSelector(prevSpec.selector),
  };
  const suspendedNeverStarted = prevSpec.suspend === true && !isSet(objectAt(prev, 'status')?.startTime);
  const sp = path('spec');
  // kube runs ValidateJobSpec both from ValidateJob and from ValidateJobSpecUpdate,
  // so a bad spec field is reported twice on update, as here.
  return [
    ...validateJobWith(next, opts),
    ...validateJobSpec(spec, opts.allowInvalidLabelValueInSelector),
    ...validateCompletionsUpdate(spec, prevSpec),
    ...validateImmutableField(spec.selector, prevSpec.selector, sp.child('selector')),
    ...validateTemplateUpdate(spec, prevSpec, suspendedNeverStarted),
    ...validateImmutableField(spec.completionMode, prevSpec.completionMode, sp.child('completionMode')),
    ...validateImmutableField(spec.podFailurePolicy, prevSpec.podFailurePolicy, sp.child('podFailurePolicy')),
    ...validateImmutableField(spec.backoffLimitPerIndex, prevSpec.backoffLimitPerIndex, sp.child('backoffLimitPerIndex')),
    ...validateImmutableField(spec.managedBy, prevSpec.managedBy, sp.child('managedBy')),
    ...validateImmutableField(spec.successPolicy, prevSpec.successPolicy, sp.child('successPolicy')),
  ];
}

/** A status write: counters not negative, and each uncounted pod uid non-empty and listed once (validateJobStatus's unconditional part). */
function validateJobStatusUpdate(next: KubeObject): FieldError[] {
  const status = objectAt(next, 'status') ?? {};
  const p = path('status');
  const errs = ['active', 'succeeded', 'failed', 'ready', 'terminating'].flatMap((f) => validateNonnegative(status[f], p.child(f)));
  const uncounted = objectAt(status, 'uncountedTerminatedPods');
  const seen = new Set<string>();
  for (const list of ['succeeded', 'failed'] as const) {
    const uids = ownField(uncounted, list);
    if (!Array.isArray(uids)) continue;
    uids.forEach((uid, i) => {
      const up = p.child('uncountedTerminatedPods', list).index(i);
      if (uid === '') errs.push(invalidValue(up, uid, 'must not be empty'));
      else if (seen.has(String(uid))) errs.push(duplicate(up, uid));
      else seen.add(String(uid));
    });
  }
  return errs;
}

/** WarningsOnCreate (the name, then the pod template) and WarningsOnUpdate (the template, when the generation moved). */
function warnings(job: KubeObject, prev: KubeObject | undefined, ctx: WriteContext): string[] {
  const template = workloadTemplateWarnings(job, prev, path('spec', 'template'), objectAt(objectAt(job, 'spec'), 'template'));
  if (ctx.operation !== 'CREATE') return template;
  const msgs = isDNS1123Label(job.metadata.name ?? '');
  if (msgs.length === 0) return template;
  return [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`, ...template];
}

export const jobs = defineResource({
  group: 'batch',
  version: 'v1',
  kind: 'Job',
  plural: 'jobs',
  scope: 'Namespaced',
  categories: ['all'],
  table: jobTable,
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: applyDefaults,
    prepareForCreate,
    prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
    validate: validateJob,
    validateUpdate: validateJobUpdate,
    warnings,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    selectableFields: (job) => ({ 'status.successful': String(objectAt(job, 'status')?.succeeded ?? 0) }),
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: validateJobStatusUpdate },
  },
});
