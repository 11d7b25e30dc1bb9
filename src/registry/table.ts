// Server-side printing: a resource's objects as a meta.k8s.io Table, which is
// what `kubectl get` asks for first (kubectl-wire §5). Each definition declares its
// columns and a row function beside it (apis/<group>/<version>/<kind>-table.ts);
// kinds without one get kube's default convertor (Name, Created At). The endpoint
// layer negotiates the Table and calls tableForList / tableForObject; this file
// knows nothing of HTTP beyond the includeObject option's 400.
import { badRequest } from '../errors/status-error.js';
import type { KubeList, KubeObject, ListMeta } from '../schema/object.js';
import { rfc3339, since } from './table/format.js';

export { formatLabels, humanDuration, orNone, rfc3339, since } from './table/format.js';

export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'date';
/** `name` marks the column kubectl treats as the object's name; most columns have none. */
export type ColumnFormat = '' | 'name';

export interface TableColumnDefinition {
  readonly name: string;
  readonly type: ColumnType;
  readonly format: ColumnFormat;
  readonly description: string;
  /** 0: always shown; 1: only with `-o wide`. */
  readonly priority: number;
}

/** A cell is any JSON scalar; kube's printers mix strings and int64s. */
export type TableCell = string | number | boolean | null;

export interface TableRowCondition {
  readonly type: 'Completed';
  readonly status: 'True' | 'False' | 'Unknown';
  readonly message?: string;
}

export interface TableDefinition {
  readonly columns: readonly TableColumnDefinition[];
  /** One cell per column, for any object of the kind (fields may be missing). */
  readonly cells: (obj: KubeObject, now: Date) => TableCell[];
  /** Row conditions (pods mark finished rows Completed so kubectl can hide them). */
  readonly conditions?: (obj: KubeObject) => TableRowCondition[];
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';
export type TableVersion = 'v1' | 'v1beta1';

export interface TableRow {
  cells: TableCell[];
  conditions?: TableRowCondition[];
  object: unknown;
}

export interface Table {
  kind: 'Table';
  apiVersion: `meta.k8s.io/${TableVersion}`;
  metadata: ListMeta;
  /** null after the first event of a watch (kube's NoHeaders), as Go encodes a nil slice. */
  columnDefinitions: TableColumnDefinition[] | null;
  rows: TableRow[];
}

/** A column with kube's usual defaults: a string, no format, shown without `-o wide`. */
export function column(c: Pick<TableColumnDefinition, 'name' | 'description'> & Partial<TableColumnDefinition>): TableColumnDefinition {
  return { type: 'string', format: '', priority: 0, ...c };
}

export const NAME_COLUMN = column({ name: 'Name', format: 'name', description: 'The name of the object, unique within its namespace.' });
export const AGE_COLUMN = column({ name: 'Age', description: 'Time since the object was created (metadata.creationTimestamp).' });

export function nameOf(obj: KubeObject): string {
  return obj.metadata.name ?? '';
}

export function ageOf(obj: KubeObject, now: Date): string {
  return since(obj.metadata.creationTimestamp, now);
}

/** kube's default convertor (registry/rest/table.go) for kinds without printers. */
export const defaultTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Created At', type: 'date', description: 'When the object was created (metadata.creationTimestamp), in UTC.' }),
  ],
  cells: (obj) => [nameOf(obj), rfc3339(obj.metadata.creationTimestamp)],
};

/** The includeObject query parameter; kube answers anything else with 400. */
export function parseIncludeObject(value: string | null): IncludeObject {
  if (value === null || value === '') return 'Metadata';
  if (value === 'None' || value === 'Metadata' || value === 'Object') return value;
  throw badRequest(`unrecognized includeObject value: ${JSON.stringify(value)}`);
}

export interface TableOptions {
  /** The resource's columns; undefined means kube's default convertor. */
  readonly table: TableDefinition | undefined;
  readonly version: TableVersion;
  readonly includeObject: IncludeObject;
  /** The object's apiVersion and kind, set on includeObject=Object rows. */
  readonly type: { readonly apiVersion: string; readonly kind: string };
  readonly now: Date;
  /** Leave out columnDefinitions (watch events after the first). */
  readonly noHeaders?: boolean;
}

function rowObject(obj: KubeObject, opts: TableOptions): unknown {
  switch (opts.includeObject) {
    case 'None':
      return null;
    case 'Object': {
      const { apiVersion: _a, kind: _k, ...rest } = obj;
      return { apiVersion: opts.type.apiVersion, kind: opts.type.kind, ...rest };
    }
    case 'Metadata':
      return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${opts.version}`, metadata: obj.metadata };
  }
}

function toRow(obj: KubeObject, def: TableDefinition, opts: TableOptions): TableRow {
  const conditions = def.conditions?.(obj) ?? [];
  return {
    cells: def.cells(obj, opts.now),
    ...(conditions.length > 0 ? { conditions } : {}),
    object: rowObject(obj, opts),
  };
}

function build(items: readonly KubeObject[], metadata: ListMeta, opts: TableOptions): Table {
  const def = opts.table ?? defaultTable;
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${opts.version}`,
    metadata,
    columnDefinitions: opts.noHeaders === true ? null : [...def.columns],
    rows: items.map((obj) => toRow(obj, def, opts)),
  };
}

/** A list as a Table; its paging metadata (resourceVersion, continue, remainingItemCount) carries over. */
export function tableForList(list: KubeList, opts: TableOptions): Table {
  const { resourceVersion, continue: cont, remainingItemCount } = list.metadata;
  const metadata: ListMeta = {
    ...(resourceVersion ? { resourceVersion } : {}),
    ...(cont ? { continue: cont } : {}),
    ...(remainingItemCount !== undefined && remainingItemCount !== null ? { remainingItemCount } : {}),
  };
  return build(list.items ?? [], metadata, opts);
}

/** One object as a one-row Table carrying the object's resourceVersion. */
export function tableForObject(obj: KubeObject, opts: TableOptions): Table {
  const resourceVersion = obj.metadata.resourceVersion;
  return build([obj], resourceVersion ? { resourceVersion } : {}, opts);
}
