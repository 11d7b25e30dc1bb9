// ConfigMaps: keyed data (UTF-8 in data, base64 in binaryData) with one size limit
// for both, and an `immutable` switch that freezes the payload for good.
import { defineResource } from '../../../registry/define-resource.js';
import { configMapTable } from './config-maps-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, forbiddenField, path, tooLong, unnamedPath } from '../../../schema/field-errors.js';
import { deepEqual } from '../../../registry/validation/common.js';
import { MAX_SECRET_SIZE, dataSize, validateDataKeys } from './helpers.js';

export const IMMUTABLE_SET = 'field is immutable when `immutable` is set';

export function validateConfigMap(cm: KubeObject): FieldError[] {
  const errs = [
    ...validateDataKeys(cm.data, path('data'), { data: cm.binaryData, name: 'binaryData' }),
    ...validateDataKeys(cm.binaryData, path('binaryData'), { data: cm.data, name: 'data' }),
  ];
  // Kube reports the size on the whole object (an empty field path).
  if (dataSize(cm.data, false) + dataSize(cm.binaryData, true) > MAX_SECRET_SIZE) errs.push(tooLong(unnamedPath(), MAX_SECRET_SIZE));
  return errs;
}

/** Shared with Secrets: once immutable, the listed payload fields and the flag itself are frozen. */
export function validateImmutablePayload(next: KubeObject, prev: KubeObject, fields: readonly string[]): FieldError[] {
  if (prev.immutable !== true) return [];
  const errs: FieldError[] = [];
  const at = (f: string): FieldPath => path(f);
  if (next.immutable !== true) errs.push(forbiddenField(at('immutable'), IMMUTABLE_SET));
  for (const f of fields) if (!deepEqual(next[f], prev[f])) errs.push(forbiddenField(at(f), IMMUTABLE_SET));
  return errs;
}

export const configMaps = defineResource({
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  scope: 'Namespaced',
  table: configMapTable,
  shortNames: ['cm'],
  strategy: {
    validate: validateConfigMap,
    validateUpdate: (next, prev) => [...validateImmutablePayload(next, prev, ['data', 'binaryData']), ...validateConfigMap(next)],
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
});
