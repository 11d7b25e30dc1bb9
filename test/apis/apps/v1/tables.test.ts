// Headers and cells of the apps/v1 and policy/v1 kinds' columns, one object each,
// against what a 1.36 cluster's printers show for the same object.
import { describe, expect, test } from 'vitest';
import { appsV1 } from '../../../../src/apis/apps/v1/index.js';
import { policyV1 } from '../../../../src/apis/policy/v1/index.js';
import type { TableCell } from '../../../../src/registry/table.js';
import type { KubeObject } from '../../../../src/schema/object.js';

const now = new Date('2026-01-02T03:04:05Z');
const meta = (extra: Record<string, unknown> = {}) => ({ name: 'x', creationTimestamp: '2026-01-02T03:04:00Z', ...extra });
const template = { metadata: { labels: { app: 'a' } }, spec: { nodeSelector: { disk: 'ssd', arch: 'arm' }, containers: [{ name: 'web', image: 'nginx:1' }, { name: 'log', image: 'fluentd' }] } };
const selector = { matchLabels: { app: 'a' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['b', 'a'] }, { key: 'x', operator: 'DoesNotExist' }] };

const kinds = [...appsV1(), ...policyV1()];
const cases: { name: string; plural: string; input: KubeObject; wantHeaders: string[]; wantCells: TableCell[] }[] = [
  {
    name: 'deployments',
    plural: 'deployments',
    input: { metadata: meta(), spec: { replicas: 3, selector, template }, status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 1 } },
    wantHeaders: ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector'],
    wantCells: ['x', '2/3', 3, 1, '5s', 'web,log', 'nginx:1,fluentd', 'app=a,tier notin (a,b),!x'],
  },
  {
    name: 'deployments without status',
    plural: 'deployments',
    input: { metadata: meta(), spec: { replicas: 1, selector: { matchLabels: { app: 'a' } }, template } },
    wantHeaders: ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector'],
    wantCells: ['x', '0/1', 0, 0, '5s', 'web,log', 'nginx:1,fluentd', 'app=a'],
  },
  {
    name: 'replicasets',
    plural: 'replicasets',
    input: { metadata: meta(), spec: { replicas: 3, selector, template }, status: { replicas: 2, readyReplicas: 1 } },
    wantHeaders: ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector'],
    wantCells: ['x', 3, 2, 1, '5s', 'web,log', 'nginx:1,fluentd', 'app=a,tier notin (a,b),!x'],
  },
  {
    name: 'statefulsets',
    plural: 'statefulsets',
    input: { metadata: meta(), spec: { replicas: 3, selector, template }, status: { replicas: 3, readyReplicas: 2 } },
    wantHeaders: ['Name', 'Ready', 'Age', 'Containers', 'Images'],
    wantCells: ['x', '2/3', '5s', 'web,log', 'nginx:1,fluentd'],
  },
  {
    name: 'daemonsets',
    plural: 'daemonsets',
    input: { metadata: meta(), spec: { selector: { matchLabels: { app: 'a' } }, template }, status: { desiredNumberScheduled: 4, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 1, numberAvailable: 2 } },
    wantHeaders: ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', 'Containers', 'Images', 'Selector'],
    wantCells: ['x', 4, 3, 2, 1, 2, 'arch=arm,disk=ssd', '5s', 'web,log', 'nginx:1,fluentd', 'app=a'],
  },
  {
    name: 'daemonsets without a node selector',
    plural: 'daemonsets',
    input: { metadata: meta(), spec: { template: { spec: { containers: [] } } } },
    wantHeaders: ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', 'Containers', 'Images', 'Selector'],
    wantCells: ['x', 0, 0, 0, 0, 0, '<none>', '5s', '', '', '<none>'],
  },
  {
    name: 'controllerrevisions owned by a StatefulSet',
    plural: 'controllerrevisions',
    input: { metadata: meta({ ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u', controller: true }] }), data: {}, revision: 4 },
    wantHeaders: ['Name', 'Controller', 'Revision', 'Age'],
    wantCells: ['x', 'statefulset.apps/db', 4, '5s'],
  },
  {
    name: 'controllerrevisions without a controller',
    plural: 'controllerrevisions',
    input: { metadata: meta({ ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u' }] }), data: {}, revision: 1 },
    wantHeaders: ['Name', 'Controller', 'Revision', 'Age'],
    wantCells: ['x', '<none>', 1, '5s'],
  },
  {
    name: 'poddisruptionbudgets minAvailable',
    plural: 'poddisruptionbudgets',
    input: { metadata: meta(), spec: { minAvailable: 2 }, status: { disruptionsAllowed: 1 } },
    wantHeaders: ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'],
    wantCells: ['x', '2', 'N/A', 1, '5s'],
  },
  {
    name: 'poddisruptionbudgets maxUnavailable',
    plural: 'poddisruptionbudgets',
    input: { metadata: meta(), spec: { maxUnavailable: '25%' } },
    wantHeaders: ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'],
    wantCells: ['x', 'N/A', '25%', 0, '5s'],
  },
];

describe('apps/v1 and policy/v1 tables', () => {
  for (const c of cases) {
    test(c.name, () => {
      const def = kinds.find((k) => k.plural === c.plural)!;
      expect(def.table?.columns.map((col) => col.name)).toEqual(c.wantHeaders);
      expect(def.table?.cells(c.input, now)).toEqual(c.wantCells);
    });
  }

  test('wide columns are priority 1, the others 0', () => {
    const deploy = kinds.find((k) => k.plural === 'deployments')!;
    expect(deploy.table?.columns.map((col) => col.priority)).toEqual([0, 0, 0, 0, 0, 1, 1, 1]);
    expect(deploy.table?.columns[0]).toMatchObject({ format: 'name' });
    // kube types READY, UP-TO-DATE and AVAILABLE as strings (the cells are integers but for READY).
    expect(deploy.table?.columns.map((col) => col.type)).toEqual(['string', 'string', 'string', 'string', 'string', 'string', 'string', 'string']);
  });

  test('served in discovery order with kube short names, categories and subresources', () => {
    expect(
      kinds.map((k) => ({ plural: k.plural, shortNames: k.shortNames, categories: k.categories, sub: Object.keys(k.subresources).sort(), scope: k.scope })),
    ).toEqual([
      { plural: 'controllerrevisions', shortNames: [], categories: [], sub: [], scope: 'Namespaced' },
      { plural: 'daemonsets', shortNames: ['ds'], categories: ['all'], sub: ['status'], scope: 'Namespaced' },
      { plural: 'deployments', shortNames: ['deploy'], categories: ['all'], sub: ['scale', 'status'], scope: 'Namespaced' },
      { plural: 'replicasets', shortNames: ['rs'], categories: ['all'], sub: ['scale', 'status'], scope: 'Namespaced' },
      { plural: 'statefulsets', shortNames: ['sts'], categories: ['all'], sub: ['scale', 'status'], scope: 'Namespaced' },
      { plural: 'poddisruptionbudgets', shortNames: ['pdb'], categories: [], sub: ['status'], scope: 'Namespaced' },
    ]);
  });
});
