// The JobSpec rules Jobs and CronJob job templates share: kube's SetDefaults_Job
// and validateJobSpec (counts, completion modes, pod failure and success
// policies, the pod template through the core pod-spec rules, and the restart
// policies a Job's pods may have). Messages and their order are kube-apiserver's.
import { type FieldError, type FieldPath, duplicate, invalidValue, notSupported, required, tooLong, tooMany } from '../../../schema/field-errors.js';
import { validateNonnegative } from '../../../registry/validation/common.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../../registry/validation/names.js';
import { regexError } from '../../../schema/label-selector.js';
import { type Json, arrayAt, ensureObject, objectAt, setDefault, stringAt } from '../../core/v1/helpers.js';
import { defaultTemplate, validateTemplate } from '../../core/v1/pod-templates.js';
import { ownField } from '../../../schema/field-path.js';

const MAX_INT32 = 2147483647;
const MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000;
const MAX_FAILED_INDEXES_FOR_INDEXED_JOB = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_POD_FAILURE_POLICY_RULES = 20;
const MAX_ON_EXIT_CODES_VALUES = 255;
const MAX_ON_POD_CONDITIONS_PATTERNS = 20;
const MAX_MANAGED_BY_LENGTH = 63;
const MAX_SUCCESS_POLICY_RULES = 20;
const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;

// Sorted, as kube's sets.List prints them.
const POD_FAILURE_POLICY_ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'] as const;
const ON_EXIT_CODES_OPERATORS = ['In', 'NotIn'] as const;
const CONDITION_STATUSES = ['False', 'True', 'Unknown'] as const;
const POD_REPLACEMENT_POLICIES = ['Failed', 'TerminatingOrFailed'] as const;
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

/** A field that is present (kube's non-nil pointer). */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/** Go's %q of a string list: ["a" "b"]. */
function quotedList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

/** field.Invalid with field.OmitValueType: no value in the message. */
function invalidOmitted(p: FieldPath, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: p.toString(), message: `${p}: Invalid value: ${detail}` };
}

