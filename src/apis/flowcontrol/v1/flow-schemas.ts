// FlowSchemas: which requests go to which priority level (API Priority and
// Fairness). kube defaults matchingPrecedence to 1000 and checks the rules'
// shape; the status (the Dangling condition) belongs to the server's APF
// controller and changes only through /status.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, forbiddenField, invalidValue, notSupported, path, required, duplicate } from '../../../schema/field-errors.js';
import { isDNS1123Label } from '../../../registry/validation/names.js';
import { isDNS1123Subdomain } from '../../../registry/validation/names.js';
import { type Json, arrayAt, bumpGenerationIfChanged, ensureObject, objectAt, stringAt } from '../../core/v1/helpers.js';
import { flowSchemaTable } from './flow-schemas-table.js';

export const DEFAULT_MATCHING_PRECEDENCE = 1000;
export const MAX_MATCHING_PRECEDENCE = 10000;
const DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const NS_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

function applyDefaults(fs: KubeObject): void {
  const spec = ensureObject(fs, 'spec');
  if (spec.matchingPrecedence === undefined || spec.matchingPrecedence === null || spec.matchingPrecedence === 0) {
    spec.matchingPrecedence = DEFAULT_MATCHING_PRECEDENCE;
  }
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

function validateVerbs(verbs: string[], p: FieldPath): FieldError[] {
  if (verbs.length === 0) return [required(p, 'verbs must contain at least one value')];
  if (verbs.includes('*')) return verbs.length > 1 ? [invalidValue(p, verbs, "if '*' is present, must not specify other verbs")] : [];
  return verbs.every((v) => VERBS.includes(v)) ? [] : [notSupported(p, verbs, VERBS)];
}

function validateListWithWildcard(values: string[], p: FieldPath, what: string, requiredText: string): FieldError[] {
  if (values.length === 0) return [required(p, requiredText)];
  if (values.length > 1 && values.includes('*')) return [invalidValue(p, values, `if '*' is present, must not specify other ${what}`)];
  return [];
}

function nonResourceURLProblem(url: string): string {
  if (url === '') return 'must not be empty';
  if (url === '/') return '';
  if (!url.startsWith('/')) return 'must start with slash';
  if (url.includes(' ')) return 'must not contain white-space';
  if (url.includes('//')) return 'must not contain double slash';
  const wildcards = url.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && !url.endsWith('/*'))) return 'wildcard can only do suffix matching';
  return '';
}

function validateSubject(subject: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const kind = stringAt(subject, 'kind');
  const others: Record<string, [string, string]> = {
    user: ['user', "user is forbidden when subject kind is not 'User'"],
    group: ['group', "group is forbidden when subject kind is not 'Group'"],
    serviceAccount: ['serviceAccount', "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"],
  };
  const own = kind === 'User' ? 'user' : kind === 'Group' ? 'group' : kind === 'ServiceAccount' ? 'serviceAccount' : '';
  if (own === '') return [notSupported(p.child('kind'), kind, SUBJECT_KINDS)];
  const body = objectAt(subject, own);
  if (body === undefined) errs.push(required(p.child(own), `${own} is required when subject kind is '${kind}'`));
  else if (own === 'serviceAccount') {
    const name = stringAt(body, 'name');
    const namespace = stringAt(body, 'namespace');
    if (name === '') errs.push(required(p.child(own, 'name')));
    else if (name !== '*') for (const msg of isDNS1123Subdomain(name)) errs.push(invalidValue(p.child(own, 'name'), name, msg));
    if (namespace === '') errs.push(required(p.child(own, 'namespace'), 'must specify namespace for service account'));
    else for (const msg of isDNS1123Label(namespace)) errs.push(invalidValue(p.child(own, 'namespace'), namespace, msg));
  } else if (stringAt(body, 'name') === '') errs.push(required(p.child(own, 'name')));
  for (const [field, [name, text]] of Object.entries(others)) {
    if (field !== own && subject[field] !== undefined && subject[field] !== null) errs.push(forbiddenField(p.child(name), text));
  }
  return errs;
}

