// CronJobs: a Job template run on a schedule. Kube defaults the concurrency
// policy, suspend and the history limits, checks the schedule with its cron
// parser (time zones go in spec.timeZone, not in the schedule) and the job
// template with the Job rules; the generated selector is the Jobs' own, so a
// template may not carry one. The cronjob controller writes status via /status.
import { defineResource } from '../../../registry/define-resource.js';
import type { WriteContext } from '../../../registry/strategy.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { validateNonnegative } from '../../../registry/validation/common.js';
import { isDNS1123Label } from '../../../registry/validation/names.js';
import { type Json, bumpGenerationIfChanged, ensureObject, objectAt, setDefault } from '../../core/v1/helpers.js';
import { defaultTemplate } from '../../core/v1/pod-templates.js';
import { workloadTemplateWarnings } from '../../core/v1/pod-warnings.js';
import { cronJobTable } from './cron-jobs-table.js';
import { cronScheduleError, loadLocationError } from './cron-schedule.js';
import { isSet, validateJobSpecFields } from './job-spec.js';

const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'] as const;
/** Jobs are named <cronjob>-<11-character timestamp>, and a Job name is at most 63 characters. */
const MAX_CRONJOB_NAME_LENGTH = 52;
/** Each component of an IANA zone name (digits and + tolerated for legacy names). */
const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

function specOf(cj: KubeObject): Json {
  return objectAt(cj, 'spec') ?? {};
}

/** SetDefaults_CronJob, plus the pod defaults of the template (the Job defaults apply only to Jobs). */
function applyDefaults(cj: KubeObject): void {
  const spec = ensureObject(cj, 'spec');
  setDefault(spec, 'concurrencyPolicy', 'Allow');
  if (!isSet(spec.suspend)) spec.suspend = false;
  if (!isSet(spec.successfulJobsHistoryLimit)) spec.successfulJobsHistoryLimit = 3;
  if (!isSet(spec.failedJobsHistoryLimit)) spec.failedJobsHistoryLimit = 1;
  // The job template, its spec and its pod template are structs in kube, so they are always there to default.
  defaultTemplate(ensureObject(ensureObject(ensureObject(spec, 'jobTemplate'), 'spec'), 'template'));
}

function validateSchedule(schedule: string, allowTZ: boolean, timeZone: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const parseErr = cronScheduleError(schedule);
  if (parseErr !== undefined) errs.push(invalidValue(p, schedule, parseErr));
  if (allowTZ && schedule.includes('TZ') && isSet(timeZone)) errs.push(invalidValue(p, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  else if (!allowTZ && schedule.includes('TZ')) errs.push(invalidValue(p, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  return errs;
}

export function validateTimeZone(timeZone: unknown, p: FieldPath): FieldError[] {
  if (typeof timeZone !== 'string') return [];
  if (timeZone === '') return [invalidValue(p, timeZone, 'timeZone must be nil or non-empty string')];
  for (const part of timeZone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part)) return [invalidValue(p, timeZone, `unknown time zone ${timeZone}`)];
  }
  const errs: FieldError[] = [];
  if (timeZone.toLowerCase() === 'local') errs.push(invalidValue(p, timeZone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  const loadErr = loadLocationError(timeZone);
  if (loadErr !== undefined) errs.push(invalidValue(p, timeZone, loadErr));
  return errs;
}

/** ValidateJobTemplateSpec: the Job rules, and no selector of its own. */
function validateJobTemplate(template: Json | undefined, p: FieldPath): FieldError[] {
  const spec = objectAt(template, 'spec') ?? {};
  const sp = p.child('spec');
  const errs = validateJobSpecFields(spec, sp);
  if (isSet(spec.selector)) errs.push(invalidValue(sp.child('selector'), spec.selector, '`selector` will be auto-generated'));
  if (spec.manualSelector === true) errs.push(notSupported(sp.child('manualSelector'), true, ['nil', 'false']));
  return errs;
}

function validateCronJobSpec(spec: Json, prevSpec: Json | undefined): FieldError[] {
  const sp = path('spec');
  const errs: FieldError[] = [];
  const schedule = typeof spec.schedule === 'string' ? spec.schedule : '';
  if (schedule === '') errs.push(required(sp.child('schedule')));
  else {
    // A CronJob stored with TZ in its schedule (before timeZone existed) stays writable.
    const allowTZ = prevSpec !== undefined && typeof prevSpec.schedule === 'string' && prevSpec.schedule.includes('TZ');
    errs.push(...validateSchedule(schedule, allowTZ, spec.timeZone, sp.child('schedule')));
  }
  errs.push(...validateNonnegative(spec.startingDeadlineSeconds, sp.child('startingDeadlineSeconds')));
  if (prevSpec === undefined || prevSpec.timeZone !== spec.timeZone) errs.push(...validateTimeZone(spec.timeZone, sp.child('timeZone')));
  const policy = typeof spec.concurrencyPolicy === 'string' ? spec.concurrencyPolicy : '';
  if (policy === '') errs.push(required(sp.child('concurrencyPolicy')));
  else if (!(CONCURRENCY_POLICIES as readonly string[]).includes(policy)) errs.push(notSupported(sp.child('concurrencyPolicy'), policy, CONCURRENCY_POLICIES));
  errs.push(...validateJobTemplate(objectAt(spec, 'jobTemplate'), sp.child('jobTemplate')));
  errs.push(...validateNonnegative(spec.successfulJobsHistoryLimit, sp.child('successfulJobsHistoryLimit')));
  errs.push(...validateNonnegative(spec.failedJobsHistoryLimit, sp.child('failedJobsHistoryLimit')));
  return errs;
}

export function validateCronJob(cj: KubeObject): FieldError[] {
  const errs = validateCronJobSpec(specOf(cj), undefined);
  const name = cj.metadata.name ?? '';
  if (name.length > MAX_CRONJOB_NAME_LENGTH) errs.push(invalidValue(path('metadata', 'name'), name, `must be no more than ${MAX_CRONJOB_NAME_LENGTH} characters`));
  return errs;
}

/** WarningsOnCreate (the name, then the job template's pod template) and WarningsOnUpdate (the template, when the generation moved). */
function warnings(cj: KubeObject, prev: KubeObject | undefined, ctx: WriteContext): string[] {
  const jobSpec = objectAt(objectAt(objectAt(cj, 'spec'), 'jobTemplate'), 'spec');
  const template = workloadTemplateWarnings(cj, prev, path('spec', 'jobTemplate', 'spec', 'template'), objectAt(jobSpec, 'template'));
  if (ctx.operation !== 'CREATE') return template;
  const msgs = isDNS1123Label(cj.metadata.name ?? '');
  if (msgs.length === 0) return template;
  return [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`, ...template];
}

export const cronJobs = defineResource({
  group: 'batch',
  version: 'v1',
  kind: 'CronJob',
  plural: 'cronjobs',
  scope: 'Namespaced',
  shortNames: ['cj'],
  categories: ['all'],
  table: cronJobTable,
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: applyDefaults,
    prepareForCreate: (cj) => {
      delete cj.status;
      cj.metadata.generation = 1;
    },
    prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
    validate: validateCronJob,
    // The 52-character name limit holds on create only, so older CronJobs stay writable.
    validateUpdate: (next, prev) => validateCronJobSpec(specOf(next), specOf(prev)),
    warnings,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: () => [] },
  },
});
