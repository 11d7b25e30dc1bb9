import { describe, expect, test } from 'vitest';
// Label selectors in their one home: the string grammar with kube's error texts,
// LabelSelector and label sets as requirements, matching, and the canonical text.
// Rows follow apimachinery's pkg/labels behaviour (selector_test.go's cases where
// they apply) and metav1.LabelSelectorAsSelector's.
import {
  LabelSelectorError,
  labelSelectorRequirements,
  labelSetRequirements,
  matchesLabelSelector,
  matchesLabels,
  newRequirement,
  parseLabelSelector,
  renderLabelSelector,
  type LabelRequirement,
  type LabelSelector,
} from '../../src/schema/label-selector.js';

function errorOf(fn: () => unknown): LabelSelectorError {
  try {
    fn();
  } catch (e) {
    if (e instanceof LabelSelectorError) return e;
    throw e;
  }
  throw new Error('no error thrown');
}

const VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const QNAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('parseLabelSelector', () => {
  const cases: { name: string; input: string; want: LabelRequirement[] }[] = [
    { name: 'empty', input: '', want: [] },
    { name: 'whitespace only', input: ' \t\r\n', want: [] },
    { name: 'equals', input: 'app=web', want: [{ key: 'app', operator: '=', values: ['web'] }] },
    { name: 'double equals', input: 'app==web', want: [{ key: 'app', operator: '==', values: ['web'] }] },
    { name: 'not equals with spaces', input: ' app != web ', want: [{ key: 'app', operator: '!=', values: ['web'] }] },
    { name: 'empty value', input: 'app=', want: [{ key: 'app', operator: '=', values: [''] }] },
    { name: 'exists', input: 'app', want: [{ key: 'app', operator: 'exists', values: [] }] },
    { name: 'does not exist', input: '!app', want: [{ key: 'app', operator: '!', values: [] }] },
    { name: 'in, values sorted and unique', input: 'env in (prod,dev,prod)', want: [{ key: 'env', operator: 'in', values: ['dev', 'prod'] }] },
    { name: 'notin of the empty set is the empty value', input: 'env notin ()', want: [{ key: 'env', operator: 'notin', values: [''] }] },
    { name: 'empty members of a set', input: 'x in (foo,,baz)', want: [{ key: 'x', operator: 'in', values: ['', 'baz', 'foo'] }] },
    { name: 'a leading comma in a set', input: 'x in (,a)', want: [{ key: 'x', operator: 'in', values: ['', 'a'] }] },
    { name: 'a keyword as a value', input: 'a=in', want: [{ key: 'a', operator: '=', values: ['in'] }] },
    { name: 'keywords inside a set', input: 'a in (in,notin)', want: [{ key: 'a', operator: 'in', values: ['in', 'notin'] }] },
    { name: 'gt', input: 'n>3', want: [{ key: 'n', operator: 'gt', values: ['3'] }] },
    { name: 'lt with a signed number', input: 'n<0', want: [{ key: 'n', operator: 'lt', values: ['0'] }] },
    {
      name: 'several, sorted by key',
      input: 'z,example.com/b=1,!a',
      want: [
        { key: 'a', operator: '!', values: [] },
        { key: 'example.com/b', operator: '=', values: ['1'] },
        { key: 'z', operator: 'exists', values: [] },
      ],
    },
    { name: 'prototype member names are ordinary keys', input: 'toString=x,constructor', want: [{ key: 'constructor', operator: 'exists', values: [] }, { key: 'toString', operator: '=', values: ['x'] }] },
  ];
  for (const c of cases) test(c.name, () => expect(parseLabelSelector(c.input)).toEqual(c.want));
});

