// `kubectl get` cells of jobs and cronjobs against what kube's printers show for
// the same objects.
import { describe, expect, test } from 'vitest';
import { cronJobs } from '../../../src/apis/batch/v1/cron-jobs.js';
import { jobs } from '../../../src/apis/batch/v1/jobs.js';
import type { TableCell } from '../../../src/registry/table.js';
import type { KubeObject } from '../../../src/schema/object.js';

const now = new Date('2026-01-02T03:04:05Z');
const meta = (extra: Record<string, unknown> = {}) => ({ name: 'x', creationTimestamp: '2026-01-02T03:00:05Z', ...extra });
const template = { spec: { containers: [{ name: 'a', image: 'busybox' }, { name: 'b', image: 'nginx:1' }] } };
const selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] };

test('job headers', () => {
  expect(jobs.table!.columns.map((c) => [c.name, c.priority])).toEqual([
    ['Name', 0], ['Status', 0], ['Completions', 0], ['Duration', 0], ['Age', 0], ['Containers', 1], ['Images', 1], ['Selector', 1],
  ]);
});

const jobCases: { name: string; input: KubeObject; want: TableCell[] }[] = [
  {
    name: 'running, started a minute ago',
    input: { metadata: meta(), spec: { completions: 3, template, selector }, status: { succeeded: 1, startTime: '2026-01-02T03:03:05Z' } },
    want: ['x', 'Running', '1/3', '60s', '4m', 'a,b', 'busybox,nginx:1', 'batch.kubernetes.io/controller-uid=u1,tier in (a,b)'],
  },
  {
    name: 'complete: duration from start to completion',
    input: { metadata: meta(), spec: { completions: 1 }, status: { succeeded: 1, startTime: '2026-01-02T03:00:05Z', completionTime: '2026-01-02T03:00:17Z', conditions: [{ type: 'Complete', status: 'True' }] } },
    want: ['x', 'Complete', '1/1', '12s', '4m', '', '', '<none>'],
  },
  { name: 'work queue with parallelism', input: { metadata: meta(), spec: { parallelism: 4 } }, want: ['x', 'Running', '0/1 of 4', '', '4m', '', '', '<none>'] },
  { name: 'failed', input: { metadata: meta(), spec: {}, status: { conditions: [{ type: 'Failed', status: 'True' }] } }, want: ['x', 'Failed', '0/1', '', '4m', '', '', '<none>'] },
  { name: 'terminating', input: { metadata: meta({ deletionTimestamp: '2026-01-02T03:04:00Z' }), spec: {} }, want: ['x', 'Terminating', '0/1', '', '4m', '', '', '<none>'] },
  { name: 'suspended', input: { metadata: meta(), spec: {}, status: { conditions: [{ type: 'Suspended', status: 'True' }] } }, want: ['x', 'Suspended', '0/1', '', '4m', '', '', '<none>'] },
  { name: 'a false condition is no status', input: { metadata: meta(), spec: {}, status: { conditions: [{ type: 'Complete', status: 'False' }] } }, want: ['x', 'Running', '0/1', '', '4m', '', '', '<none>'] },
];

describe('job cells', () => {
  for (const c of jobCases) test(c.name, () => expect(jobs.table!.cells(c.input, now)).toEqual(c.want));
});

test('cronjob headers', () => {
  expect(cronJobs.table!.columns.map((c) => [c.name, c.type, c.priority])).toEqual([
    ['Name', 'string', 0], ['Schedule', 'string', 0], ['Timezone', 'string', 0], ['Suspend', 'boolean', 0], ['Active', 'integer', 0],
    ['Last Schedule', 'string', 0], ['Age', 'string', 0], ['Containers', 'string', 1], ['Images', 'string', 1], ['Selector', 'string', 1],
  ]);
});

const cronCases: { name: string; input: KubeObject; want: TableCell[] }[] = [
  {
    name: 'never scheduled',
    input: { metadata: meta(), spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { spec: { template } } } },
    want: ['x', '*/5 * * * *', '<none>', 'False', 0, '<none>', '4m', 'a,b', 'busybox,nginx:1', '<none>'],
  },
  {
    name: 'with a time zone, active jobs and a last schedule',
    input: { metadata: meta(), spec: { schedule: '@hourly', timeZone: 'Europe/Paris', suspend: true }, status: { active: [{ name: 'j1' }, { name: 'j2' }], lastScheduleTime: '2026-01-02T03:04:00Z' } },
    want: ['x', '@hourly', 'Europe/Paris', 'True', 2, '5s', '4m', '', '', '<none>'],
  },
  { name: 'suspend unset', input: { metadata: meta(), spec: { schedule: '@daily' } }, want: ['x', '@daily', '<none>', '<unset>', 0, '<none>', '4m', '', '', '<none>'] },
];

describe('cronjob cells', () => {
  for (const c of cronCases) test(c.name, () => expect(cronJobs.table!.cells(c.input, now)).toEqual(c.want));
});
