// Go's time.Parse for kube's two layouts (schema/go-time.ts), against answers read
// off Go's time package (format.go's parse, format_rfc3339.go's fast path): the
// corners where Go's general parser differs from RFC 3339 and from Date.parse.
import { describe, expect, test } from 'vitest';
import { parseGoTime, parseRfc3339, RFC3339_LAYOUT, RFC3339_MICRO_LAYOUT, type GoTimeLayout } from '../../src/schema/go-time.js';

/** Go's error text, or the instant as an ISO string. */
const parsedWith = (layout: GoTimeLayout) => (text: string) => {
  const r = parseGoTime(layout, text);
  return r.error ?? new Date(r.ms).toISOString();
};
const iso = parsedWith(RFC3339_LAYOUT);
const micro = parsedWith(RFC3339_MICRO_LAYOUT);

describe('time.Parse(time.RFC3339, …)', () => {
  const cases: { name: string; input: string; want: string }[] = [
    { name: 'year 0 is a leap year', input: '0000-02-29T00:00:00Z', want: '0000-02-29T00:00:00.000Z' },
    { name: 'year 100 is not', input: '0100-02-29T00:00:00Z', want: 'parsing time "0100-02-29T00:00:00Z": day out of range' },
    { name: 'a lower-case t is not the layout\'s T', input: '2024-01-01t00:00:00Z', want: 'parsing time "2024-01-01t00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "t00:00:00Z" as "T"' },
    { name: 'a lower-case z is no zone', input: '2024-01-01T00:00:00z', want: 'parsing time "2024-01-01T00:00:00z" as "2006-01-02T15:04:05Z07:00": cannot parse "z" as "Z07:00"' },
    { name: 'a one-digit hour', input: '2024-01-01T3:04:05Z', want: '2024-01-01T03:04:05.000Z' },
    { name: 'a comma before the fraction', input: '2024-01-01T00:00:00,5Z', want: '2024-01-01T00:00:00.500Z' },
    { name: 'an offset of 24 hours', input: '2024-01-01T00:00:00+24:00', want: '2023-12-31T00:00:00.000Z' },
    { name: 'an offset of 25 hours', input: '2024-01-01T00:00:00+25:00', want: 'parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range' },
    { name: 'a month out of range stops the reading there', input: '2024-13-01T00:00:00Zjunk', want: 'parsing time "2024-13-01T00:00:00Zjunk": month out of range' },
    { name: 'hour 24', input: '2024-01-01T24:00:00Z', want: 'parsing time "2024-01-01T24:00:00Z": hour out of range' },
    { name: 'a period without digits is no fraction', input: '2024-01-01T00:00:00.-1Z', want: 'parsing time "2024-01-01T00:00:00.-1Z" as "2006-01-02T15:04:05Z07:00": cannot parse ".-1Z" as "Z07:00"' },
    { name: 'non-ASCII text is quoted byte by byte', input: '2024-01-01T\u00e9', want: 'parsing time "2024-01-01T\\xc3\\xa9" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xc3\\xa9" as "15"' },
    { name: 'February 29th of a common year', input: '2023-02-29T00:00:00Z', want: 'parsing time "2023-02-29T00:00:00Z": day out of range' },
    { name: 'extra text', input: '2024-01-01T00:00:00Z ', want: 'parsing time "2024-01-01T00:00:00Z ": extra text: " "' },
  ];
  for (const c of cases) test(c.name, () => expect(iso(c.input)).toBe(c.want));

  test('parseRfc3339 answers the instant, or undefined for an error', () => {
    expect(parseRfc3339('0000-02-29T12:00:00-01:00')).toBe(Date.parse('0000-02-29T13:00:00Z'));
    expect(parseRfc3339('2024-01-01t00:00:00Z')).toBeUndefined();
  });
});

describe('time.Parse(RFC3339Micro, …): metav1.MicroTime', () => {
  const cases: { name: string; input: string; want: string }[] = [
    { name: 'six digits', input: '2024-01-01T00:00:00.123456Z', want: '2024-01-01T00:00:00.123Z' },
    { name: 'no fraction', input: '2024-01-01T00:00:00Z', want: 'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"' },
    { name: 'seven digits', input: '2024-01-01T00:00:00.1234567Z', want: 'parsing time "2024-01-01T00:00:00.1234567Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7Z" as "Z07:00"' },
    { name: 'a comma before six digits', input: '2024-01-01T00:00:00,000001+01:00', want: '2023-12-31T23:00:00.000Z' },
  ];
  for (const c of cases) test(c.name, () => expect(micro(c.input)).toBe(c.want));
});