describe('parseLabelSelector errors (kube texts, word for word)', () => {
  const cases: { name: string; input: string; want: string }[] = [
    { name: 'two words', input: 'a b', want: "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt" },
    { name: 'junk after a requirement', input: 'a=b c', want: "found 'c', expected: ',' or 'end of string'" },
    { name: 'leading comma', input: ',a', want: "found ',', expected: !, identifier, or 'end of string'" },
    { name: 'trailing comma', input: 'a=b,', want: "found '', expected: identifier after ','" },
    { name: 'in without parentheses', input: 'a in b', want: "unable to parse requirement: found 'b' expected: '('" },
    { name: 'unclosed set', input: 'a in (b', want: "unable to parse requirement: found '', expected: ',' or ')'" },
    { name: 'a set opened by an operator', input: 'a in (=', want: "unable to parse requirement: found '=', expected: ',', ')' or identifier" },
    { name: 'missing operator', input: 'a (b)', want: "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt" },
    { name: 'an unknown symbol run', input: 'a=>b', want: "unable to parse requirement: found '>', expected: identifier" },
    { name: 'a lone bang', input: '!', want: "unable to parse requirement: found '', expected: identifier" },
    { name: 'an operator where a key belongs', input: '=a', want: "found '=', expected: !, identifier, or 'end of string'" },
    { name: 'a key of three parts', input: 'a/b/c=d', want: `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')` },
    { name: 'a key with an empty name', input: 'a/=b', want: `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; ${QNAME_MSG}` },
    { name: 'a bad value', input: 'a=b@c', want: `unable to parse requirement: values[0][a]: Invalid value: "b@c": ${VALUE_MSG}` },
    { name: 'a value too long', input: `a=${'v'.repeat(64)}`, want: `unable to parse requirement: values[0][a]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters` },
    { name: 'gt needs an integer', input: 'a>b', want: 'unable to parse requirement: values[0]: Invalid value: "b": for \'Gt\', \'Lt\' operators, the value must be an integer' },
    { name: 'a negative bound is no label value', input: 'n<-3', want: `unable to parse requirement: values[0][n]: Invalid value: "-3": ${VALUE_MSG}` },
    { name: '__proto__ is no qualified name', input: '__proto__', want: `unable to parse requirement: <nil>: Invalid value: "__proto__": ${QNAME_MSG}` },
    {
      name: 'gt needs an int64',
      input: 'a>9223372036854775808',
      want: 'unable to parse requirement: values[0]: Invalid value: "9223372036854775808": for \'Gt\', \'Lt\' operators, the value must be an integer',
    },
    {
      name: 'several problems in one requirement, in brackets',
      input: 'a in (b@c,d@e)',
      want: `unable to parse requirement: [values[0][a]: Invalid value: "b@c": ${VALUE_MSG}, values[1][a]: Invalid value: "d@e": ${VALUE_MSG}]`,
    },
  ];
  for (const c of cases) test(c.name, () => expect(errorOf(() => parseLabelSelector(c.input)).message).toBe(c.want));
});

describe('hostile selectors', () => {
  test('a selector of 50,000 requirements parses in one pass', () => {
    const text = Array.from({ length: 50_000 }, (_, i) => `k${i}=v`).join(',');
    const reqs = parseLabelSelector(text);
    expect(reqs).toHaveLength(50_000);
    expect(matchesLabels(reqs, { k0: 'v' })).toBe(false);
  });

  test('a megabyte key is refused with kube text, not a hang', () => {
    const key = 'a'.repeat(1_000_000);
    expect(errorOf(() => parseLabelSelector(`${key}=b`)).message).toMatch(/^unable to parse requirement: <nil>: Invalid value: "a+": name part must be no more than 63 characters$/);
  });

  test('a megabyte set of values and deep parentheses are refused', () => {
    const values = Array.from({ length: 50_000 }, (_, i) => `v${i}`).join(',');
    expect(parseLabelSelector(`a in (${values})`)[0]!.values).toHaveLength(50_000);
    expect(errorOf(() => parseLabelSelector(`a in ${'('.repeat(100_000)}`)).message).toBe("unable to parse requirement: found '(', expected: ',', ')' or identifier");
  });

  test('a runaway symbol run is one lexer error', () => {
    expect(errorOf(() => parseLabelSelector(`a${'<>'.repeat(10_000)}`)).message).toBe("unable to parse requirement: found '>', expected: identifier");
  });
});

