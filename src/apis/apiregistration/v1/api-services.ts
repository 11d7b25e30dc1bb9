// APIService: which server serves a group/version, stored and validated as
// kube-aggregator does (ValidateAPIService: the name is <version>.<group>,
// priorities in range, a service reference or none for a local API). Requests
// are not proxied to the service yet (TODO(#10): aggregation), and no
// availability controller runs: a local APIService is marked Available on
// create, as kube's controller marks it at once; a service-backed one has no
// Available condition (kubectl shows Unknown) until aggregation lands.
import { invalidValue, notSupported, path, required, type FieldError } from '../../../schema/field-errors.js';
import { defineResource } from '../../../registry/define-resource.js';
import { rfc3339 } from '../../../registry/store/metadata.js';
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import type { KubeObject } from '../../../schema/object.js';
import { isDNS1123Subdomain } from '../../../registry/validation/names.js';
import { arrayAt, objectAt, setDefault, stringAt } from '../../core/v1/helpers.js';

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const CONDITION_STATUSES = ['True', 'False', 'Unknown'];

function spec(obj: KubeObject): Record<string, unknown> {
  return objectAt(obj, 'spec') ?? {};
}

function isLocal(obj: KubeObject): boolean {
  const service = spec(obj).service;
  return service === undefined || service === null;
}

export function defaultAPIService(obj: KubeObject): void {
  const service = objectAt(spec(obj), 'service');
  if (service !== undefined) setDefault(service, 'port', 443);
}

export function validateAPIService(obj: KubeObject): FieldError[] {
  const s = spec(obj);
  const group = stringAt(s, 'group');
  const version = stringAt(s, 'version');
  const errs: FieldError[] = [];
  const name = obj.metadata.name ?? '';
  const want = `${version}.${group}`;
  if (name !== '' && name !== want) errs.push(invalidValue(path('metadata', 'name'), name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(want)}`));
  if (group === '' && version !== 'v1') errs.push(required(path('spec', 'group'), 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '') for (const msg of isDNS1123Subdomain(group)) errs.push(invalidValue(path('spec', 'group'), group, msg));
  if (version.length > 63) errs.push(invalidValue(path('spec', 'version'), version, 'must be no more than 63 characters'));
  if (!DNS1035_LABEL.test(version)) {
    errs.push(invalidValue(path('spec', 'version'), version, "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"));
  }
  const gpm = typeof s.groupPriorityMinimum === 'number' ? s.groupPriorityMinimum : 0;
  if (gpm <= 0 || gpm > 20000) errs.push(invalidValue(path('spec', 'groupPriorityMinimum'), gpm, 'must be positive and less than 20000'));
  const vp = typeof s.versionPriority === 'number' ? s.versionPriority : 0;
  if (vp <= 0 || vp > 1000) errs.push(invalidValue(path('spec', 'versionPriority'), vp, 'must be positive and less than 1000'));
  const caBundle = typeof s.caBundle === 'string' ? Buffer.from(s.caBundle, 'base64') : Buffer.alloc(0);
  const insecure = s.insecureSkipTLSVerify === true;
  const service = objectAt(s, 'service');
  if (service === undefined) {
    if (caBundle.length > 0) errs.push(invalidValue(path('spec', 'caBundle'), `${caBundle.length} bytes`, 'local APIServices may not have a caBundle'));
    if (insecure) errs.push(invalidValue(path('spec', 'insecureSkipTLSVerify'), true, 'local APIServices may not have insecureSkipTLSVerify'));
    return errs;
  }
  if (stringAt(service, 'namespace') === '') errs.push(required(path('spec', 'service', 'namespace')));
  if (stringAt(service, 'name') === '') errs.push(required(path('spec', 'service', 'name')));
  const port = typeof service.port === 'number' ? service.port : 0;
  if (!Number.isInteger(port) || port < 1 || port > 65535) errs.push(invalidValue(path('spec', 'service', 'port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  if (insecure && caBundle.length > 0) errs.push(invalidValue(path('spec', 'insecureSkipTLSVerify'), true, 'may not be true if caBundle is present'));
  return errs;
}

/** ValidateAPIServiceStatus: condition statuses are True, False or Unknown. */
function validateStatus(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  arrayAt(obj.status, 'conditions').forEach((c, i) => {
    if (!CONDITION_STATUSES.includes(stringAt(c, 'status'))) errs.push(notSupported(path('status', 'conditions').index(i).child('status'), c.status, CONDITION_STATUSES));
  });
  return errs;
}

/** NAME SERVICE AVAILABLE AGE: the service as namespace/name or Local; the Available condition with its reason. */
export const apiServiceTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Service', description: 'The reference to the service that hosts this API endpoint.' }),
    column({ name: 'Available', description: 'Whether this service is available.' }),
    AGE_COLUMN,
  ],
  cells: (obj, now) => {
    const service = objectAt(spec(obj), 'service');
    const where = service === undefined ? 'Local' : `${stringAt(service, 'namespace')}/${stringAt(service, 'name')}`;
    const available = arrayAt(obj.status, 'conditions').find((c) => c.type === 'Available');
    let status = 'Unknown';
    if (available !== undefined) status = stringAt(available, 'reason') === '' ? stringAt(available, 'status') : `${stringAt(available, 'status')} (${stringAt(available, 'reason')})`;
    return [nameOf(obj), where, status, ageOf(obj, now)];
  },
};

export const apiServices = defineResource({
  group: 'apiregistration.k8s.io',
  version: 'v1',
  kind: 'APIService',
  plural: 'apiservices',
  scope: 'Cluster',
  categories: ['api-extensions'],
  nameValidation: 'path-segment',
  table: apiServiceTable,
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: (next) => validateStatus(next) },
  },
  strategy: {
    defaults: defaultAPIService,
    resetFields: { create: ['status'], update: ['status'] },
    prepareForCreate: (obj, ctx) => {
      // kube-aggregator's strategy itself marks local APIServices available on create.
      if (isLocal(obj)) {
        obj.status = { conditions: [{ type: 'Available', status: 'True', lastTransitionTime: rfc3339(ctx.now), reason: 'Local', message: 'Local APIServices are always available' }] };
      }
    },
    validate: validateAPIService,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
  },
});
