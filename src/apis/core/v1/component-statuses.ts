// componentstatuses (deprecated since 1.19, still served): kube-apiserver probes
// the scheduler's and controller-manager's /healthz on localhost and each etcd
// server, on every get and list, and stores nothing. kapi has no scheduler or
// controller-manager to probe, so it claims none: it answers one row, its storage
// backend, probed the way readiness probes it. With etcd3 the row is kube's
// `etcd-0` (one probe of the configured servers as a whole, where kube probes each
// server as etcd-<i>); with the embedded SQLite it is `sqlite-0`, so nothing
// pretends an etcd is there. Healthy: condition True, message "ok"; a probe that
// fails: False with its error (kube's EtcdServer.DoServerCheck, 20 s bound).
import { defineResource, type ResourceDefinition } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { componentStatusTable } from './component-statuses-table.js';

export const COMPONENT_STATUS_DEPRECATION = 'v1 ComponentStatus is deprecated in v1.19+';

/** kube's probeTimeOut for component checks. */
const PROBE_TIMEOUT_MS = 20_000;

/** One component kapi can vouch for: its row name and the probe that says it answers. */
export interface ProbedComponent {
  readonly name: string;
  /** Resolves when the component answers; rejects (or outlives the bound) when not. */
  probe(): Promise<void>;
}

/** The storage backend as a component: `etcd-0` for etcd3, `sqlite-0` for the embedded SQLite. */
export function storageComponent(backend: 'etcd3' | 'sqlite', ping: () => Promise<void>): ProbedComponent {
  return { name: backend === 'etcd3' ? 'etcd-0' : 'sqlite-0', probe: ping };
}

function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error('context deadline exceeded')), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** kube's getComponentStatus: one Healthy condition (ConditionTrue/False), name only in metadata. */
async function statusOf(component: ProbedComponent, timeoutMs: number): Promise<KubeObject> {
  let condition: Record<string, string>;
  try {
    await withTimeout(component.probe(), timeoutMs);
    condition = { type: 'Healthy', status: 'True', message: 'ok' };
  } catch (err) {
    condition = { type: 'Healthy', status: 'False', error: err instanceof Error ? err.message : String(err) };
  }
  return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: component.name }, conditions: [condition] } as KubeObject;
}

export interface ComponentStatusesOptions {
  readonly components: readonly ProbedComponent[];
  /** Default: kube's 20 s. */
  readonly timeoutMs?: number;
}

/** What get and list answer: every probe runs now, nothing is cached or stored. */
export function componentStatusReader(opts: ComponentStatusesOptions): {
  get(name: string): Promise<KubeObject | undefined>;
  list(): Promise<KubeObject[]>;
} {
  const timeoutMs = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  return {
    get: async (name) => {
      const component = opts.components.find((c) => c.name === name);
      return component === undefined ? undefined : statusOf(component, timeoutMs);
    },
    list: () => Promise.all(opts.components.map((c) => statusOf(c, timeoutMs))),
  };
}

export function componentStatuses(opts: ComponentStatusesOptions): ResourceDefinition {
  return defineResource({
    group: '',
    version: 'v1',
    kind: 'ComponentStatus',
    plural: 'componentstatuses',
    scope: 'Cluster',
    shortNames: ['cs'],
    verbs: ['get', 'list'],
    table: componentStatusTable,
    virtualRead: componentStatusReader(opts),
    deprecationWarning: COMPONENT_STATUS_DEPRECATION,
  });
}
