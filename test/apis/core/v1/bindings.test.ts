// kube's ValidatePodBinding as a table: what a Binding's target may be. The bind
// itself (conflicts, preconditions, what it writes) is tested through the real
// server in test/e2e/bindings-componentstatuses.test.ts.
import { describe, expect, test } from 'vitest';
import { validateBinding } from '../../../../src/apis/core/v1/bindings.js';
import type { KubeObject } from '../../../../src/schema/object.js';

const binding = (target: unknown): KubeObject => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target }) as KubeObject;

describe('validateBinding', () => {
  const cases: ReadonlyArray<{ name: string; target: unknown; want: Array<{ field: string; type: string }> }> = [
    { name: 'a named Node', target: { kind: 'Node', name: 'n1' }, want: [] },
    { name: 'a name without a kind', target: { name: 'n1' }, want: [] },
    { name: 'no name', target: { kind: 'Node' }, want: [{ field: 'target.name', type: 'FieldValueRequired' }] },
    { name: 'no target at all', target: undefined, want: [{ field: 'target.name', type: 'FieldValueRequired' }] },
    { name: 'a Pod', target: { kind: 'Pod', name: 'x' }, want: [{ field: 'target.kind', type: 'FieldValueNotSupported' }] },
    {
      name: 'a prototype-named kind and no name',
      target: { kind: '__proto__' },
      want: [
        { field: 'target.kind', type: 'FieldValueNotSupported' },
        { field: 'target.name', type: 'FieldValueRequired' },
      ],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(validateBinding(binding(c.target)).map((e) => ({ field: e.field, type: e.type }))).toEqual(c.want);
    });
  }
});
