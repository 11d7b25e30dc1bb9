// IngressClasses: which controller implements a class of ingresses (a
// domain-prefixed path, fixed once set) and an optional parameters reference,
// scoped to the cluster unless it names a namespace.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, forbiddenField, invalidValue, notSupported, path, required, tooLong } from '../../../schema/field-errors.js';
import { validateImmutableField } from '../../../registry/validation/common.js';
import { isDNS1123Label } from '../../../registry/validation/names.js';
import { bumpGenerationIfChanged, objectAt, stringAt, type Json } from '../../core/v1/helpers.js';
import { ownField } from '../../../schema/field-path.js';
import { ingressClassTable } from './networking-table.js';
import { validateTypedReference } from './ingresses.js';
import { domainPrefixedPathErrors } from './net.js';

const MAX_CONTROLLER_LENGTH = 250;
const SCOPES = ['Cluster', 'Namespace'] as const;

/** SetDefaults_IngressClass: parameters without a scope are cluster-scoped. */
function defaultIngressClass(ic: KubeObject): void {
  const params = objectAt(objectAt(ic, 'spec'), 'parameters');
  if (params !== undefined && (params.scope === undefined || params.scope === null)) params.scope = 'Cluster';
}

/** The reference an ingress's resource backend is, plus where the object lives (scope, namespace). */
function validateParameters(params: Json, p: FieldPath): FieldError[] {
  const errs = validateTypedReference(params, p);
  const scope = ownField(params, 'scope');
  if (scope === undefined || scope === null) return [...errs, required(p.child('scope'))];
  const namespace = ownField(params, 'namespace');
  if (scope === 'Namespace') {
    if (typeof namespace !== 'string') errs.push(required(p.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
    else for (const msg of isDNS1123Label(namespace)) errs.push(invalidValue(p.child('namespace'), namespace, msg));
  } else if (scope === 'Cluster') {
    if (namespace !== undefined && namespace !== null) errs.push(forbiddenField(p.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
  } else {
    errs.push(notSupported(p.child('scope'), scope, SCOPES));
  }
  return errs;
}

export function validateIngressClass(ic: KubeObject): FieldError[] {
  const spec = objectAt(ic, 'spec') ?? {};
  const cp = path('spec', 'controller');
  const controller = stringAt(spec, 'controller');
  const errs: FieldError[] = [];
  if (controller === '') errs.push(required(cp));
  else {
    if (controller.length > MAX_CONTROLLER_LENGTH) errs.push(tooLong(cp, MAX_CONTROLLER_LENGTH));
    for (const e of domainPrefixedPathErrors(controller)) errs.push(invalidValue(cp, e.value, e.message));
  }
  const params = objectAt(spec, 'parameters');
  if (params !== undefined) errs.push(...validateParameters(params, path('spec', 'parameters')));
  return errs;
}

export const ingressClasses = defineResource({
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'IngressClass',
  plural: 'ingressclasses',
  scope: 'Cluster',
  table: ingressClassTable,
  strategy: {
    defaults: defaultIngressClass,
    prepareForCreate: (ic) => {
      ic.metadata.generation = 1;
    },
    prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
    validate: validateIngressClass,
    validateUpdate: (next, prev) => [
      ...validateImmutableField(stringAt(objectAt(next, 'spec'), 'controller'), stringAt(objectAt(prev, 'spec'), 'controller'), path('spec', 'controller')),
      ...validateIngressClass(next),
    ],
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
});
