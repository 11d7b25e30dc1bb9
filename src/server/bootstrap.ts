// Objects every cluster has from its first start, written through the registry
// like any client would (so they get defaults, validation and admission): the
// four namespaces kube-apiserver's system namespaces controller keeps present,
// and the default/kubernetes service and endpoints its controller reconciles.
// Each is ensured (ensure.ts): a restart, a restart after a crash part way
// through a start, and replicas starting together on one etcd all end with the
// same objects.
import { isStatusError } from '../errors/status-error.js';
import type { Registry } from '../registry/registry.js';
import type { KubeObject } from '../schema/object.js';
import type { ServiceAllocator } from '../apis/core/v1/service-allocation.js';
import { backoffMs, ensureObject, type EnsureAction, type EnsureOptions } from './ensure.js';

export const DEFAULT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

/** The log calls bootstrap makes (pino's (object, message) form). */
export interface BootstrapLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

async function unlessNotFound<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (isStatusError(err) && err.reason === 'NotFound') return undefined;
    throw err;
  }
}

export async function bootstrapNamespaces(registry: Registry, opts: EnsureOptions = {}): Promise<void> {
  const namespaces = registry.store({ group: '', version: 'v1', resource: 'namespaces' });
  for (const name of DEFAULT_NAMESPACES) {
    await ensureObject(
      {
        what: `namespace ${name}`,
        read: () => unlessNotFound(namespaces.get({ name })),
        create: () => namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
      },
      opts,
    );
  }
}

export interface KubernetesServiceOptions {
  /** The first IP of --service-cluster-ip-range. */
  readonly clusterIP: string;
  readonly securePort: number;
  /** undefined: no address to publish, so no endpoints. */
  readonly advertiseAddress: string | undefined;
  readonly allocator: ServiceAllocator;
  readonly logger: BootstrapLogger;
  readonly ensure?: EnsureOptions;
}

export interface KubernetesServiceResult {
  readonly service: EnsureAction;
  /** undefined: no advertise address, nothing published. */
  readonly endpoints: EnsureAction | undefined;
}

const SERVICE_LABELS: Readonly<Record<string, string>> = { component: 'apiserver', provider: 'kubernetes' };
const ENDPOINTS_LABELS: Readonly<Record<string, string>> = { 'endpointslice.kubernetes.io/skip-mirror': 'true' };

interface PortSpec {
  name?: unknown;
  port?: unknown;
  protocol?: unknown;
  targetPort?: unknown;
}

function samePorts(have: unknown, want: readonly PortSpec[]): boolean {
  if (!Array.isArray(have) || have.length !== want.length) return false;
  return want.every((w, i) => {
    const h = (have[i] ?? {}) as PortSpec;
    return h.name === w.name && h.port === w.port && (h.protocol ?? 'TCP') === w.protocol && (w.targetPort === undefined || h.targetPort === w.targetPort);
  });
}

function hasLabels(obj: KubeObject, want: Readonly<Record<string, string>>): boolean {
  const labels = obj.metadata.labels ?? {};
  return Object.entries(want).every(([k, v]) => Object.hasOwn(labels, k) && labels[k] === v);
}

/**
 * default/kubernetes: a ClusterIP service on the first IP of the range, port 443
 * to the secure port, and its endpoints listing this server's advertise address.
 * Repaired when wrong: the ports and type (as kube's controller does), the
 * labels, the cluster IP (by re-creating the service when the range moved and
 * the new first IP is free), and the allocation record of its IP. Replicas add
 * their addresses to the endpoints (kube's lease reconciler also removes
 * replicas that went away; kapi does not yet).
 */
export async function bootstrapKubernetesService(registry: Registry, opts: KubernetesServiceOptions): Promise<KubernetesServiceResult> {
  const service = await ensureKubernetesService(registry, opts);
  if (opts.advertiseAddress === undefined) return { service, endpoints: undefined };
  const endpoints = await ensureKubernetesEndpoints(registry, { ...opts, advertiseAddress: opts.advertiseAddress });
  return { service, endpoints };
}

