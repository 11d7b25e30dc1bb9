// Headers and cells of every core/v1 kind's columns, one object each, against what
// kube's printers show for the same object.
import { describe, expect, test } from 'vitest';
import { coreV1Resources } from '../../../../src/apis/core/v1/index.js';
import { defaultTable, type TableCell } from '../../../../src/registry/table.js';
import type { KubeObject } from '../../../../src/schema/object.js';

const now = new Date('2026-01-02T03:04:05Z');
const meta = (extra: Record<string, unknown> = {}) => ({ name: 'x', creationTimestamp: '2026-01-02T03:04:00Z', ...extra });

const cases: { name: string; plural: string; input: KubeObject; wantHeaders: string[]; wantCells: TableCell[] }[] = [
  { name: 'namespaces', plural: 'namespaces', input: { metadata: meta(), status: { phase: 'Active' } }, wantHeaders: ['Name', 'Status', 'Age'], wantCells: ['x', 'Active', '5s'] },
  { name: 'configmaps count data and binaryData', plural: 'configmaps', input: { metadata: meta(), data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }, wantHeaders: ['Name', 'Data', 'Age'], wantCells: ['x', 3, '5s'] },
  { name: 'secrets', plural: 'secrets', input: { metadata: meta(), type: 'Opaque', data: { a: 'YQ==' } }, wantHeaders: ['Name', 'Type', 'Data', 'Age'], wantCells: ['x', 'Opaque', 1, '5s'] },
  { name: 'serviceaccounts', plural: 'serviceaccounts', input: { metadata: meta() }, wantHeaders: ['Name', 'Secrets', 'Age'], wantCells: ['x', 0, '5s'] },
  {
    name: 'services NodePort', plural: 'services',
    input: { metadata: meta(), spec: { type: 'NodePort', clusterIPs: ['10.0.0.1'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }], selector: { b: '2', a: '1' } } },
    wantHeaders: ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector'],
    wantCells: ['x', 'NodePort', '10.0.0.1', '<none>', '80:30080/TCP,53/UDP', '5s', 'a=1,b=2'],
  },
  {
    name: 'services LoadBalancer pending', plural: 'services',
    input: { metadata: meta(), spec: { type: 'LoadBalancer', clusterIPs: ['10.0.0.2'], ports: [] } },
    wantHeaders: ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector'],
    wantCells: ['x', 'LoadBalancer', '10.0.0.2', '<pending>', '<none>', '5s', '<none>'],
  },
  {
    name: 'nodes', plural: 'nodes',
    input: {
      metadata: meta({ labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'edge' } }),
      spec: { unschedulable: true },
      status: { conditions: [{ type: 'Ready', status: 'True' }], addresses: [{ type: 'InternalIP', address: '192.168.1.2' }], nodeInfo: { kubeletVersion: 'v1.33.1', osImage: 'Debian', kernelVersion: '6.1', containerRuntimeVersion: 'containerd://2.0' } },
    },
    wantHeaders: ['Name', 'Status', 'Roles', 'Age', 'Version', 'Internal-IP', 'External-IP', 'OS-Image', 'Kernel-Version', 'Container-Runtime'],
    wantCells: ['x', 'Ready,SchedulingDisabled', 'control-plane,edge', '5s', 'v1.33.1', '192.168.1.2', '<none>', 'Debian', '6.1', 'containerd://2.0'],
  },
  {
    name: 'events', plural: 'events',
    input: { metadata: meta({ name: 'web.1' }), involvedObject: { kind: 'Pod', name: 'web', fieldPath: 'spec.containers{a}' }, reason: 'Pulled', type: 'Normal', message: ' pulled \n', source: { component: 'kubelet', host: 'n1' }, firstTimestamp: '2026-01-02T03:00:05Z', lastTimestamp: '2026-01-02T03:03:05Z', count: 3 },
    wantHeaders: ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name'],
    wantCells: ['60s', 'Normal', 'Pulled', 'pod/web', 'spec.containers{a}', 'kubelet, n1', 'pulled', '4m', 3, 'web.1'],
  },
  {
    name: 'endpoints show three and the rest as more', plural: 'endpoints',
    input: { metadata: meta(), subsets: [{ addresses: [{ ip: '1.1.1.1' }, { ip: '2.2.2.2' }], ports: [{ port: 80 }, { port: 443 }] }] },
    wantHeaders: ['Name', 'Endpoints', 'Age'], wantCells: ['x', '1.1.1.1:80,2.2.2.2:80,1.1.1.1:443 + 1 more...', '5s'],
  },
  {
    name: 'persistentvolumes', plural: 'persistentvolumes',
    input: { metadata: meta(), spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', claimRef: { namespace: 'ns', name: 'c' }, storageClassName: 'fast', volumeMode: 'Filesystem' }, status: { phase: 'Bound' } },
    wantHeaders: ['Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age', 'VolumeMode'],
    wantCells: ['x', '1Gi', 'RWO,RWX', 'Retain', 'Bound', 'ns/c', 'fast', '<unset>', '', '5s', 'Filesystem'],
  },
  {
    name: 'persistentvolumeclaims unbound', plural: 'persistentvolumeclaims',
    input: { metadata: meta(), spec: { resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } },
    wantHeaders: ['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age', 'VolumeMode'],
    wantCells: ['x', 'Pending', '', '', '', '', '<unset>', '5s', '<unset>'],
  },
  {
    name: 'resourcequotas split requests and limits', plural: 'resourcequotas',
    input: { metadata: meta(), status: { hard: { pods: '10', 'limits.cpu': '2', 'requests.cpu': '1' }, used: { pods: '3' } } },
    wantHeaders: ['Name', 'Age', 'Request', 'Limit'], wantCells: ['x', '5s', 'pods: 3/10, requests.cpu: 0/1', 'limits.cpu: 0/2'],
  },
  {
    name: 'replicationcontrollers', plural: 'replicationcontrollers',
    input: { metadata: meta(), spec: { replicas: 2, selector: { app: 'w' }, template: { spec: { containers: [{ name: 'a', image: 'i1' }, { name: 'b', image: 'i2' }] } } }, status: { replicas: 1 } },
    wantHeaders: ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector'], wantCells: ['x', 2, 1, 0, '5s', 'a,b', 'i1,i2', 'app=w'],
  },
  {
    name: 'podtemplates', plural: 'podtemplates',
    input: { metadata: meta(), template: { metadata: { labels: { app: 'w' } }, spec: { containers: [{ name: 'a', image: 'i1' }] } } },
    wantHeaders: ['Name', 'Containers', 'Images', 'Pod Labels'], wantCells: ['x', 'a', 'i1', 'app=w'],
  },
  { name: 'limitranges use the default columns', plural: 'limitranges', input: { metadata: meta() }, wantHeaders: ['Name', 'Created At'], wantCells: ['x', '2026-01-02T03:04:00Z'] },
];

describe('core/v1 tables', () => {
  for (const c of cases) {
    test(c.name, () => {
      const def = coreV1Resources.find((r) => r.plural === c.plural)!;
      const table = def.table ?? defaultTable;
      expect(table.columns.map((col) => col.name)).toEqual(c.wantHeaders);
      expect(table.cells(c.input, now)).toEqual(c.wantCells);
    });
  }
});
