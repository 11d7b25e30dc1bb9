// ReplicationControllers: replicas of a pod template. Kube defaults the selector
// and the RC's own labels from the template labels and replicas to 1; the
// controller manager owns status and scales through /scale.
import { defineResource } from '../../../registry/define-resource.js';
import { replicationControllerTable } from './replication-controllers-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { validateNonnegative } from '../../../registry/validation/common.js';
import { validateLabels } from '../../../registry/validation/label-selector.js';
import { labelSetRequirements, matchesLabels } from '../../../schema/label-selector.js';
import { type Json, bumpGenerationIfChanged, ensureObject, objectAt, stringAt } from './helpers.js';
import { defaultTemplate, validateTemplate } from './pod-templates.js';
import { workloadTemplateWarnings } from './pod-warnings.js';
import { isDNS1123Label } from '../../../registry/validation/names.js';

function applyDefaults(rc: KubeObject): void {
  const spec = ensureObject(rc, 'spec');
  const template = objectAt(spec, 'template');
  const labels = objectAt(objectAt(template, 'metadata'), 'labels') as Record<string, string> | undefined;
  if (labels !== undefined) {
    if (Object.keys(objectAt(spec, 'selector') ?? {}).length === 0) spec.selector = { ...labels };
    if (Object.keys(rc.metadata.labels ?? {}).length === 0) rc.metadata.labels = { ...labels };
  }
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  if (template !== undefined) defaultTemplate(template);
}

export function validateReplicationController(rc: KubeObject): FieldError[] {
  const spec: Json = objectAt(rc, 'spec') ?? {};
  const sp = path('spec');
  const errs = validateNonnegative(spec.replicas, sp.child('replicas'));
  const selector = objectAt(spec, 'selector') ?? {};
  if (Object.keys(selector).length === 0) errs.push(required(sp.child('selector')));
  else errs.push(...validateLabels(selector, sp.child('selector')));
  const template = objectAt(spec, 'template');
  if (template === undefined) return [...errs, required(sp.child('template'))];
  const labels = objectAt(objectAt(template, 'metadata'), 'labels');
  if (Object.keys(selector).length > 0 && !matchesLabels(labelSetRequirements(selector), labels)) {
    errs.push(invalidValue(sp.child('template', 'metadata', 'labels'), labels ?? {}, '`selector` does not match template `labels`'));
  }
  errs.push(...validateTemplate(template, sp.child('template')));
  const restartPolicy = stringAt(objectAt(template, 'spec'), 'restartPolicy');
  if (restartPolicy !== 'Always') errs.push(notSupported(sp.child('template', 'spec', 'restartPolicy'), restartPolicy, ['Always']));
  return errs;
}

export const replicationControllers = defineResource({
  group: '',
  version: 'v1',
  kind: 'ReplicationController',
  plural: 'replicationcontrollers',
  scope: 'Namespaced',
  table: replicationControllerTable,
  shortNames: ['rc'],
  categories: ['all'],
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: applyDefaults,
    prepareForCreate: (rc) => {
      rc.metadata.generation = 1;
      rc.status = { replicas: 0 };
    },
    prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
    validate: validateReplicationController,
    warnings: (rc, prev) => {
      const msgs = prev === undefined ? isDNS1123Label(rc.metadata.name ?? '') : [];
      const name = msgs.length === 0 ? [] : [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`];
      return [...name, ...workloadTemplateWarnings(rc, prev, path('spec', 'template'), objectAt(objectAt(rc, 'spec'), 'template'))];
    },
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    selectableFields: (rc) => ({ 'status.replicas': String(objectAt(rc, 'status')?.replicas ?? 0) }),
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status' },
    // Scale reads spec.replicas/status.replicas and the selector as a label selector string.
    scale: {
      verbs: ['get', 'patch', 'update'],
      path: 'spec.replicas',
      responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: 'spec.selector' },
    },
  },
});
