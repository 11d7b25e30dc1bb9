// `kubectl get endpoints`: NAME ENDPOINTS AGE. ENDPOINTS shows at most three
// ip:port pairs and "+ N more..." for the rest; subsets without ports show bare IPs.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import type { KubeObject } from '../../../schema/object.js';
import { arrayAt, stringAt } from './helpers.js';

const SHOWN = 3;

function hostPort(ip: string, port: unknown): string {
  return `${ip.includes(':') ? `[${ip}]` : ip}:${String(port ?? 0)}`;
}

export function formatEndpoints(ep: KubeObject): string {
  const subsets = arrayAt(ep, 'subsets');
  if (subsets.length === 0) return '<none>';
  const shown: string[] = [];
  let count = 0;
  for (const ss of subsets) {
    const ips = arrayAt(ss, 'addresses').map((a) => stringAt(a, 'ip'));
    const ports = arrayAt(ss, 'ports');
    // Headless services may have no ports: list the bare addresses.
    const entries = ports.length === 0 ? ips : ports.flatMap((p) => ips.map((ip) => hostPort(ip, p.port)));
    count += entries.length;
    for (const e of entries) if (shown.length < SHOWN) shown.push(e);
  }
  return count > SHOWN ? `${shown.join(',')} + ${count - SHOWN} more...` : shown.join(',');
}

export const endpointsTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'Endpoints', description: 'Addresses and ports of the ready endpoints.' }), AGE_COLUMN],
  cells: (ep, now) => [nameOf(ep), formatEndpoints(ep), ageOf(ep, now)],
};
