// CustomResourceDefinition defaults and validation, the basics of kube's
// apiextensions v1 SetDefaults_* and ValidateCustomResourceDefinition: the name
// is <plural>.<group>, a group with a dot, a scope, names (plural, singular,
// kind, listKind as DNS-1035 labels), unique versions with exactly one storage
// version, and a schema with an object root for every version (v1 requires one).
// The full structural-schema rules (every property typed, x-kubernetes-* markers,
// CEL rules) come with custom resources themselves (TODO(#10): CRD serving).
import { invalidValue, notSupported, path, required, type FieldError, type FieldPath } from '../../../schema/field-errors.js';
import { validateImmutableField } from '../../../registry/validation/common.js';
import { isDNS1123Subdomain } from '../../../registry/validation/names.js';
import type { KubeObject } from '../../../schema/object.js';
import { arrayAt, objectAt, setDefault, stringAt, type Json } from '../../core/v1/helpers.js';

const SCOPES = ['Cluster', 'Namespaced'];
const CONVERSION_STRATEGIES = ['None', 'Webhook'];
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1035_LABEL.test(value)) errs.push(DNS1035_MSG);
  return errs;
}

function specOf(obj: KubeObject): Json {
  return objectAt(obj, 'spec') ?? {};
}

/** SetDefaults_CustomResourceDefinitionSpec: singular and listKind from kind, conversion None, webhook service port 443. */
export function defaultCustomResourceDefinition(obj: KubeObject): void {
  const spec = objectAt(obj, 'spec');
  if (spec === undefined) return;
  const names = objectAt(spec, 'names');
  if (names !== undefined) {
    const kind = stringAt(names, 'kind');
    setDefault(names, 'singular', kind.toLowerCase());
    if (kind !== '') setDefault(names, 'listKind', `${kind}List`);
  }
  setDefault(spec, 'conversion', { strategy: 'None' });
  const service = objectAt(objectAt(objectAt(objectAt(spec, 'conversion'), 'webhook'), 'clientConfig'), 'service');
  if (service !== undefined) setDefault(service, 'port', 443);
}

