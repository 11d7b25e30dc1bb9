// DaemonSets: one pod per node. kube-apiserver defaults the RollingUpdate
// strategy (maxUnavailable 1, maxSurge 0) and the history limit; the selector
// must be non-empty, match the template labels, and is fixed once created. The
// template generation kube keeps internally is what v1 shows as the
// `deprecated.daemonset.template.generation` annotation: 1 on create, +1 with
// each template change. No scale subresource (the node count decides).
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { deepEqual } from '../../../registry/validation/common.js';
import { validateLabelSelector } from '../../../registry/validation/label-selector.js';
import { setDefault } from '../../core/v1/helpers.js';
import { daemonSetTable } from './daemon-sets-table.js';
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
  validatePodTemplateSpec,
  validatePositiveIntOrPercent,
  validateSelectorMatchesTemplate,
  validateSelectorUnchanged,
  specTemplateWarnings,
} from './workload.js';

/** The annotation apps/v1 carries the internal spec.templateGeneration in. */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';
const STRATEGY_TYPES = ['RollingUpdate', 'OnDelete'] as const;

/** SetDefaults_DaemonSet and the template's pod defaults. */
function defaultDaemonSet(ds: KubeObject): void {
  const spec = ensureObject(ds, 'spec');
  const strategy = ensureObject(spec, 'updateStrategy');
  setDefault(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const rollingUpdate = ensureObject(strategy, 'rollingUpdate');
    setDefault(rollingUpdate, 'maxUnavailable', 1);
    setDefault(rollingUpdate, 'maxSurge', 0);
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultWorkloadTemplate(spec);
}

function templateGeneration(ds: KubeObject): number {
  const v = Number.parseInt(ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION] ?? '', 10);
  return Number.isNaN(v) ? 0 : v;
}

function setTemplateGeneration(ds: KubeObject, generation: number): void {
  ds.metadata.annotations = { ...ds.metadata.annotations, [TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
}

/** ValidateRollingUpdateDaemonSet: exactly one of maxUnavailable and maxSurge is non-zero. */
function validateRollingUpdate(ru: Json, p: FieldPath): FieldError[] {
  const errs = [
    ...validatePositiveIntOrPercent(ru.maxUnavailable, p.child('maxUnavailable')),
    ...validatePositiveIntOrPercent(ru.maxSurge, p.child('maxSurge')),
    ...validateNotMoreThan100Percent(ru.maxUnavailable, p.child('maxUnavailable')),
    ...validateNotMoreThan100Percent(ru.maxSurge, p.child('maxSurge')),
  ];
  const hasUnavailable = !isZero(ru.maxUnavailable);
  const hasSurge = !isZero(ru.maxSurge);
  if (hasUnavailable && hasSurge) errs.push(invalidIntOrString(p.child('maxSurge'), ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
  if (!hasUnavailable && !hasSurge) errs.push(required(p.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  return errs;
}

function validateUpdateStrategy(strategy: Json | undefined, p: FieldPath): FieldError[] {
  switch (stringAt(strategy, 'type')) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const rollingUpdate = objectAt(strategy, 'rollingUpdate');
      return rollingUpdate === undefined ? [required(p.child('rollingUpdate'))] : validateRollingUpdate(rollingUpdate, p.child('rollingUpdate'));
    }
    default:
      return [notSupported(p, strategy ?? {}, STRATEGY_TYPES)];
  }
}

/** ValidateDaemonSetSpec (an absent selector selects nothing, so the template labels never match it). */
export function validateDaemonSet(ds: KubeObject): FieldError[] {
  const spec = objectAt(ds, 'spec') ?? {};
  const sp = path('spec');
  const template = objectAt(spec, 'template') ?? {};
  const tp = sp.child('template');
  const errs = validateLabelSelector(spec.selector, sp.child('selector'));
  errs.push(...validateSelectorMatchesTemplate(selectorOf(spec.selector), template, tp));
  const selector = objectAt(spec, 'selector');
  if (selector !== undefined && Object.keys(objectAt(selector, 'matchLabels') ?? {}).length === 0 && !(Array.isArray(selector.matchExpressions) && selector.matchExpressions.length > 0)) {
    errs.push(invalidValue(sp.child('selector'), selector, 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(template, tp));
  errs.push(...validateLongRunningTemplate(template, tp, 'DaemonSet'));
  errs.push(...validateNonnegativeFields(spec, ['minReadySeconds'], sp));
  errs.push(...validateUpdateStrategy(objectAt(spec, 'updateStrategy'), sp.child('updateStrategy')));
  errs.push(...validateNonnegativeFields(spec, ['revisionHistoryLimit'], sp));
  return errs;
}

/** validateDaemonSetStatus and the collision count that only grows. */
function validateDaemonSetStatus(next: KubeObject, prev: KubeObject): FieldError[] {
  const fields = ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'];
  return [...validateNonnegativeFields(objectAt(next, 'status'), fields, path('status')), ...validateCollisionCount(next, prev)];
}

export const daemonSets = defineResource({
  group: 'apps',
  version: 'v1',
  kind: 'DaemonSet',
  plural: 'daemonsets',
  scope: 'Namespaced',
  shortNames: ['ds'],
  categories: ['all'],
  table: daemonSetTable,
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: defaultDaemonSet,
    prepareForCreate: (ds) => {
      ds.metadata.generation = 1;
      setTemplateGeneration(ds, 1);
      ds.status = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
    },
    // A template change moves the template generation and the generation; any other spec change the generation only.
    prepareForUpdate: (next, prev) => {
      const templateChanged = !deepEqual(objectAt(next, 'spec')?.template, objectAt(prev, 'spec')?.template);
      setTemplateGeneration(next, templateGeneration(prev) + (templateChanged ? 1 : 0));
      bumpGenerationOn(next, prev, templateChanged || specChanged(next, prev));
    },
    validate: validateDaemonSet,
    validateUpdate: (next, prev) => [...validateDaemonSet(next), ...validateSelectorUnchanged(next, prev)],
    warnings: specTemplateWarnings,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: validateDaemonSetStatus },
  },
});
