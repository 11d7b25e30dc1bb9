import { describe, expect, test } from 'vitest';
import { buildPredicate, parseFieldSelector, type FieldRequirement } from '../../src/registry/selection.js';
import { defineResource } from '../../src/registry/define-resource.js';
import { StatusError } from '../../src/errors/status-error.js';
import type { KubeObject } from '../../src/schema/object.js';

const parseCases: { name: string; input: string; want: FieldRequirement[] }[] = [
  { name: 'empty', input: '', want: [] },
  { name: 'one term', input: 'metadata.name=web', want: [{ field: 'metadata.name', operator: '=', value: 'web' }] },
  {
    name: 'sorted terms, == and !=',
    input: 'status.phase!=Running,metadata.name==web',
    want: [
      { field: 'metadata.name', operator: '=', value: 'web' },
      { field: 'status.phase', operator: '!=', value: 'Running' },
    ],
  },
  { name: 'empty value', input: 'spec.nodeName=', want: [{ field: 'spec.nodeName', operator: '=', value: '' }] },
  { name: 'escaped comma', input: 'a=b\\,c', want: [{ field: 'a', operator: '=', value: 'b,c' }] },
  { name: 'trailing comma ignored', input: 'a=b,', want: [{ field: 'a', operator: '=', value: 'b' }] },
];

describe('parseFieldSelector', () => {
  for (const c of parseCases) test(c.name, () => expect(parseFieldSelector(c.input)).toEqual(c.want));
});

const errorCases: { name: string; input: string; want: string }[] = [
  { name: 'no operator', input: 'abc', want: "invalid selector: 'abc'; can't understand 'abc'" },
  { name: 'unescaped equals in value', input: 'a=b=c', want: 'invalid field selector: unescaped character in value: 61' },
  { name: 'bad escape', input: 'a=b\\x', want: 'invalid field selector: invalid escape sequence: \\x' },
];

function errorOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('no error thrown');
}

describe('parseFieldSelector errors', () => {
  for (const c of errorCases) {
    test(c.name, () => {
      const err = errorOf(() => parseFieldSelector(c.input));
      expect(err.code).toBe(400);
      expect(err.message).toBe(c.want);
    });
  }
});

const widgets = defineResource({
  group: 'example.test',
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced',
  strategy: { selectableFields: (o) => ({ 'spec.color': String((o.spec as { color?: string } | undefined)?.color ?? '') }) },
});

const red: KubeObject = { metadata: { name: 'a', namespace: 'ns1', labels: { tier: 'front' } }, spec: { color: 'red' } };
const blue: KubeObject = { metadata: { name: 'b', namespace: 'ns2' }, spec: { color: 'blue' } };

const predicateCases: { name: string; labelSelector?: string; fieldSelector?: string; want: { a: boolean; b: boolean } | 'none' }[] = [
  { name: 'no selectors', want: 'none' },
  { name: 'blank selectors', labelSelector: '', fieldSelector: '', want: 'none' },
  { name: 'metadata.name', fieldSelector: 'metadata.name=a', want: { a: true, b: false } },
  { name: 'metadata.namespace not equal', fieldSelector: 'metadata.namespace!=ns1', want: { a: false, b: true } },
  { name: 'kind field', fieldSelector: 'spec.color=blue', want: { a: false, b: true } },
  { name: 'label and field together', labelSelector: 'tier', fieldSelector: 'spec.color=red', want: { a: true, b: false } },
  { name: 'label negation', labelSelector: '!tier', want: { a: false, b: true } },
];

describe('buildPredicate', () => {
  for (const c of predicateCases) {
    test(c.name, () => {
      const p = buildPredicate({ labelSelector: c.labelSelector, fieldSelector: c.fieldSelector, resource: widgets });
      if (c.want === 'none') expect(p).toBeUndefined();
      else expect({ a: p!(red), b: p!(blue) }).toEqual(c.want);
    });
  }

  test('unsupported field label', () => {
    const err = errorOf(() => buildPredicate({ fieldSelector: 'spec.size=1', resource: widgets }));
    expect(err.code).toBe(400);
    expect(err.message).toBe('field label not supported: spec.size');
  });
});
