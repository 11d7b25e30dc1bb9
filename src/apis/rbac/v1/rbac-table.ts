// `kubectl get rolebindings|clusterrolebindings`: NAME ROLE AGE, and with -o wide
// the subjects split into USERS, GROUPS and SERVICEACCOUNTS (namespace/name).
// Roles and cluster roles have no printer in kube: the default NAME CREATED AT.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { arrayAt, objectAt, stringAt } from '../../core/v1/helpers.js';

export const roleBindingTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Role', description: 'The role the binding grants, as kind/name.' }),
    AGE_COLUMN,
    column({ name: 'Users', priority: 1, description: 'Users the binding applies to.' }),
    column({ name: 'Groups', priority: 1, description: 'Groups the binding applies to.' }),
    column({ name: 'ServiceAccounts', priority: 1, description: 'Service accounts the binding applies to, as namespace/name.' }),
  ],
  cells: (rb, now) => {
    const users: string[] = [];
    const groups: string[] = [];
    const serviceAccounts: string[] = [];
    for (const s of arrayAt(rb, 'subjects')) {
      const name = stringAt(s, 'name');
      switch (stringAt(s, 'kind')) {
        case 'User':
          users.push(name);
          break;
        case 'Group':
          groups.push(name);
          break;
        case 'ServiceAccount':
          serviceAccounts.push(`${stringAt(s, 'namespace')}/${name}`);
          break;
      }
    }
    const ref = objectAt(rb, 'roleRef');
    return [nameOf(rb), `${stringAt(ref, 'kind')}/${stringAt(ref, 'name')}`, ageOf(rb, now), users.join(', '), groups.join(', '), serviceAccounts.join(', ')];
  },
};
