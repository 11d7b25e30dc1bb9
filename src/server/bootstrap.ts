// Objects every cluster has from its first start, created through the registry
// like any client would (so they get defaults, validation and admission): the
// four namespaces kube-apiserver's system namespaces controller keeps present,
// and the default/kubernetes service and endpoints its controller reconciles.
import { isStatusError } from '../errors/status-error.js';
import type { Registry } from '../registry/registry.js';

export const DEFAULT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

export async function bootstrapNamespaces(registry: Registry): Promise<void> {
  const namespaces = registry.store({ group: '', version: 'v1', resource: 'namespaces' });
  for (const name of DEFAULT_NAMESPACES) {
    try {
      await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (err) {
      // Present from an earlier start (or another replica): nothing to do.
      if (isStatusError(err) && err.reason === 'AlreadyExists') continue;
      throw err;
    }
  }
}

export interface KubernetesServiceOptions {
  /** The first IP of --service-cluster-ip-range. */
  readonly clusterIP: string;
  readonly securePort: number;
  /** undefined: no address to publish, so no endpoints. */
  readonly advertiseAddress: string | undefined;
}

function isAlreadyExists(err: unknown): boolean {
  return isStatusError(err) && err.reason === 'AlreadyExists';
}

/**
 * default/kubernetes: a ClusterIP service on the first IP of the range, port 443
 * to the secure port, and its endpoints listing this server's advertise address.
 * A later start with another --secure-port fixes the service's target port;
 * replicas add their addresses to the endpoints (kube's lease reconciler also
 * removes replicas that went away; kapi does not yet).
 */
export async function bootstrapKubernetesService(registry: Registry, opts: KubernetesServiceOptions): Promise<void> {
  const services = registry.store({ group: '', version: 'v1', resource: 'services' });
  const ports = [{ name: 'https', port: 443, protocol: 'TCP', targetPort: opts.securePort }];
  const labels = { component: 'apiserver', provider: 'kubernetes' };
  try {
    await services.create(
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'kubernetes', labels }, spec: { type: 'ClusterIP', clusterIP: opts.clusterIP, ports, sessionAffinity: 'None' } },
      { namespace: 'default' },
    );
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const current = await services.get({ namespace: 'default', name: 'kubernetes' });
    const spec = (current.spec ?? {}) as { ports?: unknown };
    if (JSON.stringify(spec.ports) !== JSON.stringify(ports)) {
      await services.update({ ...current, spec: { ...spec, ports } }, { namespace: 'default', name: 'kubernetes' });
    }
  }
  if (opts.advertiseAddress === undefined) return;
  const endpoints = registry.store({ group: '', version: 'v1', resource: 'endpoints' });
  const endpointPorts = [{ name: 'https', port: opts.securePort, protocol: 'TCP' }];
  const meta = { name: 'kubernetes', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } };
  try {
    await endpoints.create(
      { apiVersion: 'v1', kind: 'Endpoints', metadata: meta, subsets: [{ addresses: [{ ip: opts.advertiseAddress }], ports: endpointPorts }] } as never,
      { namespace: 'default' },
    );
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const current = await endpoints.get({ namespace: 'default', name: 'kubernetes' });
    const subsets = (current as { subsets?: Array<{ addresses?: Array<{ ip: string }>; ports?: unknown }> }).subsets ?? [];
    const known = subsets.flatMap((s) => (JSON.stringify(s.ports) === JSON.stringify(endpointPorts) ? (s.addresses ?? []).map((a) => a.ip) : []));
    if (known.includes(opts.advertiseAddress)) return;
    const addresses = [...known, opts.advertiseAddress].sort().map((ip) => ({ ip }));
    await endpoints.update({ ...current, subsets: [{ addresses, ports: endpointPorts }] } as never, { namespace: 'default', name: 'kubernetes' });
  }
}
