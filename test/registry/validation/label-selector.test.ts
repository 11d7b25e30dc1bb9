import { describe, expect, test } from 'vitest';
// metav1 validation's ValidateLabels and ValidateLabelSelector as field errors:
// where each error points and how it reads (apimachinery's validation_test rows).
import { path } from '../../../src/schema/field-errors.js';
import { validateLabelSelector, validateLabels } from '../../../src/registry/validation/label-selector.js';

const VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const QNAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const sp = path('spec', 'selector');

describe('validateLabelSelector', () => {
  const cases: { name: string; input: unknown; want: { field: string; message: string }[] }[] = [
    { name: 'absent is valid', input: undefined, want: [] },
    { name: 'empty is valid', input: {}, want: [] },
    { name: 'a good selector', input: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }, { key: 'x', operator: 'Exists' }] }, want: [] },
    {
      name: 'matchLabels errors point at the map',
      input: { matchLabels: { 'a b': 'c d' } },
      want: [
        { field: 'spec.selector.matchLabels', message: `spec.selector.matchLabels: Invalid value: "a b": ${QNAME_MSG}` },
        { field: 'spec.selector.matchLabels', message: `spec.selector.matchLabels: Invalid value: "c d": ${VALUE_MSG}` },
      ],
    },
    {
      name: 'In needs values',
      input: { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] },
      want: [{ field: 'spec.selector.matchExpressions[0].values', message: "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'" }],
    },
    {
      name: 'Exists takes no values',
      input: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      want: [{ field: 'spec.selector.matchExpressions[0].values', message: "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'" }],
    },
    {
      name: 'an unknown operator, then the key',
      input: { matchExpressions: [{ key: '', operator: 'Gt', values: ['1'] }] },
      want: [
        { field: 'spec.selector.matchExpressions[0].operator', message: 'spec.selector.matchExpressions[0].operator: Invalid value: "Gt": not a valid selector operator' },
        { field: 'spec.selector.matchExpressions[0].key', message: `spec.selector.matchExpressions[0].key: Invalid value: "": name part must be non-empty` },
        { field: 'spec.selector.matchExpressions[0].key', message: `spec.selector.matchExpressions[0].key: Invalid value: "": ${QNAME_MSG}` },
      ],
    },
    {
      name: 'an operator named like a prototype member is unknown',
      input: { matchExpressions: [{ key: 'a', operator: 'toString' }] },
      want: [{ field: 'spec.selector.matchExpressions[0].operator', message: 'spec.selector.matchExpressions[0].operator: Invalid value: "toString": not a valid selector operator' }],
    },
    {
      name: 'values are label values',
      input: { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['ok', 'not ok'] }] },
      want: [{ field: 'spec.selector.matchExpressions[0].values[1]', message: `spec.selector.matchExpressions[0].values[1]: Invalid value: "not ok": ${VALUE_MSG}` }],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(validateLabelSelector(c.input, sp).map((e) => ({ field: e.field, message: e.message }))).toEqual(c.want);
    });
  }

  test('AllowInvalidLabelValueInSelector skips the values syntax only', () => {
    const sel = { matchExpressions: [{ key: 'a', operator: 'In', values: ['not ok'] }, { key: 'b', operator: 'Bad' }] };
    expect(validateLabelSelector(sel, sp, { allowInvalidLabelValueInSelector: true }).map((e) => e.field)).toEqual(['spec.selector.matchExpressions[1].operator']);
  });

  test('inherited members are not the selector', () => {
    const sel = Object.create({ matchExpressions: [{ key: 'a', operator: 'Bad' }] }) as object;
    expect(validateLabelSelector(sel, sp)).toEqual([]);
  });
});

describe('validateLabels', () => {
  test('a good map', () => expect(validateLabels({ app: 'web', 'example.com/tier': '' }, path('metadata', 'labels'))).toEqual([]));
  test('absent or not a map', () => {
    expect(validateLabels(undefined, path('x'))).toEqual([]);
    expect(validateLabels(null, path('x'))).toEqual([]);
  });
  test('a __proto__ key is a label key like any other', () => {
    const labels = JSON.parse('{"__proto__":"x"}') as unknown;
    expect(validateLabels(labels, path('metadata', 'labels')).map((e) => e.message)).toEqual([`metadata.labels: Invalid value: "__proto__": ${QNAME_MSG}`]);
  });
});