/** ValidateCustomResourceDefinitionNames (spec.names or status.acceptedNames). */
function validateNames(names: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['plural', 'singular']) {
    const v = stringAt(names, field);
    const msgs = isDNS1035Label(v);
    if (v !== '' && msgs.length > 0) errs.push(invalidValue(p.child(field), v, msgs.join(',')));
  }
  for (const field of ['kind', 'listKind']) {
    const v = stringAt(names, field);
    const msgs = isDNS1035Label(v.toLowerCase());
    if (v !== '' && msgs.length > 0) errs.push(invalidValue(p.child(field), v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
  }
  for (const list of ['shortNames', 'categories']) {
    const values = Array.isArray(names[list]) ? (names[list] as unknown[]) : [];
    values.forEach((v, i) => {
      const msgs = isDNS1035Label(String(v));
      if (msgs.length > 0) errs.push(invalidValue(p.child(list).index(i), v, msgs.join(',')));
    });
  }
  const kind = stringAt(names, 'kind');
  if (kind !== '' && kind === stringAt(names, 'listKind')) errs.push(invalidValue(p.child('listKind'), kind, 'kind and listKind may not be the same'));
  return errs;
}

/** The structural-schema root: present (v1 requires a schema per version) and of type object. */
function validateVersionSchema(version: Json, p: FieldPath): FieldError[] {
  const schema = objectAt(objectAt(version, 'schema'), 'openAPIV3Schema');
  if (schema === undefined) return [required(p.child('schema', 'openAPIV3Schema'), 'schemas are required')];
  const type = stringAt(schema, 'type');
  const at = p.child('schema', 'openAPIV3Schema', 'type');
  if (type === '') return [required(at, 'must not be empty at the root')];
  if (type !== 'object') return [invalidValue(at, type, 'must be object at the root')];
  return [];
}

function validateVersions(versions: Json[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (versions.length === 0) return [required(p, 'must have exactly one version marked as storage version')];
  const names = new Set<string>();
  let unique = true;
  let storage = 0;
  versions.forEach((v, i) => {
    const at = p.index(i);
    const name = stringAt(v, 'name');
    if (names.has(name)) unique = false;
    names.add(name);
    const msgs = isDNS1035Label(name);
    if (msgs.length > 0) errs.push(invalidValue(at.child('name'), name, msgs.join(',')));
    if (v.storage === true) storage++;
    errs.push(...validateVersionSchema(v, at));
  });
  const summary = versions.map((v) => ({ name: stringAt(v, 'name'), served: v.served === true, storage: v.storage === true }));
  if (!unique) errs.push(invalidValue(p, summary, 'must contain unique version names'));
  if (storage !== 1) errs.push(invalidValue(p, summary, 'must have exactly one version marked as storage version'));
  return errs;
}

function validateSpec(spec: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const group = stringAt(spec, 'group');
  if (group === '') errs.push(required(p.child('group')));
  else {
    const msgs = isDNS1123Subdomain(group);
    if (msgs.length > 0) errs.push(invalidValue(p.child('group'), group, msgs.join(',')));
    else if (group.split('.').length < 2) errs.push(invalidValue(p.child('group'), group, 'should be a domain with at least one dot'));
  }
  const scope = stringAt(spec, 'scope');
  if (scope === '') errs.push(required(p.child('scope')));
  else if (!SCOPES.includes(scope)) errs.push(notSupported(p.child('scope'), scope, SCOPES));
  errs.push(...validateVersions(arrayAt(spec, 'versions'), p.child('versions')));
  const names = objectAt(spec, 'names') ?? {};
  for (const field of ['plural', 'singular', 'kind', 'listKind']) if (stringAt(names, field) === '') errs.push(required(p.child('names', field)));
  errs.push(...validateNames(names, p.child('names')));
  const strategy = stringAt(objectAt(spec, 'conversion'), 'strategy');
  if (strategy !== '' && !CONVERSION_STRATEGIES.includes(strategy)) errs.push(notSupported(p.child('conversion', 'strategy'), strategy, CONVERSION_STRATEGIES));
  if (strategy === 'Webhook' && objectAt(objectAt(spec, 'conversion'), 'webhook') === undefined) {
    errs.push(required(p.child('conversion', 'webhook'), 'required when strategy is set to Webhook'));
  }
  return errs;
}

export function validateCustomResourceDefinition(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const errs: FieldError[] = [];
  const name = obj.metadata.name ?? '';
  const names = objectAt(spec, 'names') ?? {};
  if (name !== '' && name !== `${stringAt(names, 'plural')}.${stringAt(spec, 'group')}`) {
    errs.push(invalidValue(path('metadata', 'name'), name, 'must be spec.names.plural+"."+spec.group'));
  }
  errs.push(...validateSpec(spec, path('spec')));
  return errs;
}

export function isEstablished(obj: KubeObject): boolean {
  return arrayAt(objectAt(obj, 'status'), 'conditions').some((c) => c.type === 'Established' && c.status === 'True');
}

/** ValidateCustomResourceDefinitionUpdate: group and plural never change; scope and kind not once established. */
export function validateCustomResourceDefinitionUpdate(next: KubeObject, prev: KubeObject, ctx: { subresource: string }): FieldError[] {
  const errs = validateCustomResourceDefinition(next);
  // Accepted names are the strategy's own copy of spec.names except when a controller writes /status.
  const accepted = objectAt(objectAt(next, 'status'), 'acceptedNames');
  if (ctx.subresource === 'status' && accepted !== undefined) errs.push(...validateNames(accepted, path('status', 'acceptedNames')));
  const spec = specOf(next);
  const old = specOf(prev);
  const p = path('spec');
  if (isEstablished(prev)) {
    errs.push(...validateImmutableField(spec.scope, old.scope, p.child('scope')));
    errs.push(...validateImmutableField(objectAt(spec, 'names')?.kind, objectAt(old, 'names')?.kind, p.child('names', 'kind')));
  }
  errs.push(...validateImmutableField(spec.group, old.group, p.child('group')));
  errs.push(...validateImmutableField(objectAt(spec, 'names')?.plural, objectAt(old, 'names')?.plural, p.child('names', 'plural')));
  const versions = new Set(arrayAt(spec, 'versions').map((v) => stringAt(v, 'name')));
  const stored = objectAt(next, 'status')?.storedVersions;
  if (Array.isArray(stored)) {
    stored.forEach((v, i) => {
      if (!versions.has(String(v))) errs.push(invalidValue(path('status', 'storedVersions').index(i), v, 'must appear in spec.versions'));
    });
  }
  return errs;
}