async function ensureKubernetesService(registry: Registry, opts: KubernetesServiceOptions): Promise<EnsureAction> {
  const services = registry.store({ group: '', version: 'v1', resource: 'services' });
  const at = { namespace: 'default', name: 'kubernetes' };
  const ports = [{ name: 'https', port: 443, protocol: 'TCP', targetPort: opts.securePort }];
  const sleep = opts.ensure?.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const isOurs = (h: { namespace: string; name: string }) => h.namespace === at.namespace && h.name === at.name;
  let takeovers = 0;

  const result = await ensureObject(
    {
      what: 'service default/kubernetes',
      read: () => unlessNotFound(services.get(at)),
      create: () =>
        services.create(
          {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: at.name, labels: { ...SERVICE_LABELS } },
            spec: { type: 'ClusterIP', clusterIP: opts.clusterIP, ports, sessionAffinity: 'None' },
          } as KubeObject,
          { namespace: at.namespace },
        ),
      // The allocator refuses the IP before the store could say AlreadyExists. A
      // record naming default/kubernetes without such a service is another
      // replica's create in flight, or what a crash between taking the IP and
      // storing the service left behind: give the first a moment, then take the
      // IP over. Should both creates still race, the store admits one service and
      // settle() below rewrites the record for it.
      onCreateError: async (err) => {
        const ipTaken = isStatusError(err) && err.reason === 'Invalid' && (err.details?.causes ?? []).some((c) => c.field === 'spec.clusterIPs');
        if (!ipTaken) return 'fail';
        const holder = await opts.allocator.clusterIPHolder(opts.clusterIP);
        if (holder === undefined) return 'retry';
        if (!isOurs(holder)) {
          throw new Error(`the kubernetes service's cluster IP ${opts.clusterIP} is held by service ${holder.namespace}/${holder.name}: ${err.message}`);
        }
        if (++takeovers > 5) return 'fail';
        await sleep(100 + backoffMs(takeovers));
        if ((await unlessNotFound(services.get(at))) !== undefined) return 'retry';
        opts.logger.info({ ip: opts.clusterIP, uid: holder.uid }, 'kubernetes service: taking over the allocation of its cluster IP left without a service');
        await opts.allocator.releaseClusterIP(opts.clusterIP, holder.uid);
        return 'retry';
      },
      repair: (current) => {
        const spec = (current.spec ?? {}) as Record<string, unknown>;
        if (spec.clusterIP !== opts.clusterIP) return undefined; // settle() moves it
        if (spec.type === 'ClusterIP' && samePorts(spec.ports, ports) && hasLabels(current, SERVICE_LABELS)) return undefined;
        opts.logger.warn({ ports: spec.ports, type: spec.type }, 'kubernetes service: resetting its ports and type');
        return {
          ...current,
          metadata: { ...current.metadata, labels: { ...(current.metadata.labels ?? {}), ...SERVICE_LABELS } },
          spec: { ...spec, type: 'ClusterIP', ports },
        } as KubeObject;
      },
      update: (next) => services.update(next, at),
      settle: async (current) => {
        const spec = (current.spec ?? {}) as Record<string, unknown>;
        if (spec.clusterIP !== opts.clusterIP) {
          // --service-cluster-ip-range changed since the service was made. The cluster
          // IP is immutable, so the service is made again, unless a user's service
          // already holds the new first IP (then it stays as it is, as in kube).
          const holder = await opts.allocator.clusterIPHolder(opts.clusterIP);
          if (holder !== undefined && !isOurs(holder)) {
            opts.logger.warn({ clusterIP: spec.clusterIP, wanted: opts.clusterIP, holder }, 'kubernetes service: cannot move to the first IP of the range, another service holds it');
            return 'done';
          }
          opts.logger.warn({ clusterIP: spec.clusterIP, wanted: opts.clusterIP }, 'kubernetes service: re-creating it on the first IP of the range');
          await services.delete({ ...at, preconditions: { uid: current.metadata.uid ?? '' } });
          return 'retry';
        }
        const { heldElsewhere } = await opts.allocator.ensureRecorded(current);
        if (heldElsewhere.length > 0) opts.logger.warn({ records: heldElsewhere }, 'kubernetes service: its values are recorded for another service');
        return 'done';
      },
    },
    opts.ensure,
  );
  return result.action;
}

interface EndpointSubset {
  addresses?: Array<{ ip?: unknown }>;
  ports?: unknown;
}

async function ensureKubernetesEndpoints(registry: Registry, opts: KubernetesServiceOptions & { advertiseAddress: string }): Promise<EnsureAction> {
  const endpoints = registry.store({ group: '', version: 'v1', resource: 'endpoints' });
  const at = { namespace: 'default', name: 'kubernetes' };
  const endpointPorts = [{ name: 'https', port: opts.securePort, protocol: 'TCP' }];
  const result = await ensureObject(
    {
      what: 'endpoints default/kubernetes',
      read: () => unlessNotFound(endpoints.get(at)),
      create: () =>
        endpoints.create(
          {
            apiVersion: 'v1',
            kind: 'Endpoints',
            metadata: { name: at.name, labels: { ...ENDPOINTS_LABELS } },
            subsets: [{ addresses: [{ ip: opts.advertiseAddress }], ports: endpointPorts }],
          } as KubeObject,
          { namespace: at.namespace },
        ),
      repair: (current) => {
        const subsets = ((current as { subsets?: EndpointSubset[] }).subsets ?? []) as EndpointSubset[];
        // Addresses published with other ports belong to a configuration that is gone.
        const known = subsets.flatMap((s) =>
          samePorts(s.ports, endpointPorts) ? (s.addresses ?? []).map((a) => a.ip).filter((ip): ip is string => typeof ip === 'string') : [],
        );
        const right = subsets.length === 1 && known.includes(opts.advertiseAddress) && hasLabels(current, ENDPOINTS_LABELS);
        if (right) return undefined;
        const addresses = [...new Set([...known, opts.advertiseAddress])].sort().map((ip) => ({ ip }));
        return {
          ...current,
          metadata: { ...current.metadata, labels: { ...(current.metadata.labels ?? {}), ...ENDPOINTS_LABELS } },
          subsets: [{ addresses, ports: endpointPorts }],
        } as KubeObject;
      },
      update: (next) => endpoints.update(next, at),
    },
    opts.ensure,
  );
  return result.action;
}
