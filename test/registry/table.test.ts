import { describe, expect, test } from 'vitest';
import { StatusError } from '../../src/errors/status-error.js';
import { column, parseIncludeObject, tableForList, tableForObject, type TableDefinition, type TableOptions } from '../../src/registry/table.js';
import type { KubeObject } from '../../src/schema/object.js';

const now = new Date('2026-01-02T03:04:05Z');
const obj = (name: string): KubeObject => ({
  apiVersion: 'example.test/v1',
  kind: 'Widget',
  metadata: { name, resourceVersion: '7', creationTimestamp: '2026-01-02T03:04:00Z', labels: { app: name } },
  spec: { size: 3 },
});
const sized: TableDefinition = {
  columns: [column({ name: 'Name', format: 'name', description: 'n' }), column({ name: 'Size', type: 'integer', description: 's', priority: 1 })],
  cells: (o) => [o.metadata.name ?? '', (o.spec as { size: number }).size],
};
const base: TableOptions = { table: sized, version: 'v1', includeObject: 'Metadata', type: { apiVersion: 'example.test/v1', kind: 'Widget' }, now };

describe('tableForList / tableForObject', () => {
  const cases: { name: string; got: () => unknown; want: unknown }[] = [
    {
      name: 'list paging metadata carries over; rows default to PartialObjectMetadata',
      got: () => tableForList({ apiVersion: 'v1', kind: 'WidgetList', metadata: { resourceVersion: '9', continue: 'abc', remainingItemCount: 2 }, items: [obj('a')] }, base),
      want: {
        kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '9', continue: 'abc', remainingItemCount: 2 },
        columnDefinitions: sized.columns,
        rows: [{ cells: ['a', 3], object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj('a').metadata } }],
      },
    },
    {
      name: 'empty list has rows [] and no continue',
      got: () => tableForList({ apiVersion: 'v1', kind: 'WidgetList', metadata: { resourceVersion: '9', continue: '' }, items: [] }, base),
      want: { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '9' }, columnDefinitions: sized.columns, rows: [] },
    },
    {
      name: 'one object; includeObject=None; v1beta1',
      got: () => tableForObject(obj('b'), { ...base, includeObject: 'None', version: 'v1beta1' }),
      want: { kind: 'Table', apiVersion: 'meta.k8s.io/v1beta1', metadata: { resourceVersion: '7' }, columnDefinitions: sized.columns, rows: [{ cells: ['b', 3], object: null }] },
    },
    {
      name: 'includeObject=Object keeps the whole object with apiVersion and kind',
      got: () => tableForObject({ metadata: { name: 'c' }, spec: { size: 1 } }, { ...base, includeObject: 'Object', noHeaders: true }),
      want: { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: {}, columnDefinitions: null, rows: [{ cells: ['c', 1], object: { apiVersion: 'example.test/v1', kind: 'Widget', metadata: { name: 'c' }, spec: { size: 1 } } }] },
    },
    {
      name: 'no table definition: kube default Name and Created At',
      got: () => {
        const t = tableForObject(obj('d'), { ...base, table: undefined });
        return { columns: t.columnDefinitions?.map((c) => [c.name, c.type, c.format]), cells: t.rows[0]!.cells };
      },
      want: { columns: [['Name', 'string', 'name'], ['Created At', 'date', '']], cells: ['d', '2026-01-02T03:04:00Z'] },
    },
  ];
  for (const c of cases) test(c.name, () => expect(c.got()).toEqual(c.want));
});

describe('parseIncludeObject', () => {
  const cases: { name: string; value: string | null; want: string | 400 }[] = [
    { name: 'absent is Metadata', value: null, want: 'Metadata' },
    { name: 'empty is Metadata', value: '', want: 'Metadata' },
    { name: 'None', value: 'None', want: 'None' },
    { name: 'Object', value: 'Object', want: 'Object' },
    { name: 'wrong case is 400', value: 'object', want: 400 },
  ];
  for (const c of cases) {
    test(c.name, () => {
      if (c.want !== 400) return expect(parseIncludeObject(c.value)).toBe(c.want);
      const err = (() => { try { parseIncludeObject(c.value); } catch (e) { return e; } return undefined; })();
      expect(err).toBeInstanceOf(StatusError);
      expect((err as StatusError).code).toBe(400);
      expect((err as StatusError).message).toBe('unrecognized includeObject value: "object"');
    });
  }
});
