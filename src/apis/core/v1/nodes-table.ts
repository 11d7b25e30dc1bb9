// `kubectl get nodes`: NAME STATUS ROLES AGE VERSION, and with -o wide the
// addresses and what the kubelet reports about the machine. STATUS is Ready /
// NotReady from the Ready condition (Unknown without one), plus
// SchedulingDisabled when cordoned; ROLES come from node-role labels.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type Json, arrayAt, objectAt, stringAt } from './helpers.js';

const ROLE_PREFIX = 'node-role.kubernetes.io/';
const LEGACY_ROLE_LABEL = 'kubernetes.io/role';

export function nodeStatus(node: KubeObject): string {
  const ready = arrayAt(objectAt(node, 'status'), 'conditions').find((c) => c.type === 'Ready');
  const parts = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (objectAt(node, 'spec')?.unschedulable === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

export function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith(ROLE_PREFIX)) {
      if (k.length > ROLE_PREFIX.length) roles.add(k.slice(ROLE_PREFIX.length));
    } else if (k === LEGACY_ROLE_LABEL && v !== '') roles.add(v);
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function address(status: Json | undefined, type: string): string {
  return stringAt(arrayAt(status, 'addresses').find((a) => a.type === type), 'address') || '<none>';
}

export const nodeTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Status', description: 'Readiness of the node, and whether it is cordoned.' }),
    column({ name: 'Roles', description: 'Roles from node-role.kubernetes.io/ labels.' }),
    AGE_COLUMN,
    column({ name: 'Version', description: 'The kubelet version.' }),
    column({ name: 'Internal-IP', priority: 1, description: 'The first InternalIP address.' }),
    column({ name: 'External-IP', priority: 1, description: 'The first ExternalIP address.' }),
    column({ name: 'OS-Image', priority: 1, description: 'The operating system image.' }),
    column({ name: 'Kernel-Version', priority: 1, description: 'The kernel version.' }),
    column({ name: 'Container-Runtime', priority: 1, description: 'The container runtime and its version.' }),
  ],
  cells: (node, now) => {
    const status = objectAt(node, 'status');
    const info = objectAt(status, 'nodeInfo');
    return [
      nameOf(node), nodeStatus(node), nodeRoles(node), ageOf(node, now), stringAt(info, 'kubeletVersion'),
      address(status, 'InternalIP'), address(status, 'ExternalIP'),
      stringAt(info, 'osImage') || '<unknown>',
      stringAt(info, 'kernelVersion') || '<unknown>',
      stringAt(info, 'containerRuntimeVersion') || '<unknown>',
    ];
  },
};