function validateRule(rule: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = arrayAt(rule, 'subjects');
  if (subjects.length === 0) errs.push(required(p.child('subjects'), 'subjects must contain at least one value'));
  subjects.forEach((s, i) => errs.push(...validateSubject(s, p.child('subjects').index(i))));
  const resourceRules = arrayAt(rule, 'resourceRules');
  const nonResourceRules = arrayAt(rule, 'nonResourceRules');
  if (resourceRules.length === 0 && nonResourceRules.length === 0) errs.push(required(p, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  resourceRules.forEach((r, i) => {
    const rp = p.child('resourceRules').index(i);
    errs.push(...validateVerbs(strings(r.verbs), rp.child('verbs')));
    errs.push(...validateListWithWildcard(strings(r.apiGroups), rp.child('apiGroups'), 'api groups', 'resource rules must supply at least one api group'));
    errs.push(...validateListWithWildcard(strings(r.resources), rp.child('resources'), 'resources', 'resource rules must supply at least one resource'));
    const namespaces = strings(r.namespaces);
    if (namespaces.length === 0 && r.clusterScope !== true) {
      errs.push(required(rp.child('namespaces'), 'resource rules that are not cluster scoped must supply at least one namespace'));
    } else if (namespaces.includes('*')) {
      if (namespaces.length > 1) errs.push(invalidValue(rp.child('namespaces'), namespaces, "if '*' is present, must not specify other namespaces"));
    } else {
      namespaces.forEach((ns, j) => {
        for (const msg of isDNS1123Label(ns)) errs.push(invalidValue(rp.child('namespaces').index(j), ns, NS_INTRO + msg));
      });
    }
  });
  nonResourceRules.forEach((r, i) => {
    const rp = p.child('nonResourceRules').index(i);
    errs.push(...validateVerbs(strings(r.verbs), rp.child('verbs')));
    const urls = strings(r.nonResourceURLs);
    if (urls.length === 0) errs.push(required(rp.child('nonResourceURLs'), 'nonResourceURLs must contain at least one value'));
    else if (urls.includes('*')) {
      if (urls.length > 1) errs.push(invalidValue(rp.child('nonResourceURLs'), urls, "if '*' is present, must not specify other non-resource URLs"));
    } else {
      urls.forEach((u, j) => {
        const problem = nonResourceURLProblem(u);
        if (problem !== '') errs.push(invalidValue(rp.child('nonResourceURLs').index(j), u, problem));
      });
    }
  });
  return errs;
}

/** Condition types are unique and named (shared with priority levels). */
export function validateConditions(obj: KubeObject): FieldError[] {
  const p = path('status', 'conditions');
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  arrayAt(objectAt(obj, 'status'), 'conditions').forEach((c, i) => {
    const type = stringAt(c, 'type');
    if (seen.has(type)) errs.push(duplicate(p.index(i).child('type'), type));
    seen.add(type);
    if (type === '') errs.push(required(p.index(i).child('type'), 'must not be empty'));
  });
  return errs;
}

export function validateFlowSchema(fs: KubeObject): FieldError[] {
  const spec: Json = objectAt(fs, 'spec') ?? {};
  const sp = path('spec');
  const errs: FieldError[] = [];
  const precedence = typeof spec.matchingPrecedence === 'number' ? spec.matchingPrecedence : 0;
  if (precedence <= 0) errs.push(invalidValue(sp.child('matchingPrecedence'), precedence, 'must be a positive value'));
  if (precedence > MAX_MATCHING_PRECEDENCE) errs.push(invalidValue(sp.child('matchingPrecedence'), precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
  if (precedence === 1 && fs.metadata.name !== 'exempt') {
    errs.push(invalidValue(sp.child('matchingPrecedence'), precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  }
  const method = objectAt(spec, 'distinguisherMethod');
  if (method !== undefined && !DISTINGUISHER_METHODS.includes(stringAt(method, 'type'))) {
    errs.push(notSupported(sp.child('distinguisherMethod', 'type'), method, DISTINGUISHER_METHODS));
  }
  const plName = stringAt(objectAt(spec, 'priorityLevelConfiguration'), 'name');
  if (plName === '') errs.push(required(sp.child('priorityLevelConfiguration', 'name'), 'must reference a priority level'));
  else for (const msg of isDNS1123Subdomain(plName)) errs.push(invalidValue(sp.child('priorityLevelConfiguration', 'name'), plName, msg));
  arrayAt(spec, 'rules').forEach((r, i) => errs.push(...validateRule(r, sp.child('rules').index(i))));
  errs.push(...validateConditions(fs));
  return errs;
}

export const flowSchemas = defineResource({
  group: 'flowcontrol.apiserver.k8s.io',
  version: 'v1',
  kind: 'FlowSchema',
  plural: 'flowschemas',
  scope: 'Cluster',
  table: flowSchemaTable,
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: applyDefaults,
    prepareForCreate: (fs) => {
      fs.metadata.generation = 1;
    },
    prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
    validate: validateFlowSchema,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: (next) => validateConditions(next) },
  },
});
