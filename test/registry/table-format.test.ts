import { describe, expect, test } from 'vitest';
import { formatLabels, humanDuration, rfc3339, since } from '../../src/registry/table.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('humanDuration (apimachinery HumanDuration)', () => {
  const cases: { name: string; ms: number; want: string }[] = [
    { name: 'more than 1 s in the future is invalid', ms: -2 * S, want: '<invalid>' },
    { name: 'a little skew reads as now', ms: -1500, want: '0s' },
    { name: 'zero', ms: 0, want: '0s' },
    { name: 'seconds truncate', ms: 5 * S + 999, want: '5s' },
    { name: 'seconds up to two minutes', ms: 119 * S, want: '119s' },
    { name: 'two minutes exactly', ms: 2 * M, want: '2m' },
    { name: 'minutes and seconds below ten minutes', ms: 3 * M + 20 * S, want: '3m20s' },
    { name: 'whole minutes from ten minutes', ms: 10 * M + 59 * S, want: '10m' },
    { name: 'minutes up to three hours', ms: 179 * M, want: '179m' },
    { name: 'hours and minutes below eight hours', ms: 5 * H + 7 * M, want: '5h7m' },
    { name: 'whole hours', ms: 5 * H, want: '5h' },
    { name: 'hours up to two days', ms: 47 * H + 59 * M, want: '47h' },
    { name: 'days and hours below eight days', ms: 3 * D + 4 * H, want: '3d4h' },
    { name: 'whole days', ms: 12 * D + 5 * H, want: '12d' },
    { name: 'days up to two years', ms: 729 * D, want: '729d' },
    { name: 'years and days', ms: 2 * 365 * D + 30 * D, want: '2y30d' },
    { name: 'whole years from eight', ms: 9 * 365 * D + 100 * D, want: '9y' },
  ];
  for (const c of cases) test(c.name, () => expect(humanDuration(c.ms)).toBe(c.want));
});

describe('since / rfc3339 / formatLabels', () => {
  const now = new Date('2026-01-02T03:04:05Z');
  const cases: { name: string; got: () => string; want: string }[] = [
    { name: 'age of a timestamp', got: () => since('2026-01-02T03:00:45Z', now), want: '3m20s' },
    { name: 'missing timestamp is unknown', got: () => since(undefined, now), want: '<unknown>' },
    { name: 'rfc3339 drops fractions', got: () => rfc3339('2026-01-02T03:04:05.678Z'), want: '2026-01-02T03:04:05Z' },
    { name: 'rfc3339 of nothing is the zero time', got: () => rfc3339(null), want: '0001-01-01T00:00:00Z' },
    { name: 'labels sorted by key', got: () => formatLabels({ b: '2', a: '1' }), want: 'a=1,b=2' },
    { name: 'no labels', got: () => formatLabels({}), want: '<none>' },
  ];
  for (const c of cases) test(c.name, () => expect(c.got()).toBe(c.want));
});
