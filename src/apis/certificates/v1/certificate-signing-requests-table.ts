// `kubectl get csr`: NAME AGE SIGNERNAME REQUESTOR REQUESTEDDURATION CONDITION.
// CONDITION is Denied, Approved or Pending (in that precedence), then ",Failed"
// and ",Issued" when they apply.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, humanDuration, nameOf, type TableDefinition } from '../../../registry/table.js';
import { arrayAt, objectAt, stringAt } from '../../core/v1/helpers.js';
import type { KubeObject } from '../../../schema/object.js';

export function csrCondition(csr: KubeObject): string {
  const status = objectAt(csr, 'status');
  const types = new Set(arrayAt(status, 'conditions').map((c) => c.type));
  let out = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) out += ',Failed';
  if (stringAt(status, 'certificate') !== '') out += ',Issued';
  return out;
}

export const certificateSigningRequestTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    column({ name: 'SignerName', description: 'The signer the request is addressed to.' }),
    column({ name: 'Requestor', description: 'The user who created the request.' }),
    column({ name: 'RequestedDuration', description: 'The validity the request asks for (spec.expirationSeconds).' }),
    column({ name: 'Condition', description: 'Whether the request is approved, denied, failed or issued.' }),
  ],
  cells: (csr, now) => {
    const spec = objectAt(csr, 'spec');
    const seconds = spec?.expirationSeconds;
    return [
      nameOf(csr),
      ageOf(csr, now),
      stringAt(spec, 'signerName') || '<none>',
      stringAt(spec, 'username'),
      typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>',
      csrCondition(csr),
    ];
  },
};