/** SetDefaults_Job's spec part (the labels part is the Job's own, see jobs.ts). */
export function defaultJobSpec(spec: Json): void {
  if (!isSet(spec.completions) && !isSet(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  if (!isSet(spec.parallelism)) spec.parallelism = 1;
  if (!isSet(spec.backoffLimit)) spec.backoffLimit = isSet(spec.backoffLimitPerIndex) ? MAX_INT32 : 6;
  setDefault(spec, 'completionMode', 'NonIndexed');
  if (!isSet(spec.suspend)) spec.suspend = false;
  const policy = objectAt(spec, 'podFailurePolicy');
  for (const rule of arrayAt(policy, 'rules')) {
    for (const pattern of arrayAt(rule, 'onPodConditions')) setDefault(pattern, 'status', 'True');
  }
  setDefault(spec, 'podReplacementPolicy', policy !== undefined ? 'Failed' : 'TerminatingOrFailed');
  if (!isSet(spec.manualSelector)) spec.manualSelector = false;
  defaultTemplate(ensureObject(spec, 'template'));
}

function validateManagedBy(value: string, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host === '' || rest === '') {
    errs.push(invalidValue(p, value, 'must be a domain-prefixed path (such as "acme.io/foo")'));
  } else {
    for (const msg of isDNS1123Subdomain(host)) errs.push(invalidValue(p, host, msg));
    if (!new RegExp(`^${HTTP_PATH_FMT}$`).test(rest)) errs.push(invalidValue(p, rest, regexError('Invalid path', HTTP_PATH_FMT)));
  }
  if (value.length > MAX_MANAGED_BY_LENGTH) errs.push(tooLong(p, MAX_MANAGED_BY_LENGTH));
  return errs;
}

function validateOnExitCodes(req: Json, p: FieldPath, containerNames: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const operator = stringAt(req, 'operator');
  if (operator === '') errs.push(required(p.child('operator'), `valid values: ${quotedList(ON_EXIT_CODES_OPERATORS)}`));
  else if (!(ON_EXIT_CODES_OPERATORS as readonly string[]).includes(operator)) errs.push(notSupported(p.child('operator'), operator, ON_EXIT_CODES_OPERATORS));
  if (isSet(req.containerName) && !containerNames.has(String(req.containerName))) {
    errs.push(invalidValue(p.child('containerName'), req.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const vp = p.child('values');
  const raw = ownField(req, 'values');
  const values = Array.isArray(raw) ? raw.filter((v): v is number => typeof v === 'number') : [];
  if (values.length === 0) errs.push(invalidValue(vp, values, 'at least one value is required'));
  else if (values.length > MAX_ON_EXIT_CODES_VALUES) errs.push(tooMany(vp, values.length, MAX_ON_EXIT_CODES_VALUES));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (operator === 'In' && v === 0) errs.push(invalidValue(vp.index(j), v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(duplicate(vp.index(j), v));
    else seen.add(v);
    if (j > 0 && values[j - 1]! > v) ordered = false;
  });
  if (!ordered) errs.push(invalidValue(vp, values, 'must be ordered'));
  return errs;
}

function validateOnPodConditions(patterns: Json[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (patterns.length > MAX_ON_POD_CONDITIONS_PATTERNS) errs.push(tooMany(p, patterns.length, MAX_ON_POD_CONDITIONS_PATTERNS));
  patterns.forEach((pattern, j) => {
    const pp = p.index(j);
    const type = stringAt(pattern, 'type');
    for (const msg of isQualifiedName(type)) errs.push(invalidValue(pp.child('type'), type, msg));
    const status = stringAt(pattern, 'status');
    if (status === '') errs.push(required(pp.child('status'), `valid values: ${quotedList(CONDITION_STATUSES)}`));
    else if (!(CONDITION_STATUSES as readonly string[]).includes(status)) errs.push(notSupported(pp.child('status'), status, CONDITION_STATUSES));
  });
  return errs;
}

function validatePodFailurePolicy(spec: Json, policy: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const rules = arrayAt(policy, 'rules');
  const rp = p.child('rules');
  if (rules.length > MAX_POD_FAILURE_POLICY_RULES) errs.push(tooMany(rp, rules.length, MAX_POD_FAILURE_POLICY_RULES));
  const podSpec = objectAt(objectAt(spec, 'template'), 'spec');
  const containerNames = new Set([...arrayAt(podSpec, 'containers'), ...arrayAt(podSpec, 'initContainers')].map((c) => stringAt(c, 'name')));
  rules.forEach((rule, i) => {
    const p2 = rp.index(i);
    const action = stringAt(rule, 'action');
    if (action === '') errs.push(required(p2.child('action'), `valid values: ${quotedList(POD_FAILURE_POLICY_ACTIONS)}`));
    else if (action === 'FailIndex') {
      if (!isSet(spec.backoffLimitPerIndex)) errs.push(invalidValue(p2.child('action'), action, 'requires the backoffLimitPerIndex to be set'));
    } else if (!(POD_FAILURE_POLICY_ACTIONS as readonly string[]).includes(action)) {
      errs.push(notSupported(p2.child('action'), action, POD_FAILURE_POLICY_ACTIONS));
    }
    const onExitCodes = objectAt(rule, 'onExitCodes');
    const onPodConditions = arrayAt(rule, 'onPodConditions');
    if (onExitCodes !== undefined) errs.push(...validateOnExitCodes(onExitCodes, p2.child('onExitCodes'), containerNames));
    if (onPodConditions.length > 0) errs.push(...validateOnPodConditions(onPodConditions, p2.child('onPodConditions')));
    if (onExitCodes !== undefined && onPodConditions.length > 0) errs.push(invalidOmitted(p2, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (onExitCodes === undefined && onPodConditions.length === 0) errs.push(invalidOmitted(p2, 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return errs;
}

function validateSuccessPolicy(spec: Json, policy: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const rules = arrayAt(policy, 'rules');
  const rp = p.child('rules');
  if (rules.length === 0) errs.push(required(rp, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_POLICY_RULES) errs.push(tooMany(rp, rules.length, MAX_SUCCESS_POLICY_RULES));
  const completions = num(spec.completions);
  rules.forEach((rule, i) => {
    const p2 = rp.index(i);
    if (!isSet(rule.succeededCount) && !isSet(rule.succeededIndexes)) {
      errs.push(required(p2, 'at least one of succeededCount or succeededIndexes must be specified'));
    }
    if (typeof rule.succeededIndexes === 'string' && rule.succeededIndexes.length > MAX_SUCCEEDED_INDEXES_LENGTH) {
      errs.push(tooLong(p2.child('succeededIndexes'), MAX_SUCCEEDED_INDEXES_LENGTH));
    }
    const count = num(rule.succeededCount);
    if (count !== undefined) {
      const cp = p2.child('succeededCount');
      errs.push(...validateNonnegative(count, cp));
      // kube dereferences completions here; it is required in Indexed mode, so
      // an absent one has already been reported.
      if (completions !== undefined && count > completions) {
        errs.push(invalidValue(cp, count, `must be less than or equal to ${completions} (the number of specified completions)`));
      }
    }
  });
  return errs;
}

function validateCompletionMode(spec: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const mode = spec.completionMode;
  const parallelism = num(spec.parallelism);
  const completions = num(spec.completions);
  const maxFailed = num(spec.maxFailedIndexes);
  if (isSet(mode)) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(notSupported(p.child('completionMode'), mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (!isSet(spec.completions)) errs.push(required(p.child('completions'), 'when completion mode is Indexed'));
      if (parallelism !== undefined && parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB) {
        errs.push(invalidValue(p.child('parallelism'), parallelism, `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed`));
      }
      if (completions !== undefined && maxFailed !== undefined && maxFailed > completions) {
        errs.push(invalidValue(p.child('maxFailedIndexes'), maxFailed, 'must be less than or equal to completions'));
      }
      if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES_FOR_INDEXED_JOB) {
        errs.push(invalidValue(p.child('maxFailedIndexes'), maxFailed, `must be less than or equal to ${MAX_FAILED_INDEXES_FOR_INDEXED_JOB}`));
      }
      if (completions !== undefined && completions > COMPLETIONS_SOFT_LIMIT && isSet(spec.backoffLimitPerIndex)) {
        const suffix = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
        if (maxFailed === undefined) errs.push(required(p.child('maxFailedIndexes'), `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`));
        if (parallelism !== undefined && parallelism > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
          errs.push(invalidValue(p.child('parallelism'), parallelism, `must be less than or equal to ${PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} ${suffix}`));
        }
        if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS) {
          errs.push(invalidValue(p.child('maxFailedIndexes'), maxFailed, `must be less than or equal to ${MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} ${suffix}`));
        }
      }
    }
  }
  if (!isSet(mode) || mode === 'NonIndexed') {
    if (isSet(spec.backoffLimitPerIndex)) errs.push(invalidValue(p.child('backoffLimitPerIndex'), spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    if (isSet(spec.maxFailedIndexes)) errs.push(invalidValue(p.child('maxFailedIndexes'), spec.maxFailedIndexes, 'requires indexed completion mode'));
  }
  return errs;
}

/** kube's validateJobSpec: everything but the selector (which job templates may not carry). */
export function validateJobSpecFields(spec: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex'] as const) {
    errs.push(...validateNonnegative(spec[f], p.child(f)));
  }
  if (isSet(spec.maxFailedIndexes)) {
    errs.push(...validateNonnegative(spec.maxFailedIndexes, p.child('maxFailedIndexes')));
    if (!isSet(spec.backoffLimitPerIndex)) errs.push(required(p.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  if (typeof spec.managedBy === 'string') errs.push(...validateManagedBy(spec.managedBy, p.child('managedBy')));
  errs.push(...validateCompletionMode(spec, p));
  const failurePolicy = objectAt(spec, 'podFailurePolicy');
  if (failurePolicy !== undefined) errs.push(...validatePodFailurePolicy(spec, failurePolicy, p.child('podFailurePolicy')));
  const successPolicy = objectAt(spec, 'successPolicy');
  if (successPolicy !== undefined) {
    if (spec.completionMode !== 'Indexed') errs.push(invalidValue(p.child('successPolicy'), successPolicy, 'requires indexed completion mode'));
    else errs.push(...validateSuccessPolicy(spec, successPolicy, p.child('successPolicy')));
  }
  const replacement = spec.podReplacementPolicy;
  if (isSet(replacement)) {
    if (failurePolicy !== undefined) {
      if (replacement !== 'Failed') errs.push(notSupported(p.child('podReplacementPolicy'), replacement, ['Failed']));
    } else if (!(POD_REPLACEMENT_POLICIES as readonly unknown[]).includes(replacement)) {
      errs.push(notSupported(p.child('podReplacementPolicy'), replacement, POD_REPLACEMENT_POLICIES));
    }
  }
  const template = objectAt(spec, 'template');
  const tp = p.child('template');
  errs.push(...validateTemplate(template, tp));
  // The pod defaults fill Always when restartPolicy is left out, so both read as unset.
  const restartPolicy = stringAt(objectAt(template, 'spec'), 'restartPolicy');
  const rp = tp.child('spec', 'restartPolicy');
  if (restartPolicy === 'Always' || restartPolicy === '') errs.push(required(rp, 'valid values: "OnFailure", "Never"'));
  else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errs.push(notSupported(rp, restartPolicy, ['OnFailure', 'Never']));
  else if (failurePolicy !== undefined && restartPolicy !== 'Never') errs.push(invalidValue(rp, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}
