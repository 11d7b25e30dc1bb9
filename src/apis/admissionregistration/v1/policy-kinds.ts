// The four admission-policy kinds as served resources: generation moves with the
// spec, ValidatingAdmissionPolicy keeps its status (type-checking results) to
// the status subresource. Columns as kube's printers: policies count their
// validations or mutations and name their paramKind, bindings name their policy
// and paramRef.
import { defineResource, type ResourceDefinition } from '../../../registry/define-resource.js';
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import type { KubeObject } from '../../../schema/object.js';
import { arrayAt, bumpGenerationIfChanged, objectAt, stringAt } from '../../core/v1/helpers.js';
import type { FieldError } from '../../../schema/field-errors.js';
import {
  defaultBinding,
  defaultPolicy,
  validateMutatingAdmissionPolicy,
  validateMutatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
} from './policies.js';

const UNSET = '<unset>';

function paramKindOf(obj: KubeObject): string {
  const kind = objectAt(obj.spec, 'paramKind');
  return kind === undefined ? UNSET : `${stringAt(kind, 'apiVersion')}/${stringAt(kind, 'kind')}`;
}

function paramRefOf(obj: KubeObject): string {
  const ref = objectAt(obj.spec, 'paramRef');
  if (ref === undefined) return UNSET;
  const name = stringAt(ref, 'name');
  const namespace = stringAt(ref, 'namespace');
  if (name !== '') return namespace === '' ? name : `${namespace}/${name}`;
  return ref.selector !== undefined ? (namespace === '' ? '*' : `${namespace}/*`) : UNSET;
}

function policyTable(what: 'validations' | 'mutations'): TableDefinition {
  const title = what === 'validations' ? 'Validations' : 'Mutations';
  return {
    columns: [
      NAME_COLUMN,
      column({ name: title, type: 'integer', description: `${title} indicates the number of ${what === 'validations' ? 'validation rules' : 'mutations'} defined in this configuration` }),
      column({ name: 'ParamKind', description: 'ParamKind specifies the kind of resources used to parameterize this policy' }),
      AGE_COLUMN,
    ],
    cells: (obj, now) => [nameOf(obj), arrayAt(obj.spec, what).length, paramKindOf(obj), ageOf(obj, now)],
  };
}

const bindingTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'PolicyName', description: 'PolicyName indicates the policy definition which the policy binding binded to' }),
    column({ name: 'ParamRef', description: 'ParamRef indicates the param resource which sets the configration param' }),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [nameOf(obj), stringAt(obj.spec, 'policyName'), paramRefOf(obj), ageOf(obj, now)],
};

interface KindOptions {
  readonly kind: string;
  readonly plural: string;
  readonly defaults: (obj: KubeObject) => void;
  readonly validate: (obj: KubeObject) => FieldError[];
  readonly table: TableDefinition;
  readonly status?: boolean;
  readonly shortNames?: readonly string[];
}

function admissionKind(o: KindOptions): ResourceDefinition {
  return defineResource({
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: o.kind,
    plural: o.plural,
    scope: 'Cluster',
    shortNames: o.shortNames ?? [],
    categories: ['api-extensions'],
    table: o.table,
    ...(o.status === true ? { subresources: { status: { verbs: ['get', 'patch', 'update'], path: 'status' } } } : {}),
    strategy: {
      defaults: o.defaults,
      prepareForCreate: (obj) => {
        obj.metadata.generation = 1;
      },
      prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
      validate: o.validate,
      ...(o.status === true ? { resetFields: { create: ['status'], update: ['status'] } } : {}),
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: true,
    },
  });
}

export const validatingAdmissionPolicies = admissionKind({
  kind: 'ValidatingAdmissionPolicy',
  plural: 'validatingadmissionpolicies',
  defaults: defaultPolicy,
  validate: validateValidatingAdmissionPolicy,
  table: policyTable('validations'),
  status: true,
});
export const validatingAdmissionPolicyBindings = admissionKind({
  kind: 'ValidatingAdmissionPolicyBinding',
  plural: 'validatingadmissionpolicybindings',
  defaults: defaultBinding,
  validate: validateValidatingAdmissionPolicyBinding,
  table: bindingTable,
});
export const mutatingAdmissionPolicies = admissionKind({
  kind: 'MutatingAdmissionPolicy',
  plural: 'mutatingadmissionpolicies',
  shortNames: ['map'],
  defaults: defaultPolicy,
  validate: validateMutatingAdmissionPolicy,
  table: policyTable('mutations'),
});
export const mutatingAdmissionPolicyBindings = admissionKind({
  kind: 'MutatingAdmissionPolicyBinding',
  plural: 'mutatingadmissionpolicybindings',
  defaults: defaultBinding,
  validate: validateMutatingAdmissionPolicyBinding,
  table: bindingTable,
});
