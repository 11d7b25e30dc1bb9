// strconv.ParseInt(s, 10, 64) as Go answers it: values and error texts read off Go's strconv.
import { describe, expect, test } from 'vitest';
import { parseGoInt64 } from '../../src/schema/go-strconv.js';

describe('parseGoInt64', () => {
  const rows: { input: string; value?: bigint; error?: string }[] = [
    { input: '0', value: 0n },
    { input: '+7', value: 7n },
    { input: '-007', value: -7n },
    { input: '9223372036854775807', value: 9223372036854775807n },
    { input: '-9223372036854775808', value: -9223372036854775808n },
    { input: '9223372036854775808', error: 'strconv.ParseInt: parsing "9223372036854775808": value out of range' },
    { input: '', error: 'strconv.ParseInt: parsing "": invalid syntax' },
    { input: '1.5', error: 'strconv.ParseInt: parsing "1.5": invalid syntax' },
    { input: ' 1', error: 'strconv.ParseInt: parsing " 1": invalid syntax' },
    { input: '1_000', error: 'strconv.ParseInt: parsing "1_000": invalid syntax' },
  ];
  for (const row of rows) {
    test(JSON.stringify(row.input), () => {
      expect(parseGoInt64(row.input)).toEqual(row.error === undefined ? { value: row.value } : { error: row.error });
    });
  }
});
