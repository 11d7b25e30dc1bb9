// ServiceAccounts. The token subresource is added by the group's factory
// (coreV1 in index.ts, withTokenRequest), which is given the token issuer; the `default` account of every namespace
// comes from the namespace-defaults controller.
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
