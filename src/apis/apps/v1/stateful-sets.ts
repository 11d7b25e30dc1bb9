// StatefulSets: pods with stable names and storage. kube-apiserver defaults the
// pod management policy (OrderedReady), the RollingUpdate strategy with
// partition 0, the claim retention policy (Retain, Retain), replicas and the
// history limit, and its claim templates as claims. Names are DNS labels (pod
// hostnames derive from them). After creation only replicas, ordinals, template,
// updateStrategy, persistentVolumeClaimRetentionPolicy and minReadySeconds may
// change. maxUnavailable sits behind MaxUnavailableStatefulSet, off by default
// in 1.36, so a new value is dropped unless the stored object already uses one.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, forbiddenField, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { deepEqual, validateNonnegative } from '../../../registry/validation/common.js';
import { validateLabels } from '../../../registry/validation/label-selector.js';
import { isDNS1123Label } from '../../../registry/validation/names.js';
import { validateAnnotations } from '../../../registry/validation/object-meta.js';
import { arrayAt, setDefault } from '../../core/v1/helpers.js';
import { statefulSetTable } from './stateful-sets-table.js';
import {
  type Json,
  bumpGenerationOn,
  defaultWorkloadTemplate,
  ensureObject,
  invalidIntOrString,
  isZero,
  objectAt,
  selectorOf,
  specChanged,
  stringAt,
  validateCollisionCount,
  validateLongRunningTemplate,
  validateNonnegativeFields,
  validateNotMoreThan100Percent,
  validatePositiveIntOrPercent,
  validateRequiredSelector,
  validateSelectorMatchesTemplate,
  validateStatusBounds,
  SCALE_SUBRESOURCE,
  specTemplateWarnings,
} from './workload.js';

const RETENTION_POLICIES = ['Retain', 'Delete'] as const;
/** The spec fields an update may change (ValidateStatefulSetUpdate). */
const MUTABLE_SPEC_FIELDS = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'] as const;

/** SetDefaults_StatefulSet, the template's pod defaults, and each claim template as a claim (SetDefaults_PersistentVolumeClaim). */
function defaultStatefulSet(sts: KubeObject): void {
  const spec = ensureObject(sts, 'spec');
  setDefault(spec, 'podManagementPolicy', 'OrderedReady');
  const strategy = ensureObject(spec, 'updateStrategy');
  if (stringAt(strategy, 'type') === '') {
    strategy.type = 'RollingUpdate';
    ensureObject(strategy, 'rollingUpdate');
  }
  const rollingUpdate = objectAt(strategy, 'rollingUpdate');
  if (strategy.type === 'RollingUpdate' && rollingUpdate !== undefined) setDefault(rollingUpdate, 'partition', 0);
  const retention = ensureObject(spec, 'persistentVolumeClaimRetentionPolicy');
  setDefault(retention, 'whenDeleted', 'Retain');
  setDefault(retention, 'whenScaled', 'Retain');
  setDefault(spec, 'replicas', 1);
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultWorkloadTemplate(spec);
  for (const claim of arrayAt(spec, 'volumeClaimTemplates')) {
    setDefault(ensureObject(claim, 'spec'), 'volumeMode', 'Filesystem');
    setDefault(ensureObject(claim, 'status'), 'phase', 'Pending');
  }
}

function maxUnavailableOf(sts: KubeObject | undefined): unknown {
  return objectAt(objectAt(objectAt(sts, 'spec'), 'updateStrategy'), 'rollingUpdate')?.maxUnavailable;
}

/** dropStatefulSetDisabledFields: maxUnavailable needs its (disabled) gate unless already in use. */
function dropDisabledFields(next: KubeObject, prev: KubeObject | undefined): void {
  if (maxUnavailableOf(prev) !== undefined) return;
  const rollingUpdate = objectAt(objectAt(objectAt(next, 'spec'), 'updateStrategy'), 'rollingUpdate');
  if (rollingUpdate !== undefined) delete rollingUpdate.maxUnavailable;
}

