// `kubectl get pods`: NAME READY STATUS RESTARTS AGE, and with -o wide IP NODE
// NOMINATED NODE READINESS GATES. STATUS condenses phase, reason and container
// states the way kube's pod printer does (init containers first as Init:x/y,
// then the last container with a waiting or terminated reason, Terminating
// while deleting); finished pods carry a Completed row condition.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, since, type TableDefinition, type TableRowCondition } from '../../../registry/table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type Json, arrayAt, objectAt, stringAt } from './helpers.js';

/** kube's node lifecycle reason for pods on a node that stopped reporting. */
const NODE_LOST = 'NodeLost';

interface Counts {
  reason: string;
  ready: number;
  restarts: number;
  /** Epoch ms of the latest container termination that led to a restart; 0 if none. */
  lastRestart: number;
}

function isRestartable(container: Json | undefined): boolean {
  return stringAt(container, 'restartPolicy') === 'Always';
}

function hasCondition(status: Json | undefined, type: string): boolean {
  return arrayAt(status, 'conditions').some((c) => c.type === type && c.status === 'True');
}

function restartCount(cs: Json): number {
  return typeof cs.restartCount === 'number' ? cs.restartCount : 0;
}

/** When the previous run of a container ended, in epoch ms (0 if unknown). */
function lastTerminated(cs: Json): number {
  const finished = stringAt(objectAt(objectAt(cs, 'lastState'), 'terminated'), 'finishedAt');
  const at = finished === '' ? Number.NaN : Date.parse(finished);
  return Number.isNaN(at) ? 0 : at;
}

function exitText(terminated: Json, prefix: string): string {
  const reason = stringAt(terminated, 'reason');
  if (reason !== '') return `${prefix}${reason}`;
  const signal = typeof terminated.signal === 'number' ? terminated.signal : 0;
  const code = typeof terminated.exitCode === 'number' ? terminated.exitCode : 0;
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${code}`;
}

/** Walks init containers in order; returns the Init:… reason of the first one still in the way. */
function initReason(spec: Json | undefined, status: Json | undefined, counts: Counts): { initializing: boolean; sidecarRestarts: number; sidecarLastRestart: number } {
  const inits = new Map(arrayAt(spec, 'initContainers').map((c) => [stringAt(c, 'name'), c]));
  let sidecarRestarts = 0;
  let sidecarLastRestart = 0;
  const statuses = arrayAt(status, 'initContainerStatuses');
  for (const [i, cs] of statuses.entries()) {
    const sidecar = isRestartable(inits.get(stringAt(cs, 'name')));
    counts.restarts += restartCount(cs);
    counts.lastRestart = Math.max(counts.lastRestart, lastTerminated(cs));
    if (sidecar) {
      sidecarRestarts += restartCount(cs);
      sidecarLastRestart = Math.max(sidecarLastRestart, lastTerminated(cs));
    }
    const state = objectAt(cs, 'state');
    const terminated = objectAt(state, 'terminated');
    const waiting = objectAt(state, 'waiting');
    if (terminated !== undefined && terminated.exitCode === 0) continue;
    if (sidecar && cs.started === true) {
      if (cs.ready === true) counts.ready++;
      continue;
    }
    if (terminated !== undefined) counts.reason = exitText(terminated, 'Init:');
    else if (waiting !== undefined && stringAt(waiting, 'reason') !== '' && stringAt(waiting, 'reason') !== 'PodInitializing') {
      counts.reason = `Init:${stringAt(waiting, 'reason')}`;
    } else counts.reason = `Init:${i}/${arrayAt(spec, 'initContainers').length}`;
    return { initializing: true, sidecarRestarts, sidecarLastRestart };
  }
  return { initializing: false, sidecarRestarts, sidecarLastRestart };
}

/** Regular containers, last to first, so the first container's state has the final word. */
function containerReason(status: Json | undefined, counts: Counts): void {
  let hasRunning = false;
  const statuses = arrayAt(status, 'containerStatuses');
  for (let i = statuses.length - 1; i >= 0; i--) {
    const cs = statuses[i]!;
    counts.restarts += restartCount(cs);
    counts.lastRestart = Math.max(counts.lastRestart, lastTerminated(cs));
    const state = objectAt(cs, 'state');
    const waiting = stringAt(objectAt(state, 'waiting'), 'reason');
    const terminated = objectAt(state, 'terminated');
    if (waiting !== '') counts.reason = waiting;
    else if (terminated !== undefined) counts.reason = exitText(terminated, '');
    else if (cs.ready === true && objectAt(state, 'running') !== undefined) {
      hasRunning = true;
      counts.ready++;
    }
  }
  // A container still running keeps a "Completed" pod from reading as finished.
  if (counts.reason === 'Completed' && hasRunning) counts.reason = hasCondition(status, 'Ready') ? 'Running' : 'NotReady';
}

export interface PodSummary {
  readonly ready: string;
  readonly status: string;
  readonly restarts: string;
}

/** READY, STATUS and RESTARTS of a pod at `now`. */
export function podSummary(pod: KubeObject, now: Date): PodSummary {
  const spec = objectAt(pod, 'spec');
  const status = objectAt(pod, 'status');
  const phase = stringAt(status, 'phase');
  const counts: Counts = { reason: stringAt(status, 'reason') || phase, ready: 0, restarts: 0, lastRestart: 0 };
  if (arrayAt(status, 'conditions').some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) counts.reason = 'SchedulingGated';
  const total = arrayAt(spec, 'containers').length + arrayAt(spec, 'initContainers').filter(isRestartable).length;

  const init = initReason(spec, status, counts);
  if (!init.initializing || hasCondition(status, 'Initialized')) {
    // Once initialized, only sidecars' restarts count among the init containers.
    counts.restarts = init.sidecarRestarts;
    counts.lastRestart = init.sidecarLastRestart;
    containerReason(status, counts);
  }

  const deleting = pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
  if (deleting && stringAt(status, 'reason') === NODE_LOST) counts.reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') counts.reason = 'Terminating';

  const restarts = counts.restarts !== 0 && counts.lastRestart !== 0
    ? `${counts.restarts} (${since(new Date(counts.lastRestart).toISOString(), now)} ago)`
    : String(counts.restarts);
  return { ready: `${counts.ready}/${total}`, status: counts.reason, restarts };
}

/** "<true>/<gates>" over spec.readinessGates, "<none>" without gates. */
function readinessGates(spec: Json | undefined, status: Json | undefined): string {
  const gates = arrayAt(spec, 'readinessGates');
  if (gates.length === 0) return '<none>';
  const conditions = arrayAt(status, 'conditions');
  const ready = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${ready}/${gates.length}`;
}