describe('matchesLabels', () => {
  const cases: { name: string; selector: string; labels: Record<string, string> | undefined; want: boolean }[] = [
    { name: 'equals matches', selector: 'app=web', labels: { app: 'web' }, want: true },
    { name: 'equals with the key missing', selector: 'app=web', labels: {}, want: false },
    { name: 'not equals with the key missing', selector: 'app!=web', labels: undefined, want: true },
    { name: 'not equals the same value', selector: 'app!=web', labels: { app: 'web' }, want: false },
    { name: 'in', selector: 'env in (a,b)', labels: { env: 'b' }, want: true },
    { name: 'notin', selector: 'env notin (a,b)', labels: { env: 'b' }, want: false },
    { name: 'notin with the key missing', selector: 'env notin (a)', labels: {}, want: true },
    { name: 'exists with an empty value', selector: 'env', labels: { env: '' }, want: true },
    { name: 'does not exist', selector: '!env', labels: { env: '' }, want: false },
    { name: 'equals the empty value', selector: 'env=', labels: { env: '' }, want: true },
    { name: 'gt', selector: 'n>3', labels: { n: '10' }, want: true },
    { name: 'gt is numeric, not textual', selector: 'n>3', labels: { n: '10' }, want: true },
    { name: 'gt with a signed label', selector: 'n>1', labels: { n: '+5' }, want: true },
    { name: 'lt with a label that is no integer', selector: 'n<3', labels: { n: 'x' }, want: false },
    { name: 'lt with a label past int64', selector: 'n<3', labels: { n: '-9223372036854775809' }, want: false },
    { name: 'gt with the key missing', selector: 'n>3', labels: {}, want: false },
    { name: 'all must hold', selector: 'a=1,b=2', labels: { a: '1', b: '3' }, want: false },
    { name: 'no requirements match everything', selector: '', labels: undefined, want: true },
  ];
  for (const c of cases) test(c.name, () => expect(matchesLabels(parseLabelSelector(c.selector), c.labels)).toBe(c.want));

  test('inherited members are not labels', () => {
    expect(matchesLabels(parseLabelSelector('constructor'), {})).toBe(false);
    expect(matchesLabels(parseLabelSelector('!toString'), {})).toBe(true);
    expect(matchesLabels([{ key: '__proto__', operator: 'exists', values: [] }], {})).toBe(false);
  });

  test('a __proto__ label is data', () => {
    const labels = JSON.parse('{"__proto__":"x"}') as Record<string, string>;
    expect(matchesLabels([{ key: '__proto__', operator: '=', values: ['x'] }], labels)).toBe(true);
    expect(matchesLabels([{ key: '__proto__', operator: '!=', values: ['x'] }], {})).toBe(true);
  });
});

describe('labelSelectorRequirements (LabelSelectorAsSelector)', () => {
  const cases: { name: string; input: LabelSelector; want: LabelRequirement[] }[] = [
    { name: 'empty selects everything', input: {}, want: [] },
    { name: 'nulls are absent', input: { matchLabels: null, matchExpressions: null }, want: [] },
    {
      name: 'matchLabels and expressions, sorted by key, values as given',
      input: { matchLabels: { b: '1' }, matchExpressions: [{ key: 'c', operator: 'In', values: ['y', 'x'] }, { key: 'a', operator: 'Exists' }] },
      want: [
        { key: 'a', operator: 'exists', values: [] },
        { key: 'b', operator: '=', values: ['1'] },
        { key: 'c', operator: 'in', values: ['y', 'x'] },
      ],
    },
    { name: 'one key in both keeps declaration order', input: { matchLabels: { a: '1' }, matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['2'] }] }, want: [{ key: 'a', operator: '=', values: ['1'] }, { key: 'a', operator: 'notin', values: ['2'] }] },
  ];
  for (const c of cases) test(c.name, () => expect(labelSelectorRequirements(c.input)).toEqual(c.want));

  const errorCases: { name: string; input: LabelSelector; want: string }[] = [
    { name: 'an unknown operator', input: { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, want: '"Gt" is not a valid label selector operator' },
    { name: 'an operator named like a prototype member', input: { matchExpressions: [{ key: 'a', operator: 'constructor' }] }, want: '"constructor" is not a valid label selector operator' },
    { name: 'In without values', input: { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, want: "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty" },
    { name: 'Exists with values', input: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, want: 'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist' },
    { name: 'a bad key', input: { matchLabels: { 'a/': 'b' } }, want: `key: Invalid value: "a/": name part must be non-empty; ${QNAME_MSG}` },
    { name: 'a bad value', input: { matchLabels: { a: 'b c' } }, want: `values[0][a]: Invalid value: "b c": ${VALUE_MSG}` },
  ];
  for (const c of errorCases) test(c.name, () => expect(errorOf(() => labelSelectorRequirements(c.input)).message).toBe(c.want));
});

