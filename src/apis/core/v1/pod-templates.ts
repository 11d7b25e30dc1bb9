// PodTemplates: a named pod template; the template gets the pod spec defaults and
// validation (images may be empty, as in kube). Generation follows template changes.
import { defineResource } from '../../../registry/define-resource.js';
import { podTemplateTable } from './pod-templates-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, path } from '../../../schema/field-errors.js';
import { validateLabels } from '../../../registry/validation/label-selector.js';
import { type Json, bumpGenerationIfChanged, ensureObject, objectAt } from './helpers.js';
import { defaultPodSpec } from './pod-spec-defaults.js';
import { addTemplateEphemeralErrors, validatePodSpec } from './pod-spec-validation.js';
import { workloadTemplateWarnings } from './pod-warnings.js';

/** Defaults of a PodTemplateSpec embedded anywhere (templates, RCs). */
export function defaultTemplate(template: Json): void {
  defaultPodSpec(ensureObject(template, 'spec'));
}

export function validateTemplate(template: Json | undefined, p: FieldPath): FieldError[] {
  const meta = objectAt(template, 'metadata');
  const spec = objectAt(template, 'spec') ?? {};
  const errs = [...validateLabels(meta?.labels, p.child('metadata', 'labels')), ...validatePodSpec(spec, p.child('spec'), { isPod: false })];
  addTemplateEphemeralErrors(errs, spec, p.child('spec'));
  return errs;
}

const TEMPLATE = path('template');

function validatePodTemplate(pt: KubeObject): FieldError[] {
  return validateTemplate(objectAt(pt, 'template'), TEMPLATE);
}

export const podTemplates = defineResource({
  group: '',
  version: 'v1',
  kind: 'PodTemplate',
  plural: 'podtemplates',
  scope: 'Namespaced',
  table: podTemplateTable,
  strategy: {
    defaults: (pt) => defaultTemplate(ensureObject(pt, 'template')),
    prepareForCreate: (pt) => {
      pt.metadata.generation = 1;
    },
    prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev, 'template'),
    validate: validatePodTemplate,
    warnings: (pt, prev) => workloadTemplateWarnings(pt, prev, TEMPLATE, objectAt(pt, 'template')),
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    returnDeletedObject: true,
  },
});
