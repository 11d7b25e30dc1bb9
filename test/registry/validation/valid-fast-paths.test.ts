// The cheap "valid?" questions validation asks before it builds any message
// (matchesQualifiedName, matchesLabelValue, isValidName, matchesPortName,
// matchesConfigMapKey...)
// must answer exactly as "the full check found nothing", on the edges too; and
// field paths, now built as linked steps, must print and compare as before.
import { describe, expect, test } from 'vitest';
import { path } from '../../../src/schema/field-errors.js';
import { isValidPortName, matchesPortName } from '../../../src/registry/validation/common.js';
import { validateAnnotations } from '../../../src/registry/validation/object-meta.js';
import {
  isConfigMapKey,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidName,
  matchesConfigMapKey,
  matchesDNS1123Label,
  matchesDNS1123Subdomain,
  matchesQualifiedName,
  nameValidators,
} from '../../../src/registry/validation/names.js';
import { labelSelectorRequirements, matchesLabelValue } from '../../../src/schema/label-selector.js';

const SAMPLES = [
  '',
  'a',
  'A',
  '0',
  'web-1',
  'a.b',
  'a..b',
  '.a',
  'a.',
  '-a',
  'a-',
  'a--b',
  'a_b',
  'a b',
  'é',
  '/',
  'a/',
  '/a',
  'a/b',
  'a/b/c',
  'Example.com/key',
  'example.com/Key',
  'example.com/-key',
  'app.kubernetes.io/name',
  '__proto__',
  'constructor',
  '%',
  'a%b',
  '.',
  '..',
  '..a',
  'a..',
  '...',
  'KEY_name.txt',
  'x'.repeat(15),
  'x'.repeat(16),
  'x'.repeat(63),
  'x'.repeat(64),
  `${'x'.repeat(253)}/a`,
  `${'x'.repeat(254)}/a`,
  `a/${'x'.repeat(63)}`,
  `a/${'x'.repeat(64)}`,
  'a.'.repeat(126) + 'a',
  'a.'.repeat(127) + 'a',
];

describe('the quick answers agree with the full checks', () => {
  for (const s of SAMPLES) {
    test(JSON.stringify(s.length > 40 ? `${s.slice(0, 20)}…(${s.length})` : s), () => {
      expect(matchesQualifiedName(s)).toBe(isQualifiedName(s).length === 0);
      // Asked twice: the second answer may come from the memo of valid keys.
      expect(matchesQualifiedName(s)).toBe(isQualifiedName(s).length === 0);
      expect(matchesLabelValue(s)).toBe(isValidLabelValue(s).length === 0);
      expect(matchesDNS1123Subdomain(s)).toBe(isDNS1123Subdomain(s).length === 0);
      expect(matchesDNS1123Label(s)).toBe(isDNS1123Label(s).length === 0);
      expect(matchesPortName(s)).toBe(isValidPortName(s).length === 0);
      expect(matchesConfigMapKey(s)).toBe(isConfigMapKey(s).length === 0);
      for (const v of ['subdomain', 'label', 'path-segment'] as const) expect(isValidName(v, s)).toBe(nameValidators[v](s, false).length === 0);
    });
  }
});

describe('annotation keys are checked lower-cased', () => {
  test('a capital in the prefix passes, as kube lower-cases the key first', () => {
    expect(validateAnnotations({ 'Example.com/Key': 'x' }, path('metadata', 'annotations'))).toEqual([]);
  });
  test('a key that fails lower-cased is reported as the client wrote it', () => {
    expect(validateAnnotations({ 'Example.com/a b': 'x' }, path('metadata', 'annotations')).map((e) => e.message)).toEqual([
      "metadata.annotations: Invalid value: \"Example.com/a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
  });
});

describe('selector requirements are sorted by key, stably', () => {
  const keysOf = (n: number): string[] => Array.from({ length: n }, (_, i) => `k${(i * 7) % n}`);
  for (const n of [2, 5, 16, 17, 40]) {
    test(`${n} requirements`, () => {
      const matchLabels = Object.fromEntries(keysOf(n).map((k) => [k, 'v']));
      // Two expressions on one key keep their order (In before Exists), after the `=` on it.
      const matchExpressions = [
        { key: 'k1', operator: 'In', values: ['a'] },
        { key: 'k1', operator: 'Exists' },
      ];
      const reqs = labelSelectorRequirements({ matchLabels, matchExpressions });
      const want = [...Object.keys(matchLabels), 'k1', 'k1'].sort();
      expect(reqs.map((r) => r.key)).toEqual(want);
      expect(reqs.filter((r) => r.key === 'k1').map((r) => r.operator)).toEqual(['=', 'in', 'exists']);
    });
  }
});

describe('field paths as linked steps', () => {
  test('paths that print alike are equal, however they were built', () => {
    expect(path('spec', 'template')).toEqual(path('spec').child('template'));
    expect(path('', 'spec').child('', 'a', '')).toEqual(path('spec', 'a'));
    expect(path().child('a')).toEqual(path('a'));
    expect(path('a').index(0)).toEqual(path('a').index(0));
    expect(path('a')).not.toEqual(path('b'));
    expect(path('a').index(0)).not.toEqual(path('a').key('0'));
  });
  test('elements and text, rendered on demand and the same each time', () => {
    const p = path('spec', 'containers').index(1).child('env').index(0).child('name');
    expect(p.elements).toEqual(['spec', 'containers', 1, 'env', 0, 'name']);
    expect(p.toString()).toBe('spec.containers[1].env[0].name');
    expect(`${p}`).toBe('spec.containers[1].env[0].name');
    expect(path('metadata', 'labels').key('a.b/c').toString()).toBe('metadata.labels[a.b/c]');
    expect(path().toString()).toBe('');
    expect(path().elements).toEqual([]);
  });
  test('a parent is unchanged by its children', () => {
    const parent = path('spec');
    parent.child('a');
    parent.index(3);
    expect(parent.toString()).toBe('spec');
    expect(parent.elements).toEqual(['spec']);
  });
});
