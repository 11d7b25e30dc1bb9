import { describe, expect, test } from 'vitest';
import { formatGoDuration, parseGoDuration } from '../../src/schema/go-duration.js';

describe('parseGoDuration', () => {
  const cases: Array<{ name: string; input: string; want: number | RegExp }> = [
    { name: 'zero alone', input: '0', want: 0 },
    { name: 'kube style', input: '1m0s', want: 60_000 },
    { name: 'hours minutes seconds', input: '1h2m3s', want: 3_723_000 },
    { name: 'fractions', input: '1.5h', want: 5_400_000 },
    { name: 'leading dot', input: '.5s', want: 500 },
    { name: 'milliseconds', input: '300ms', want: 300 },
    { name: 'micro and nano', input: '1500us2000000ns', want: 3.5 },
    { name: 'micro sign', input: '1000µs', want: 1 },
    { name: 'negative', input: '-2s', want: -2000 },
    { name: 'no unit', input: '60', want: /invalid duration "60"/ },
    { name: 'empty', input: '', want: /invalid duration ""/ },
    { name: 'unknown unit', input: '5d', want: /unknown unit "d"/ },
    { name: 'a unit named like an Object.prototype member', input: '1constructor', want: /unknown unit "constructor"/ },
    { name: 'garbage after', input: '5s!', want: /invalid duration/ },
    { name: 'bare dot', input: '.s', want: /invalid duration/ },
  ];
  for (const c of cases) {
    test(c.name, () => {
      if (c.want instanceof RegExp) expect(() => parseGoDuration(c.input)).toThrow(c.want);
      else expect(parseGoDuration(c.input)).toBeCloseTo(c.want, 9);
    });
  }
});

describe('formatGoDuration', () => {
  const cases: Array<{ name: string; ms: number; want: string }> = [
    { name: 'zero', ms: 0, want: '0s' },
    { name: 'below a second', ms: 300, want: '300ms' },
    { name: 'seconds with fraction', ms: 1500, want: '1.5s' },
    { name: 'a minute', ms: 60_000, want: '1m0s' },
    { name: 'five minutes', ms: 300_000, want: '5m0s' },
    { name: 'hours', ms: 3_723_000, want: '1h2m3s' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(formatGoDuration(c.ms)).toBe(c.want);
    });
  }
});
