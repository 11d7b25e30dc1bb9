// CronJob rules through the real registry: kube's defaults, the schedule parser
// (fields, names, ranges, steps, descriptors, TZ refused), time zones, the job
// template through the Job rules, updates and status.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { cronJobs } from '../../../src/apis/batch/v1/cron-jobs.js';
import { cronScheduleError } from '../../../src/apis/batch/v1/cron-schedule.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

type Spec = Record<string, unknown>;
const jobTemplate = { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } };
const cron = (spec: Spec, name = 'cj'): KubeObject => ({ metadata: { name, namespace: 'ns' }, spec: { schedule: '*/5 * * * *', jobTemplate, ...spec } });

describe('schedule syntax', () => {
  const cases: { schedule: string; want: string | undefined }[] = [
    { schedule: '0 0 * * *', want: undefined },
    { schedule: '*/15 9-17 * * mon-fri', want: undefined },
    { schedule: '0 0 1 JAN,jul ?', want: undefined },
    { schedule: '5/10 0-23/2 1-31 1-12 0-6', want: undefined },
    { schedule: '@hourly', want: undefined },
    { schedule: '@annually', want: undefined },
    { schedule: '@every 1h30m', want: undefined },
    { schedule: 'TZ=UTC 0 * * * *', want: undefined },
    { schedule: '', want: 'empty spec string' },
    { schedule: '* * *', want: 'expected exactly 5 fields, found 3: [* * *]' },
    { schedule: '* * * * * *', want: 'expected exactly 5 fields, found 6: [* * * * * *]' },
    { schedule: '60 * * * *', want: 'end of range (60) above maximum (59): 60' },
    { schedule: '* * 0 * *', want: 'beginning of range (0) below minimum (1): 0' },
    { schedule: '* * * * 7', want: 'end of range (7) above maximum (6): 7' },
    { schedule: '5-1 * * * *', want: 'beginning of range (5) beyond end of range (1): 5-1' },
    { schedule: '*/0 * * * *', want: 'step of range should be a positive number: */0' },
    { schedule: '1-2-3 * * * *', want: 'too many hyphens: 1-2-3' },
    { schedule: '*/2/3 * * * *', want: 'too many slashes: */2/3' },
    { schedule: 'a * * * *', want: 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax' },
    { schedule: '* * * foo *', want: 'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax' },
    { schedule: '@weekly2', want: 'unrecognized descriptor: @weekly2' },
    { schedule: '@every 5', want: 'failed to parse duration @every 5: time: missing unit in duration "5"' },
    { schedule: 'TZ=Mars/Olympus * * * * *', want: 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus' },
  ];
  for (const c of cases) {
    test(JSON.stringify(c.schedule), () => {
      expect(cronScheduleError(c.schedule)).toBe(c.want);
    });
  }
});

describe('defaults', () => {
  test('concurrencyPolicy, suspend, history limits; the template gets pod defaults but no Job defaults', async () => {
    const got = await h.create(cronJobs, cron({}));
    expect(got.errors).toEqual([]);
    const spec = got.stored!.spec as Spec;
    expect(spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    const jobSpec = (spec.jobTemplate as { spec: Spec }).spec;
    expect(jobSpec.backoffLimit).toBeUndefined();
    expect(jobSpec.selector).toBeUndefined();
    expect(jobSpec.template).toMatchObject({ spec: { dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' } });
    expect(got.stored!.metadata.generation).toBe(1);
  });

  test('values the client set are kept', async () => {
    const got = await h.create(cronJobs, cron({ concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 5 }));
    expect(got.stored!.spec).toMatchObject({ concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 5 });
  });
});

const createCases: { name: string; input: KubeObject; want: string[] }[] = [
  { name: 'schedule required', input: cron({ schedule: '' }), want: ['spec.schedule: Required value'] },
  { name: 'bad schedule', input: cron({ schedule: '* * *' }), want: ['spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]'] },
  { name: 'TZ in schedule', input: cron({ schedule: 'TZ=UTC 0 * * * *' }), want: ['spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead'] },
  {
    name: 'CRON_TZ with a bad zone',
    input: cron({ schedule: 'CRON_TZ=Nowhere 0 * * * *' }),
    want: [
      'spec.schedule: Invalid value: "CRON_TZ=Nowhere 0 * * * *": provided bad location Nowhere: unknown time zone Nowhere',
      'spec.schedule: Invalid value: "CRON_TZ=Nowhere 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ],
  },
  { name: 'known time zone', input: cron({ timeZone: 'America/New_York' }), want: [] },
  { name: 'UTC', input: cron({ timeZone: 'UTC' }), want: [] },
  { name: 'unknown time zone', input: cron({ timeZone: 'Mars/Olympus' }), want: ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus'] },
  { name: 'time zone in another case', input: cron({ timeZone: 'america/new_york' }), want: ['spec.timeZone: Invalid value: "america/new_york": unknown time zone america/new_york'] },
  { name: 'empty time zone', input: cron({ timeZone: '' }), want: ['spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string'] },
  { name: 'Local time zone', input: cron({ timeZone: 'Local' }), want: ['spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'] },
  { name: 'time zone path tricks', input: cron({ timeZone: '../etc/passwd' }), want: ['spec.timeZone: Invalid value: "../etc/passwd": unknown time zone ../etc/passwd'] },
  { name: 'negative startingDeadlineSeconds', input: cron({ startingDeadlineSeconds: -1 }), want: ['spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0'] },
  { name: 'unknown concurrencyPolicy', input: cron({ concurrencyPolicy: 'Sometimes' }), want: ['spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"'] },
  { name: 'negative history limit', input: cron({ failedJobsHistoryLimit: -1 }), want: ['spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0'] },
  {
    name: 'template may not carry a selector or manualSelector',
    input: cron({ jobTemplate: { spec: { ...jobTemplate.spec, selector: { matchLabels: { a: 'b' } }, manualSelector: true } } }),
    want: [
      'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
    ],
  },
  {
    name: 'template through the Job rules',
    input: cron({ jobTemplate: { spec: { parallelism: -1, template: { spec: { restartPolicy: 'Always', containers: [{ name: 'c', image: 'busybox' }] } } } } }),
    want: ['spec.jobTemplate.spec.parallelism: Invalid value: -1: must be greater than or equal to 0', 'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
  },
  { name: 'name of 52 characters', input: cron({}, 'a'.repeat(52)), want: [] },
  { name: 'name of 53 characters', input: cron({}, 'a'.repeat(53)), want: [`metadata.name: Invalid value: "${'a'.repeat(53)}": must be no more than 52 characters`] },
];

describe('create validation', () => {
  for (const c of createCases) {
    test(c.name, async () => {
      const got = await h.create(cronJobs, c.input);
      expect(got.errors).toEqual(c.want);
      if (c.want.length > 0) expect(got.stored).toBeUndefined();
      else expect(got.stored).toEqual(got.object);
    });
  }
});

describe('updates and status', () => {
  test('schedule changes bump generation; status is kept from the store', async () => {
    const obj = (await h.create(cronJobs, cron({}))).object!;
    const got = await h.update(cronJobs, { ...obj, spec: { ...(obj.spec as Spec), schedule: '0 0 * * *' }, status: { lastScheduleTime: '2026-01-01T00:00:00Z' } });
    expect(got.errors).toEqual([]);
    expect(got.stored!.metadata.generation).toBe(2);
    expect(got.stored!.status).toBeUndefined();
  });

  test('an unchanged stored time zone is not checked again; a changed one is', async () => {
    const obj = (await h.create(cronJobs, cron({ timeZone: 'Europe/Paris' }))).object!;
    const bad = await h.update(cronJobs, { ...obj, spec: { ...(obj.spec as Spec), timeZone: 'Europe/Nowhere' } });
    expect(bad.errors).toEqual(['spec.timeZone: Invalid value: "Europe/Nowhere": unknown time zone Europe/Nowhere']);
  });

  test('status writes land through /status', async () => {
    const obj = (await h.create(cronJobs, cron({}))).object!;
    const status = { active: [{ kind: 'Job', name: 'cj-1', namespace: 'ns' }], lastScheduleTime: '2026-01-02T03:00:00Z' };
    const got = await h.updateStatus(cronJobs, { ...obj, status });
    expect(got.errors).toEqual([]);
    expect(got.stored!.status).toEqual(status);
    expect(got.stored!.metadata.generation).toBe(1);
  });
});

describe('missing and hostile input is data', () => {
  test('no spec: the schedule and the template are required', async () => {
    const got = await h.create(cronJobs, { metadata: { name: 'cj', namespace: 'ns' } });
    expect(got.errors).toEqual([
      'spec.schedule: Required value',
      'spec.jobTemplate.spec.template.spec.containers: Required value',
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]);
  });

  test('a huge schedule is refused, not parsed forever', () => {
    expect(cronScheduleError(`${'1,'.repeat(100_000)}1 * * * *`)).toBeUndefined();
    expect(cronScheduleError(`${'9'.repeat(400)} * * * *`)).toBe(`failed to parse int from ${'9'.repeat(400)}: strconv.Atoi: parsing "${'9'.repeat(400)}": value out of range`);
  });
});
