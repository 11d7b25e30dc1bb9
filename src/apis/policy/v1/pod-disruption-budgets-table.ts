// `kubectl get poddisruptionbudgets`: NAME MIN AVAILABLE MAX UNAVAILABLE
// ALLOWED DISRUPTIONS AGE (kube's printPodDisruptionBudget; N/A for the unset one).
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { objectAt } from '../../core/v1/helpers.js';

function intOrString(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'string') return String(v);
  return 'N/A';
}

export const podDisruptionBudgetTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Min Available', description: 'The minimum number of pods that must be available.' }),
    column({ name: 'Max Unavailable', description: 'The maximum number of pods that may be unavailable.' }),
    column({ name: 'Allowed Disruptions', type: 'integer', description: 'Calculated number of pods that may be disrupted at this time.' }),
    AGE_COLUMN,
  ],
  cells: (pdb, now) => {
    const spec = objectAt(pdb, 'spec');
    const allowed = objectAt(pdb, 'status')?.disruptionsAllowed;
    return [nameOf(pdb), intOrString(spec?.minAvailable), intOrString(spec?.maxUnavailable), typeof allowed === 'number' ? allowed : 0, ageOf(pdb, now)];
  },
};
