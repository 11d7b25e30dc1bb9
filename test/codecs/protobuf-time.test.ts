// Time, MicroTime and Duration text forms must be what Go's MarshalJSON writes.
import { describe, expect, test } from 'vitest';
import { formatDuration, formatMicroTime, formatTime, parseDuration, parseTime } from '../../src/codecs/protobuf/time-format.js';

const timeCases: { name: string; seconds: number; nanos: number; time: string; micro: string }[] = [
  { name: 'whole seconds', seconds: 1767366245, nanos: 0, time: '2026-01-02T15:04:05Z', micro: '2026-01-02T15:04:05.000000Z' },
  { name: 'sub-second is truncated, not rounded', seconds: 1767366245, nanos: 999999999, time: '2026-01-02T15:04:05Z', micro: '2026-01-02T15:04:05.999999Z' },
  { name: 'epoch', seconds: 0, nanos: 1000, time: '1970-01-01T00:00:00Z', micro: '1970-01-01T00:00:00.000001Z' },
  { name: 'before the epoch', seconds: -1, nanos: 0, time: '1969-12-31T23:59:59Z', micro: '1969-12-31T23:59:59.000000Z' },
];

describe('metav1.Time and MicroTime', () => {
  for (const c of timeCases) {
    test(c.name, () => {
      expect(formatTime({ seconds: c.seconds, nanos: c.nanos })).toBe(c.time);
      expect(formatMicroTime({ seconds: c.seconds, nanos: c.nanos })).toBe(c.micro);
      expect(parseTime(c.micro)).toEqual({ seconds: c.seconds, nanos: Math.floor(c.nanos / 1000) * 1000 });
    });
  }

  const parseCases: { name: string; text: string; want: { seconds: number; nanos: number } }[] = [
    { name: 'offset east', text: '2026-01-02T16:04:05+01:00', want: { seconds: 1767366245, nanos: 0 } },
    { name: 'offset west with fraction', text: '2026-01-02T10:04:05.5-05:00', want: { seconds: 1767366245, nanos: 500000000 } },
    { name: 'nanoseconds', text: '2026-01-02T15:04:05.123456789Z', want: { seconds: 1767366245, nanos: 123456789 } },
  ];
  for (const c of parseCases) test(`parse ${c.name}`, () => expect(parseTime(c.text)).toEqual(c.want));

  test('rejects a time that is not RFC 3339', () => {
    expect(() => parseTime('2026-01-02 15:04:05')).toThrow(/RFC 3339/);
  });
});

const durationCases: { name: string; nanos: number; text: string }[] = [
  { name: 'zero', nanos: 0, text: '0s' },
  { name: 'nanoseconds', nanos: 12, text: '12ns' },
  { name: 'microseconds', nanos: 1500, text: '1.5µs' },
  { name: 'milliseconds', nanos: 300e6, text: '300ms' },
  { name: 'seconds with fraction', nanos: 1.5e9, text: '1.5s' },
  { name: 'minutes', nanos: 90e9, text: '1m30s' },
  { name: 'hours keep zero units', nanos: 3600e9, text: '1h0m0s' },
  { name: 'mixed', nanos: 2 * 3600e9 + 3 * 60e9 + 4.005e9, text: '2h3m4.005s' },
  { name: 'negative', nanos: -90e9, text: '-1m30s' },
];

describe('metav1.Duration', () => {
  for (const c of durationCases) {
    test(c.name, () => {
      expect(formatDuration(c.nanos)).toBe(c.text);
      expect(parseDuration(c.text)).toBe(c.nanos);
    });
  }
  test('parses forms Go accepts but never writes', () => {
    expect(parseDuration('1.5h')).toBe(5400e9);
    expect(parseDuration('10us')).toBe(10e3);
    expect(parseDuration('0')).toBe(0);
  });
  test('rejects garbage', () => {
    expect(() => parseDuration('5 minutes')).toThrow(/invalid duration/);
  });
});
