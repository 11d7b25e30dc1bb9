// What RoleBindings and ClusterRoleBindings share: kube's defaults (roleRef and
// User/Group subjects in the rbac group), the roleRef and subject rules, and the
// rule that a binding's roleRef never changes (delete and recreate instead).
import { type FieldError, type FieldPath, goLiteral, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../../../registry/validation/names.js';
import type { KubeObject } from '../../../schema/object.js';
import { arrayAt, ensureObject, objectAt, setDefault, stringAt, type Json } from '../../core/v1/helpers.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
const SUBJECT_KINDS = ['ServiceAccount', 'User', 'Group'] as const;

/** SetDefaults_RoleBinding / _ClusterRoleBinding / _Subject. */
export function defaultBinding(binding: KubeObject): void {
  setDefault(ensureObject(binding, 'roleRef'), 'apiGroup', RBAC_GROUP);
  for (const subject of arrayAt(binding, 'subjects')) {
    const kind = stringAt(subject, 'kind');
    if (kind === 'User' || kind === 'Group') setDefault(subject, 'apiGroup', RBAC_GROUP);
  }
}

function validateSubject(subject: Json, namespaced: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = stringAt(subject, 'name');
  const apiGroup = stringAt(subject, 'apiGroup');
  const kind = stringAt(subject, 'kind');
  if (name === '') errs.push(required(p.child('name')));
  switch (kind) {
    case 'ServiceAccount':
      if (name !== '') for (const msg of isDNS1123Subdomain(name)) errs.push(invalidValue(p.child('name'), name, msg));
      if (apiGroup !== '') errs.push(notSupported(p.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && stringAt(subject, 'namespace') === '') errs.push(required(p.child('namespace')));
      break;
    case 'User':
    case 'Group':
      if (name === '') errs.push(invalidValue(p.child('name'), name, `${kind.toLowerCase()} name cannot be empty`));
      if (apiGroup !== RBAC_GROUP) errs.push(notSupported(p.child('apiGroup'), apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(notSupported(p.child('kind'), kind, SUBJECT_KINDS));
  }
  return errs;
}

/** ValidateRoleBinding / ValidateClusterRoleBinding: the kinds a roleRef may name differ. */
export function validateBinding(binding: KubeObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = objectAt(binding, 'roleRef');
  const refPath = path('roleRef');
  const apiGroup = stringAt(ref, 'apiGroup');
  if (apiGroup !== RBAC_GROUP) errs.push(notSupported(refPath.child('apiGroup'), apiGroup, [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const kind = stringAt(ref, 'kind');
  if (!kinds.includes(kind)) errs.push(notSupported(refPath.child('kind'), kind, kinds));
  const name = stringAt(ref, 'name');
  if (name === '') errs.push(required(refPath.child('name')));
  else for (const msg of isValidPathSegmentName(name)) errs.push(invalidValue(refPath.child('name'), name, msg));
  arrayAt(binding, 'subjects').forEach((s, i) => errs.push(...validateSubject(s, namespaced, path('subjects').index(i))));
  return errs;
}

function roleRefOf(binding: KubeObject): { apiGroup: string; kind: string; name: string } {
  const ref = objectAt(binding, 'roleRef');
  return { apiGroup: stringAt(ref, 'apiGroup'), kind: stringAt(ref, 'kind'), name: stringAt(ref, 'name') };
}

/** The new roleRef printed as kube prints it (Go's %#v of rbac.RoleRef). */
function goRoleRef(ref: { apiGroup: string; kind: string; name: string }): string {
  return `rbac.RoleRef{APIGroup:${JSON.stringify(ref.apiGroup)}, Kind:${JSON.stringify(ref.kind)}, Name:${JSON.stringify(ref.name)}}`;
}

export function validateRoleRefUnchanged(next: KubeObject, prev: KubeObject): FieldError[] {
  const a = roleRefOf(next);
  const b = roleRefOf(prev);
  if (a.apiGroup === b.apiGroup && a.kind === b.kind && a.name === b.name) return [];
  return [invalidValue(path('roleRef'), goLiteral(goRoleRef(a)), 'cannot change roleRef')];
}