describe('matchesLabelSelector', () => {
  test('absent selects nothing, empty everything', () => {
    expect(matchesLabelSelector(undefined, { a: '1' })).toBe(false);
    expect(matchesLabelSelector(null, { a: '1' })).toBe(false);
    expect(matchesLabelSelector({}, undefined)).toBe(true);
  });
  test('expressions and labels together', () => {
    const sel: LabelSelector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] };
    expect(matchesLabelSelector(sel, { app: 'web', tier: 'front' })).toBe(true);
    expect(matchesLabelSelector(sel, { app: 'web', tier: 'db' })).toBe(false);
  });
});

describe('newRequirement', () => {
  test('gt/lt take exactly one value', () => {
    expect(errorOf(() => newRequirement('a', 'gt', ['1', '2'])).message).toBe(`values: Invalid value: []string{"1", "2"}: for 'Gt', 'Lt' operators, exactly one value is required`);
  });
  test('exact matches take exactly one value', () => {
    expect(errorOf(() => newRequirement('a', '=', [])).message).toBe('values: Invalid value: []string{}: exact-match compatibility requires one single value');
  });
});

describe('renderLabelSelector (Selector.String)', () => {
  const cases: { name: string; reqs: LabelRequirement[]; want: string }[] = [
    { name: 'nothing', reqs: [], want: '' },
    { name: 'a set, sorted by key', reqs: labelSetRequirements({ tier: 'web', app: 'a' }), want: 'app=a,tier=web' },
    {
      name: 'every operator',
      reqs: [
        { key: 'a', operator: 'exists', values: [] },
        { key: 'b', operator: '!', values: [] },
        { key: 'c', operator: '=', values: ['1'] },
        { key: 'd', operator: '==', values: ['1'] },
        { key: 'e', operator: '!=', values: ['1'] },
        { key: 'f', operator: 'in', values: ['y', 'x'] },
        { key: 'g', operator: 'notin', values: ['z'] },
        { key: 'h', operator: 'gt', values: ['1'] },
        { key: 'i', operator: 'lt', values: ['2'] },
      ],
      want: 'a,!b,c=1,d==1,e!=1,f in (x,y),g notin (z),h>1,i<2',
    },
    {
      name: 'a LabelSelector (what Scale.status.selector carries)',
      reqs: labelSelectorRequirements({ matchLabels: { b: '1' }, matchExpressions: [{ key: 'c', operator: 'In', values: ['y', 'x'] }, { key: 'a', operator: 'Exists' }, { key: 'd', operator: 'DoesNotExist' }] }),
      want: 'a,b=1,c in (x,y),!d',
    },
  ];
  for (const c of cases) test(c.name, () => expect(renderLabelSelector(c.reqs)).toBe(c.want));

  test('the parser reads back what it renders', () => {
    const text = 'a,!b,c=1,f in (x,y),g notin (z),h>1';
    expect(renderLabelSelector(parseLabelSelector(text))).toBe(text);
  });
});
