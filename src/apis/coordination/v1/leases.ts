// Leases: leader election and node heartbeats. kube checks durations and counts
// (positive, non-negative) and the coordinated-election strategy fields.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, forbiddenField, invalidValue, notSupported, path } from '../../../schema/field-errors.js';
import { isQualifiedName } from '../../../registry/validation/names.js';
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { objectAt, stringAt } from '../../core/v1/helpers.js';
import { ownField } from '../../../schema/field-path.js';

const STRATEGIES = ['OldestEmulationVersion'] as const;

export function validateLease(lease: KubeObject): FieldError[] {
  const spec = objectAt(lease, 'spec') ?? {};
  const sp = path('spec');
  const errs: FieldError[] = [];
  const duration = ownField(spec, 'leaseDurationSeconds');
  if (typeof duration === 'number' && duration <= 0) errs.push(invalidValue(sp.child('leaseDurationSeconds'), duration, 'must be greater than 0'));
  const transitions = ownField(spec, 'leaseTransitions');
  if (typeof transitions === 'number' && transitions < 0) errs.push(invalidValue(sp.child('leaseTransitions'), transitions, 'must be greater than or equal to 0'));
  const strategy = ownField(spec, 'strategy');
  if (typeof strategy === 'string') {
    // A name with a slash is a custom strategy (a qualified name); a bare one must be kube's own.
    if (strategy.includes('/')) for (const msg of isQualifiedName(strategy)) errs.push(invalidValue(sp.child('strategy'), strategy, msg));
    else if (!(STRATEGIES as readonly string[]).includes(strategy)) errs.push(notSupported(sp.child('strategy'), strategy, STRATEGIES));
  }
  if (stringAt(spec, 'preferredHolder') !== '' && stringAt(spec, 'strategy') === '') {
    errs.push(forbiddenField(sp.child('preferredHolder'), 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

export const leaseTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'Holder', description: 'Who holds the lease now.' }), AGE_COLUMN],
  cells: (lease, now) => [nameOf(lease), stringAt(objectAt(lease, 'spec'), 'holderIdentity'), ageOf(lease, now)],
};

export const leases = defineResource({
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  plural: 'leases',
  scope: 'Namespaced',
  table: leaseTable,
  strategy: {
    validate: validateLease,
    // Leader election creates its lease with a PUT when none exists.
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: false,
  },
});
