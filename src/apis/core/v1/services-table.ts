// `kubectl get services`: NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, and with
// -o wide SELECTOR. EXTERNAL-IP depends on the type: external IPs for ClusterIP
// and NodePort, load-balancer ingress (then external IPs) or <pending> for
// LoadBalancer, the DNS name for ExternalName.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, formatLabels, nameOf, type TableDefinition } from '../../../registry/table.js';
import { type Json, arrayAt, objectAt, stringAt } from './helpers.js';

function strings(parent: Json | undefined, field: string): string[] {
  const v = parent?.[field];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Ingress IPs (or hostnames), sorted and de-duplicated. */
function loadBalancerIngress(status: Json | undefined): string[] {
  const found = new Set<string>();
  for (const ing of arrayAt(objectAt(status, 'loadBalancer'), 'ingress')) {
    const v = stringAt(ing, 'ip') || stringAt(ing, 'hostname');
    if (v !== '') found.add(v);
  }
  return [...found].sort();
}

export function externalIP(spec: Json | undefined, status: Json | undefined): string {
  const external = strings(spec, 'externalIPs');
  switch (stringAt(spec, 'type')) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const all = [...loadBalancerIngress(status), ...external];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return stringAt(spec, 'externalName');
    default:
      return '<unknown>';
  }
}

/** "80/TCP,443:30443/TCP": port, node port when set, protocol. */
export function portsCell(spec: Json | undefined): string {
  const pieces = arrayAt(spec, 'ports').map((p) => {
    const nodePort = typeof p.nodePort === 'number' && p.nodePort > 0 ? `:${p.nodePort}` : '';
    return `${String(p.port ?? 0)}${nodePort}/${stringAt(p, 'protocol')}`;
  });
  return pieces.length > 0 ? pieces.join(',') : '<none>';
}

export const serviceTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Type', description: 'How the service is exposed.' }),
    column({ name: 'Cluster-IP', description: 'The first cluster IP.' }),
    column({ name: 'External-IP', description: 'Addresses outside the cluster that reach the service.' }),
    column({ name: 'Port(s)', description: 'Service ports, with node ports and protocols.' }),
    AGE_COLUMN,
    column({ name: 'Selector', priority: 1, description: 'Labels of the pods the service routes to.' }),
  ],
  cells: (svc, now) => {
    const spec = objectAt(svc, 'spec');
    const clusterIPs = strings(spec, 'clusterIPs');
    return [
      nameOf(svc),
      stringAt(spec, 'type'),
      clusterIPs[0] ?? '<none>',
      externalIP(spec, objectAt(svc, 'status')),
      portsCell(spec),
      ageOf(svc, now),
      formatLabels(spec?.selector),
    ];
  },
};
