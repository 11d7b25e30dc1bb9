// ServiceAccounts: plain metadata holders at this stage; token minting
// (/token) and the default-account controller come with authentication.
import { defineResource } from '../../../registry/define-resource.js';
import { serviceAccountTable } from './service-accounts-table.js';

export const serviceAccounts = defineResource({
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  scope: 'Namespaced',
  table: serviceAccountTable,
  shortNames: ['sa'],
  strategy: { allowCreateOnUpdate: true, allowUnconditionalUpdate: true, returnDeletedObject: true },
});
