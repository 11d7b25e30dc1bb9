import { describe, expect, test } from 'vitest';
// `?labelSelector=` through the list/watch predicate: the grammar and matching are
// schema/label-selector.ts's (test/schema/label-selector.test.ts pins them); these
// rows pin what the request sees: kube's parser text as a 400, and the predicate.
import { buildPredicate } from '../../src/registry/selection.js';
import { defineResource } from '../../src/registry/define-resource.js';
import { StatusError } from '../../src/errors/status-error.js';
import type { KubeObject } from '../../src/schema/object.js';

const widgets = defineResource({ group: 'example.test', version: 'v1', kind: 'Widget', plural: 'widgets', scope: 'Namespaced', strategy: {} });

// One row per kind of parser failure; the full table of texts is the schema test's.
const errorCases: { name: string; input: string; want: string }[] = [
  { name: 'grammar', input: 'a in b', want: "unable to parse requirement: found 'b' expected: '('" },
  {
    name: 'a key',
    input: '!a/',
    want: "unable to parse requirement: <nil>: Invalid value: \"a/\": name part must be non-empty; name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  },
  { name: 'a value', input: 'a>b', want: 'unable to parse requirement: values[0]: Invalid value: "b": for \'Gt\', \'Lt\' operators, the value must be an integer' },
];

describe('labelSelector parse errors are 400 Bad Request with the parser text', () => {
  for (const c of errorCases) {
    test(c.name, () => {
      let err: unknown;
      try {
        buildPredicate({ labelSelector: c.input, resource: widgets });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(StatusError);
      expect((err as StatusError).code).toBe(400);
      expect((err as StatusError).reason).toBe('BadRequest');
      expect((err as StatusError).message).toBe(c.want);
    });
  }
});

const obj = (labels: Record<string, string> | undefined): KubeObject => ({ metadata: { name: 'a', namespace: 'ns', ...(labels === undefined ? {} : { labels }) } });

const matchCases: { name: string; selector: string; labels: Record<string, string> | undefined; want: boolean }[] = [
  { name: 'equals matches', selector: 'app=web', labels: { app: 'web' }, want: true },
  { name: 'equals misses', selector: 'app=web', labels: { app: 'db' }, want: false },
  { name: 'no labels at all', selector: '!app', labels: undefined, want: true },
  { name: 'every requirement must hold', selector: 'a=1,b=2', labels: { a: '1', b: '3' }, want: false },
  { name: 'a prototype member name is not a label', selector: 'constructor', labels: {}, want: false },
];

describe('labelSelector predicate', () => {
  for (const c of matchCases) {
    test(c.name, () => {
      const predicate = buildPredicate({ labelSelector: c.selector, resource: widgets });
      expect(predicate).toBeDefined();
      expect(predicate!(obj(c.labels))).toBe(c.want);
    });
  }

  test('an empty selector restricts nothing, so storage skips filtering', () => {
    expect(buildPredicate({ labelSelector: '', resource: widgets })).toBeUndefined();
    expect(buildPredicate({ labelSelector: '   ', resource: widgets })).toBeUndefined();
  });
});
