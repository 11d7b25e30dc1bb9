import { describe, expect, test } from 'vitest';
import { podSummary, podTable } from '../../../../src/apis/core/v1/pods-table.js';
import type { KubeObject } from '../../../../src/schema/object.js';

const now = new Date('2026-01-02T03:04:05Z');
const running = { running: { startedAt: '2026-01-02T03:00:00Z' } };

function pod(opts: { spec?: Record<string, unknown>; status?: Record<string, unknown>; deleting?: boolean } = {}): KubeObject {
  return {
    metadata: { name: 'web', creationTimestamp: '2026-01-02T03:00:45Z', ...(opts.deleting ? { deletionTimestamp: '2026-01-02T03:04:00Z' } : {}) },
    spec: { containers: [{ name: 'a', image: 'nginx' }], ...opts.spec },
    status: { phase: 'Pending', ...opts.status },
  };
}

describe('podSummary (READY, STATUS, RESTARTS)', () => {
  const cases: { name: string; input: KubeObject; want: { ready: string; status: string; restarts: string } }[] = [
    { name: 'new pod', input: pod(), want: { ready: '0/1', status: 'Pending', restarts: '0' } },
    {
      name: 'running and ready',
      input: pod({ status: { phase: 'Running', containerStatuses: [{ name: 'a', ready: true, restartCount: 0, state: running }] } }),
      want: { ready: '1/1', status: 'Running', restarts: '0' },
    },
    {
      name: 'waiting reason wins (CrashLoopBackOff) and restarts show the last one',
      input: pod({
        status: {
          phase: 'Running',
          containerStatuses: [{
            name: 'a', ready: false, restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1, finishedAt: '2026-01-02T03:03:05Z' } },
          }],
        },
      }),
      want: { ready: '0/1', status: 'CrashLoopBackOff', restarts: '4 (60s ago)' },
    },
    {
      name: 'terminated without reason shows the exit code',
      input: pod({ status: { phase: 'Failed', containerStatuses: [{ name: 'a', state: { terminated: { exitCode: 2 } } }] } }),
      want: { ready: '0/1', status: 'ExitCode:2', restarts: '0' },
    },
    {
      name: 'terminated by a signal',
      input: pod({ status: { phase: 'Failed', containerStatuses: [{ name: 'a', state: { terminated: { exitCode: 137, signal: 9 } } }] } }),
      want: { ready: '0/1', status: 'Signal:9', restarts: '0' },
    },
    {
      name: 'completed',
      input: pod({ status: { phase: 'Succeeded', containerStatuses: [{ name: 'a', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] } }),
      want: { ready: '0/1', status: 'Completed', restarts: '0' },
    },
    {
      name: 'completed container beside a running one is NotReady without the Ready condition',
      input: pod({
        spec: { containers: [{ name: 'a' }, { name: 'b' }] },
        status: { phase: 'Running', containerStatuses: [
          { name: 'a', ready: true, state: running },
          { name: 'b', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
        ] },
      }),
      want: { ready: '1/2', status: 'NotReady', restarts: '0' },
    },
    {
      name: 'init container still running',
      input: pod({
        spec: { initContainers: [{ name: 'i1' }, { name: 'i2' }] },
        status: { initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 0 } } }, { name: 'i2', state: running }] },
      }),
      want: { ready: '0/1', status: 'Init:1/2', restarts: '0' },
    },
    {
      name: 'init container failing',
      input: pod({
        spec: { initContainers: [{ name: 'i1' }] },
        status: { initContainerStatuses: [{ name: 'i1', restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } } }] },
      }),
      want: { ready: '0/1', status: 'Init:CrashLoopBackOff', restarts: '2' },
    },
    {
      name: 'a started sidecar counts towards READY and the total',
      input: pod({
        spec: { initContainers: [{ name: 's', restartPolicy: 'Always' }] },
        status: {
          phase: 'Running',
          conditions: [{ type: 'Initialized', status: 'True' }],
          initContainerStatuses: [{ name: 's', started: true, ready: true, state: running }],
          containerStatuses: [{ name: 'a', ready: true, state: running }],
        },
      }),
      want: { ready: '2/2', status: 'Running', restarts: '0' },
    },
    {
      name: 'scheduling gated',
      input: pod({ status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] } }),
      want: { ready: '0/1', status: 'SchedulingGated', restarts: '0' },
    },
    { name: 'deleting', input: pod({ deleting: true, status: { phase: 'Running' } }), want: { ready: '0/1', status: 'Terminating', restarts: '0' } },
    { name: 'deleting on a lost node', input: pod({ deleting: true, status: { phase: 'Running', reason: 'NodeLost' } }), want: { ready: '0/1', status: 'Unknown', restarts: '0' } },
    { name: 'evicted keeps the status reason', input: pod({ status: { phase: 'Failed', reason: 'Evicted' } }), want: { ready: '0/1', status: 'Evicted', restarts: '0' } },
  ];
  for (const c of cases) test(c.name, () => expect(podSummary(c.input, now)).toEqual(c.want));
});

describe('podTable cells and conditions', () => {
  const cases: { name: string; input: KubeObject; wantCells: unknown[]; wantConditions: unknown[] }[] = [
    {
      name: 'unscheduled pod: wide columns show <none>',
      input: pod(),
      wantCells: ['web', '0/1', 'Pending', '0', '3m20s', '<none>', '<none>', '<none>', '<none>'],
      wantConditions: [],
    },
    {
      name: 'scheduled pod with IP and readiness gates',
      input: pod({
        spec: { nodeName: 'n1', readinessGates: [{ conditionType: 'x' }, { conditionType: 'y' }] },
        status: { phase: 'Succeeded', podIPs: [{ ip: '10.0.0.7' }], nominatedNodeName: 'n2', conditions: [{ type: 'x', status: 'True' }] },
      }),
      wantCells: ['web', '0/1', 'Succeeded', '0', '3m20s', '10.0.0.7', 'n1', 'n2', '1/2'],
      wantConditions: [{ type: 'Completed', status: 'True', message: 'The pod has completed successfully.' }],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(podTable.cells(c.input, now)).toEqual(c.wantCells);
      expect(podTable.conditions?.(c.input) ?? []).toEqual(c.wantConditions);
    });
  }
  test('headers and priorities match kube', () => {
    expect(podTable.columns.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0], ['Ready', 0], ['Status', 0], ['Restarts', 0], ['Age', 0], ['IP', 1], ['Node', 1], ['Nominated Node', 1], ['Readiness Gates', 1],
    ]);
  });
});
