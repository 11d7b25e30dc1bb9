// Nodes: cluster scoped; kubelets create them with status and then write status
// through /status, so create keeps status and updates of the main resource don't.
import { defineResource } from '../../../registry/define-resource.js';
import { nodeTable } from './nodes-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { isValidLabelValue, isQualifiedName } from '../../../registry/validation/names.js';
import { arrayAt, objectAt, stringAt } from './helpers.js';

export const TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'] as const;

function defaultAllocatable(node: KubeObject): void {
  const status = objectAt(node, 'status');
  if (status !== undefined && status.allocatable === undefined && status.capacity !== undefined) {
    status.allocatable = structuredClone(status.capacity);
  }
}

export function validateNode(node: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  arrayAt(objectAt(node, 'spec'), 'taints').forEach((taint, i) => {
    const tp = path('spec', 'taints').index(i);
    const key = stringAt(taint, 'key');
    for (const msg of isQualifiedName(key)) errs.push(invalidValue(tp.child('key'), key, msg));
    const value = stringAt(taint, 'value');
    for (const msg of isValidLabelValue(value)) errs.push(invalidValue(tp.child('value'), value, msg));
    const effect = stringAt(taint, 'effect');
    if (effect === '') errs.push(required(tp.child('effect')));
    else if (!(TAINT_EFFECTS as readonly string[]).includes(effect)) errs.push(notSupported(tp.child('effect'), effect, TAINT_EFFECTS));
  });
  return errs;
}

export const nodes = defineResource({
  group: '',
  version: 'v1',
  kind: 'Node',
  plural: 'nodes',
  scope: 'Cluster',
  table: nodeTable,
  shortNames: ['no'],
  strategy: {
    // A Node keeps the status it is created with (the kubelet registers with one); updates keep the stored one.
    resetFields: { update: ['status'] },
    defaults: defaultAllocatable,
    validate: validateNode,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    selectableFields: (node) => ({ 'spec.unschedulable': String(objectAt(node, 'spec')?.unschedulable === true) }),
  },
  subresources: { status: { verbs: ['get', 'patch', 'update'], path: 'status' } },
});
