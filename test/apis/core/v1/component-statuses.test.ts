// componentstatuses: one row per component kapi can vouch for (its storage
// backend), probed on every read, printed as kube's printComponentStatus does.
import { describe, expect, test } from 'vitest';
import { componentStatusReader, storageComponent } from '../../../../src/apis/core/v1/component-statuses.js';
import { componentStatusTable } from '../../../../src/apis/core/v1/component-statuses-table.js';
import type { KubeObject } from '../../../../src/schema/object.js';

const NOW = new Date('2026-01-01T00:00:00Z');

describe('component statuses', () => {
  const cases: ReadonlyArray<{ name: string; backend: 'etcd3' | 'sqlite'; probe: () => Promise<void>; want: KubeObject; row: unknown[] }> = [
    {
      name: 'a healthy etcd is etcd-0, True, ok',
      backend: 'etcd3',
      probe: async () => undefined,
      want: { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'etcd-0' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] } as KubeObject,
      row: ['etcd-0', 'Healthy', 'ok', ''],
    },
    {
      name: 'SQLite is sqlite-0, not an etcd',
      backend: 'sqlite',
      probe: async () => undefined,
      want: { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'sqlite-0' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] } as KubeObject,
      row: ['sqlite-0', 'Healthy', 'ok', ''],
    },
    {
      name: 'a failing probe is False with its error',
      backend: 'etcd3',
      probe: async () => {
        throw new Error('etcd cluster is unavailable or misconfigured');
      },
      want: { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'etcd-0' }, conditions: [{ type: 'Healthy', status: 'False', error: 'etcd cluster is unavailable or misconfigured' }] } as KubeObject,
      row: ['etcd-0', 'Unhealthy', '', 'etcd cluster is unavailable or misconfigured'],
    },
    {
      name: 'a probe that never answers is False once the bound passes',
      backend: 'etcd3',
      probe: () => new Promise<void>(() => undefined),
      want: { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'etcd-0' }, conditions: [{ type: 'Healthy', status: 'False', error: 'context deadline exceeded' }] } as KubeObject,
      row: ['etcd-0', 'Unhealthy', '', 'context deadline exceeded'],
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const reader = componentStatusReader({ components: [storageComponent(c.backend, c.probe)], timeoutMs: 20 });
      const name = c.want.metadata.name!;
      expect(await reader.list()).toEqual([c.want]);
      expect(await reader.get(name)).toEqual(c.want);
      expect(componentStatusTable.cells(c.want, NOW)).toEqual(c.row);
    });
  }

  test('a component kapi does not run is not found', async () => {
    const reader = componentStatusReader({ components: [storageComponent('sqlite', async () => undefined)] });
    for (const name of ['scheduler', 'controller-manager', 'etcd-0', '__proto__', 'constructor']) expect(await reader.get(name)).toBeUndefined();
  });

  test('the columns are kube\'s', () => {
    expect(componentStatusTable.columns.map((c) => c.name)).toEqual(['Name', 'Status', 'Message', 'Error']);
    expect(componentStatusTable.cells({ kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'x' } } as KubeObject, NOW)).toEqual(['x', 'Unknown', '', '']);
  });
});