function validateUpdateStrategy(strategy: Json | undefined, p: FieldPath): FieldError[] {
  const rollingUpdate = objectAt(strategy, 'rollingUpdate');
  const rp = p.child('rollingUpdate');
  switch (stringAt(strategy, 'type')) {
    case '':
      return [required(p)];
    case 'OnDelete':
      return rollingUpdate === undefined ? [] : [invalidValue(rp, rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'")];
    case 'RollingUpdate': {
      if (rollingUpdate === undefined) return [];
      const errs = validateNonnegative(rollingUpdate.partition, rp.child('partition'));
      const maxUnavailable = rollingUpdate.maxUnavailable;
      if (maxUnavailable !== undefined && maxUnavailable !== null) {
        const mp = rp.child('maxUnavailable');
        errs.push(...validatePositiveIntOrPercent(maxUnavailable, mp));
        if (isZero(maxUnavailable)) errs.push(invalidIntOrString(mp, maxUnavailable, 'cannot be 0'));
        errs.push(...validateNotMoreThan100Percent(maxUnavailable, mp));
      }
      return errs;
    }
    default:
      return [invalidValue(p, strategy, "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

function validateRetentionPolicy(policy: Json | undefined, p: FieldPath): FieldError[] {
  if (policy === undefined) return [];
  return (['whenDeleted', 'whenScaled'] as const).flatMap((f) => {
    const v = stringAt(policy, f);
    return (RETENTION_POLICIES as readonly string[]).includes(v) ? [] : [notSupported(p.child(f), v, RETENTION_POLICIES)];
  });
}

/** ValidatePodTemplateSpecForStatefulSet: the selector matches; labels and annotations (kube leaves the pod spec to the pods). */
function validateStatefulSetTemplate(spec: Json, sp: FieldPath): FieldError[] {
  const selector = selectorOf(spec.selector);
  if (selector.kind === 'invalid') return [invalidValue(sp.child('selector'), spec.selector, '')];
  const template = objectAt(spec, 'template') ?? {};
  const tp = sp.child('template');
  const meta = objectAt(template, 'metadata');
  return [
    ...validateSelectorMatchesTemplate(selector, template, tp),
    ...validateLabels(meta?.labels, tp.child('labels')),
    ...validateAnnotations(objectAt(meta, 'annotations') as Record<string, string> | undefined, tp.child('annotations')),
  ];
}

/** ValidateStatefulSetSpec. */
export function validateStatefulSet(sts: KubeObject): FieldError[] {
  const spec = objectAt(sts, 'spec') ?? {};
  const sp = path('spec');
  const errs: FieldError[] = [];
  const policy = stringAt(spec, 'podManagementPolicy');
  if (policy === '') errs.push(required(sp.child('podManagementPolicy')));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(invalidValue(sp.child('podManagementPolicy'), policy, "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...validateUpdateStrategy(objectAt(spec, 'updateStrategy'), sp.child('updateStrategy')));
  errs.push(...validateRetentionPolicy(objectAt(spec, 'persistentVolumeClaimRetentionPolicy'), sp.child('persistentVolumeClaimRetentionPolicy')));
  errs.push(...validateNonnegativeFields(spec, ['replicas', 'minReadySeconds'], sp));
  errs.push(...validateNonnegative(objectAt(spec, 'ordinals')?.start, sp.child('ordinals.start')));
  // The pods' subdomain (kube 1.33+).
  const serviceName = stringAt(spec, 'serviceName');
  if (serviceName !== '') for (const msg of isDNS1123Label(serviceName)) errs.push(invalidValue(sp.child('serviceName'), serviceName, msg));
  errs.push(...validateRequiredSelector(spec, sp, 'statefulset'));
  errs.push(...validateStatefulSetTemplate(spec, sp));
  errs.push(...validateLongRunningTemplate(objectAt(spec, 'template') ?? {}, sp.child('template'), 'StatefulSet'));
  return errs;
}

/** ValidateStatefulSetUpdate: only the mutable fields may differ from the stored spec. */
function validateStatefulSetUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  const strip = (o: KubeObject): Json => {
    const spec: Json = { ...(objectAt(o, 'spec') ?? {}) };
    for (const f of MUTABLE_SPEC_FIELDS) delete spec[f];
    return spec;
  };
  const errs = validateStatefulSet(next);
  if (!deepEqual(strip(next), strip(prev))) {
    errs.push(
      forbiddenField(
        path('spec'),
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  }
  return errs;
}

/** ValidateStatefulSetStatusUpdate. */
function validateStatefulSetStatus(next: KubeObject, prev: KubeObject): FieldError[] {
  const status = objectAt(next, 'status');
  const sp = path('status');
  const msg = 'cannot be greater than status.replicas';
  return [
    ...validateNonnegativeFields(status, ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'], sp),
    ...validateStatusBounds(status, sp, [
      ['readyReplicas', 'replicas', msg],
      ['currentReplicas', 'replicas', msg],
      ['updatedReplicas', 'replicas', msg],
      ['availableReplicas', 'replicas', msg],
      ['availableReplicas', 'readyReplicas', 'cannot be greater than status.readyReplicas'],
    ]),
    ...validateCollisionCount(next, prev),
  ];
}

export const statefulSets = defineResource({
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  scope: 'Namespaced',
  shortNames: ['sts'],
  categories: ['all'],
  nameValidation: 'label',
  table: statefulSetTable,
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: defaultStatefulSet,
    prepareForCreate: (sts) => {
      sts.metadata.generation = 1;
      sts.status = { replicas: 0, availableReplicas: 0 };
      dropDisabledFields(sts, undefined);
    },
    prepareForUpdate: (next, prev) => {
      dropDisabledFields(next, prev);
      bumpGenerationOn(next, prev, specChanged(next, prev));
    },
    validate: validateStatefulSet,
    validateUpdate: validateStatefulSetUpdate,
    warnings: specTemplateWarnings,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: validateStatefulSetStatus },
    scale: SCALE_SUBRESOURCE,
  },
});
