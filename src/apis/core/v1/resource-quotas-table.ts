// `kubectl get resourcequotas`: NAME AGE REQUEST LIMIT. Every hard limit in
// status appears as "name: used/hard"; names starting with "limits." go to LIMIT,
// the rest to REQUEST, each sorted by resource name.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import type { KubeObject } from '../../../schema/object.js';
import { objectAt } from './helpers.js';
import { quantityCell } from './shared-table.js';

export function quotaCells(quota: KubeObject): { request: string; limit: string } {
  const status = objectAt(quota, 'status');
  const hard = objectAt(status, 'hard') ?? {};
  const used = objectAt(status, 'used');
  const request: string[] = [];
  const limit: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const text = `${name}: ${quantityCell(used, name)}/${quantityCell(hard, name)}`;
    (name.split('.')[0] === 'limits' && name.includes('.') ? limit : request).push(text);
  }
  return { request: request.join(', '), limit: limit.join(', ') };
}

export const resourceQuotaTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    column({ name: 'Request', description: 'Used and hard amounts of every resource except limits.*.' }),
    column({ name: 'Limit', description: 'Used and hard amounts of the limits.* resources.' }),
  ],
  cells: (quota, now) => {
    const { request, limit } = quotaCells(quota);
    return [nameOf(quota), ageOf(quota, now), request, limit];
  },
};
