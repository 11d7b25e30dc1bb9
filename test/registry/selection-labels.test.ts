import { describe, expect, test } from 'vitest';
import { matchesLabels, parseLabelSelector, type LabelRequirement } from '../../src/registry/selection.js';
import { StatusError } from '../../src/errors/status-error.js';

const parseCases: { name: string; input: string; want: LabelRequirement[] }[] = [
  { name: 'empty', input: '', want: [] },
  { name: 'whitespace only', input: '  ', want: [] },
  { name: 'equals', input: 'app=web', want: [{ key: 'app', operator: '=', values: ['web'] }] },
  { name: 'double equals', input: 'app==web', want: [{ key: 'app', operator: '==', values: ['web'] }] },
  { name: 'not equals with spaces', input: ' app != web ', want: [{ key: 'app', operator: '!=', values: ['web'] }] },
  { name: 'empty value', input: 'app=', want: [{ key: 'app', operator: '=', values: [''] }] },
  { name: 'exists', input: 'app', want: [{ key: 'app', operator: 'exists', values: [] }] },
  { name: 'does not exist', input: '!app', want: [{ key: 'app', operator: '!', values: [] }] },
  { name: 'in sorted unique', input: 'env in (prod,dev,prod)', want: [{ key: 'env', operator: 'in', values: ['dev', 'prod'] }] },
  { name: 'notin empty set', input: 'env notin ()', want: [{ key: 'env', operator: 'notin', values: [''] }] },
  { name: 'in with empty members', input: 'x in (foo,,baz)', want: [{ key: 'x', operator: 'in', values: ['', 'baz', 'foo'] }] },
  { name: 'keyword as value', input: 'a=in', want: [{ key: 'a', operator: '=', values: ['in'] }] },
  { name: 'gt', input: 'n>3', want: [{ key: 'n', operator: 'gt', values: ['3'] }] },
  {
    name: 'several, sorted by key',
    input: 'z,example.com/b=1,!a',
    want: [
      { key: 'a', operator: '!', values: [] },
      { key: 'example.com/b', operator: '=', values: ['1'] },
      { key: 'z', operator: 'exists', values: [] },
    ],
  },
];

describe('parseLabelSelector', () => {
  for (const c of parseCases) test(c.name, () => expect(parseLabelSelector(c.input)).toEqual(c.want));
});

const errorCases: { name: string; input: string; want: string }[] = [
  { name: 'two words', input: 'a b', want: "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt" },
  { name: 'junk after requirement', input: 'a=b c', want: "found 'c', expected: ',' or 'end of string'" },
  { name: 'leading comma', input: ',a', want: "found ',', expected: !, identifier, or 'end of string'" },
  { name: 'trailing comma', input: 'a=b,', want: "found '', expected: identifier after ','" },
  { name: 'in without parens', input: 'a in b', want: "unable to parse requirement: found 'b' expected: '('" },
  { name: 'unclosed set', input: 'a in (b', want: "unable to parse requirement: found '', expected: ',' or ')'" },
  { name: 'missing operator', input: 'a (b)', want: "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt" },
  {
    name: 'bad key',
    input: 'a/b/c=d',
    want: "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  },
  {
    name: 'bad value',
    input: 'a=b@c',
    want: "unable to parse requirement: values[0][a]: Invalid value: \"b@c\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  },
  { name: 'gt needs integer', input: 'a>b', want: 'unable to parse requirement: values[0]: Invalid value: "b": for \'Gt\', \'Lt\' operators, the value must be an integer' },
];

describe('parseLabelSelector errors', () => {
  for (const c of errorCases) {
    test(c.name, () => {
      let err: unknown;
      try {
        parseLabelSelector(c.input);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(StatusError);
      expect((err as StatusError).code).toBe(400);
      expect((err as StatusError).message).toBe(c.want);
    });
  }
});

const matchCases: { name: string; selector: string; labels: Record<string, string> | undefined; want: boolean }[] = [
  { name: 'equals matches', selector: 'app=web', labels: { app: 'web' }, want: true },
  { name: 'equals missing key', selector: 'app=web', labels: {}, want: false },
  { name: 'not equals missing key matches', selector: 'app!=web', labels: undefined, want: true },
  { name: 'not equals same value', selector: 'app!=web', labels: { app: 'web' }, want: false },
  { name: 'in', selector: 'env in (a,b)', labels: { env: 'b' }, want: true },
  { name: 'notin', selector: 'env notin (a,b)', labels: { env: 'b' }, want: false },
  { name: 'notin missing key', selector: 'env notin (a)', labels: {}, want: true },
  { name: 'exists', selector: 'env', labels: { env: '' }, want: true },
  { name: 'does not exist', selector: '!env', labels: { env: '' }, want: false },
  { name: 'equals empty value', selector: 'env=', labels: { env: '' }, want: true },
  { name: 'gt', selector: 'n>3', labels: { n: '10' }, want: true },
  { name: 'lt non-integer label', selector: 'n<3', labels: { n: 'x' }, want: false },
  { name: 'all must hold', selector: 'a=1,b=2', labels: { a: '1', b: '3' }, want: false },
];

describe('matchesLabels', () => {
  for (const c of matchCases) test(c.name, () => expect(matchesLabels(parseLabelSelector(c.selector), c.labels)).toBe(c.want));
});
