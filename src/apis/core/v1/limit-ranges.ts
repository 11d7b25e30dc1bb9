// LimitRanges: per-namespace default and bounding resources. Container items get
// kube's defaulting chain (max -> default -> defaultRequest, min -> defaultRequest)
// so `kubectl get limits -o yaml` shows the same filled-in values.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, duplicate, invalidValue, path } from '../../../schema/field-errors.js';
import { type Json, arrayAt, objectAt, stringAt } from './helpers.js';
import { parseQuantity } from './quantity.js';

const QUANTITY_MAPS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;

function defaultItem(item: Json): void {
  if (item.type !== 'Container') return;
  const def: Json = { ...(objectAt(item, 'default') ?? {}) };
  const req: Json = { ...(objectAt(item, 'defaultRequest') ?? {}) };
  for (const [k, v] of Object.entries(objectAt(item, 'max') ?? {})) if (!(k in def)) def[k] = v;
  for (const [k, v] of Object.entries(def)) if (!(k in req)) req[k] = v;
  for (const [k, v] of Object.entries(objectAt(item, 'min') ?? {})) if (!(k in req)) req[k] = v;
  // Empty maps are omitted on the wire (omitempty), so only set what has entries.
  if (Object.keys(def).length > 0) item.default = def;
  if (Object.keys(req).length > 0) item.defaultRequest = req;
}

function applyDefaults(lr: KubeObject): void {
  for (const item of arrayAt(objectAt(lr, 'spec'), 'limits')) defaultItem(item);
}

export function validateLimitRange(lr: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  arrayAt(objectAt(lr, 'spec'), 'limits').forEach((item, i) => {
    const ip = path('spec', 'limits').index(i);
    const type = stringAt(item, 'type');
    if (seen.has(type)) errs.push(duplicate(ip.child('type'), type));
    seen.add(type);
    for (const field of QUANTITY_MAPS) {
      for (const [k, v] of Object.entries(objectAt(item, field) ?? {})) {
        const n = parseQuantity(v);
        if (n !== undefined && n < 0) errs.push(invalidValue(ip.child(field).key(k), String(v), 'must be greater than or equal to 0'));
      }
    }
  });
  return errs;
}

export const limitRanges = defineResource({
  group: '',
  version: 'v1',
  kind: 'LimitRange',
  plural: 'limitranges',
  scope: 'Namespaced',
  shortNames: ['limits'],
  strategy: {
    defaults: applyDefaults,
    validate: validateLimitRange,
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
  },
});
