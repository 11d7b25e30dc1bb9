// `kubectl get secrets`: NAME TYPE DATA AGE.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { stringAt } from './helpers.js';

function dataKeys(secret: Record<string, unknown>): number {
  // stringData is write-only and folded into data on write; count its keys too in
  // case an object reaches us unfolded, without counting a key twice.
  const keys = new Set<string>();
  for (const field of ['data', 'stringData']) {
    const v = secret[field];
    if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) keys.add(k);
  }
  return keys.size;
}

export const secretTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Type', description: 'The secret type, which fixes the keys it must hold.' }),
    column({ name: 'Data', description: 'Number of keys in data.' }),
    AGE_COLUMN,
  ],
  cells: (secret, now) => [nameOf(secret), stringAt(secret, 'type'), dataKeys(secret), ageOf(secret, now)],
};