function podIP(status: Json | undefined): string {
  const ips = arrayAt(status, 'podIPs');
  return ips.length > 0 ? stringAt(ips[0], 'ip') : '';
}

function conditions(pod: KubeObject): TableRowCondition[] {
  const phase = stringAt(objectAt(pod, 'status'), 'phase');
  if (phase === 'Succeeded') return [{ type: 'Completed', status: 'True', message: 'The pod has completed successfully.' }];
  if (phase === 'Failed') return [{ type: 'Completed', status: 'True', message: 'The pod failed.' }];
  return [];
}

export const podTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Ready', description: 'Ready containers out of all containers (sidecars included).' }),
    column({ name: 'Status', description: 'The pod phase, or the reason its containers are not running.' }),
    column({ name: 'Restarts', description: 'Container restarts, and how long ago the last one was.' }),
    AGE_COLUMN,
    column({ name: 'IP', priority: 1, description: 'The first pod IP.' }),
    column({ name: 'Node', priority: 1, description: 'The node the pod is bound to.' }),
    column({ name: 'Nominated Node', priority: 1, description: 'The node preemption nominated for the pod.' }),
    column({ name: 'Readiness Gates', priority: 1, description: 'Readiness gate conditions that are True, out of all gates.' }),
  ],
  cells: (pod, now) => {
    const spec = objectAt(pod, 'spec');
    const status = objectAt(pod, 'status');
    const s = podSummary(pod, now);
    return [
      nameOf(pod), s.ready, s.status, s.restarts, ageOf(pod, now),
      podIP(status) || '<none>',
      stringAt(spec, 'nodeName') || '<none>',
      stringAt(status, 'nominatedNodeName') || '<none>',
      readinessGates(spec, status),
    ];
  },
  conditions,
};
