// resource.Quantity: rows from apimachinery's TestQuantityParse, TestQuantityParseEmit
// and the CEL library's TestQuantity, plus the int64/decimal form rules.
import { describe, expect, test } from 'vitest';
import {
  addQuantities, compareQuantities, isQuantity, parseQuantity, quantityAsApproximateFloat, quantityAsInt64, quantityFromInt,
  quantityToString, subtractQuantities, QUANTITY_ERRORS, type Quantity,
} from '../../src/schema/quantity.js';

const value = (q: Quantity): string => `${q.unscaled}e${q.scale}`;

describe('parseQuantity values', () => {
  const cases = [
    { name: 'zero', input: '0', want: { value: '0e0', format: 'DecimalSI', form: 'int64' } },
    { name: 'zero with binary suffix', input: '0Ki', want: { value: '0e0', format: 'BinarySI', form: 'int64' } },
    { name: 'plain integer', input: '9', want: { value: '9e0', format: 'DecimalSI', form: 'int64' } },
    { name: 'Ki', input: '8Ki', want: { value: '8192e0', format: 'BinarySI', form: 'int64' } },
    { name: 'Ei needs the decimal form (precision check)', input: '3Ei', want: { value: '3458764513820540928000000000e-9', format: 'BinarySI', form: 'decimal' } },
    { name: '19 digits need the decimal form', input: '9223372036854775807', want: { value: '9223372036854775807000000000e-9', format: 'DecimalSI', form: 'decimal' } },
    // kube's doc comment lists quantity('Mi') as an error, but parseQuantityString reads
    // an empty number as 0 and "Mi" is a valid suffix: ParseQuantity accepts it.
    { name: 'suffix alone is zero', input: 'Mi', want: { value: '0e0', format: 'BinarySI', form: 'int64' } },
    { name: 'nano', input: '5n', want: { value: '5e-9', format: 'DecimalSI', form: 'int64' } },
    { name: 'kilo', input: '50k', want: { value: '50e3', format: 'DecimalSI', form: 'int64' } },
    { name: 'exa', input: '1E', want: { value: '1e18', format: 'DecimalSI', form: 'int64' } },
    { name: 'exponent', input: '1E-3', want: { value: '1e-3', format: 'DecimalExponent', form: 'int64' } },
    { name: 'exponent with plus', input: '1.3E+6', want: { value: '13e5', format: 'DecimalExponent', form: 'int64' } },
    { name: 'fraction with suffix', input: '100.035k', want: { value: '100035e0', format: 'DecimalSI', form: 'int64' } },
    { name: 'leading dot', input: '.001', want: { value: '1e-3', format: 'DecimalSI', form: 'int64' } },
    { name: 'trailing dot', input: '1.', want: { value: '1e0', format: 'DecimalSI', form: 'int64' } },
    { name: 'trailing dot and suffix', input: '1.G', want: { value: '1e9', format: 'DecimalSI', form: 'int64' } },
    { name: 'sign only is zero', input: '-', want: { value: '0e0', format: 'DecimalSI', form: 'int64' } },
    { name: 'negative', input: '-1.5Gi', want: { value: '-1610612736000000000e-9', format: 'BinarySI', form: 'decimal' } },
    { name: 'sub-nano rounds up', input: '3.001n', want: { value: '4e-9', format: 'DecimalSI', form: 'decimal' } },
    { name: 'tiny rounds to 1n', input: '0.0000000001', want: { value: '1e-9', format: 'DecimalSI', form: 'decimal' } },
    { name: 'tiny binary becomes DecimalSI', input: '0.000000000001Ki', want: { value: '2e-9', format: 'DecimalSI', form: 'decimal' } },
    { name: 'binary capped at 2^63-1', input: '9Ei', want: { value: '9223372036854775807e0', format: 'BinarySI', form: 'decimal' } },
    { name: 'too many digits for int64', input: '9999999999999999999999999999999999999G', want: { value: '9999999999999999999999999999999999999000000000000000000e-9', format: 'DecimalSI', form: 'decimal' } },
    { name: 'huge exponent stays unexpanded', input: '1e999999999', want: { value: '1e999999999', format: 'DecimalExponent', form: 'int64' } },
    { name: 'exponent wraps at int32 as in Go', input: '1e4294967296', want: { value: '1e0', format: 'DecimalExponent', form: 'int64' } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const q = parseQuantity(c.input);
      expect({ value: value(q), format: q.format, form: q.form }).toEqual(c.want);
    });
  }
});

describe('parseQuantity errors', () => {
  const cases = [
    { name: 'empty', input: '', want: QUANTITY_ERRORS.format },
    { name: 'unknown suffix letter', input: '10Mo', want: QUANTITY_ERRORS.format },
    { name: 'suffix letters that are no suffix', input: '10Mm', want: QUANTITY_ERRORS.suffix },
    { name: 'upper-case K', input: '200K', want: QUANTITY_ERRORS.suffix },
    { name: 'word', input: 'Three', want: QUANTITY_ERRORS.format },
    { name: 'comma', input: '1,3G', want: QUANTITY_ERRORS.format },
    { name: 'two dots', input: '1.1.M', want: QUANTITY_ERRORS.format },
    { name: 'bare i', input: '1i', want: QUANTITY_ERRORS.suffix },
    { name: 'exponent without digits', input: '-3.01e-', want: QUANTITY_ERRORS.suffix },
    { name: 'leading space', input: ' 1', want: QUANTITY_ERRORS.format },
    { name: 'trailing space', input: '1 ', want: QUANTITY_ERRORS.format },
    { name: 'exponent beyond int64', input: '1e99999999999999999999', want: QUANTITY_ERRORS.suffix },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(() => parseQuantity(c.input)).toThrow(c.want);
      expect(isQuantity(c.input)).toBe(false);
    });
  }
  test('the message quotes kube regular expression', () => {
    expect(QUANTITY_ERRORS.format).toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  });
});

describe('quantityToString (canonical form)', () => {
  const cases = [
    { input: '1Ki', want: '1Ki' },
    { input: '1024Mi', want: '1Gi' },
    { input: '1000M', want: '1G' },
    { input: '.001Ki', want: '1024m' },
    { input: '.000001Ki', want: '1024u' },
    { input: '.000000000001Ki', want: '2n' },
    { input: '1.5', want: '1500m' },
    { input: '1.5Gi', want: '1536Mi' },
    { input: '100m', want: '100m' },
    { input: '0.0', want: '0' },
    { input: '1e3', want: '1e3' },
    { input: '12e2', want: '1200' },
    { input: '-1Ki', want: '-1Ki' },
    { input: '1023', want: '1023' },
    { input: '0.5Ki', want: '512' },
    { input: '1000E', want: '1e21' },
  ];
  for (const c of cases) test(`${c.input} → ${c.want}`, () => expect(quantityToString(parseQuantity(c.input))).toBe(c.want));
});

describe('quantity arithmetic and conversions', () => {
  const q = parseQuantity;
  test('compare across suffixes', () => {
    expect(compareQuantities(q('200M'), q('0.2G'))).toBe(0);
    expect(compareQuantities(q('50M'), q('50Mi'))).toBe(-1);
    expect(compareQuantities(q('10000T'), q('100Gi'))).toBe(1);
    expect(compareQuantities(q('-1'), q('1n'))).toBe(-1);
    expect(compareQuantities(q('1e999999999'), q('9Ei'))).toBe(1);
  });
  test('add and sub keep the int64 form at the smaller scale', () => {
    const r = addQuantities(q('50k'), quantityFromInt(20n));
    expect([value(r), r.form]).toEqual(['50020e0', 'int64']);
    expect(quantityAsInt64(subtractQuantities(r, q('100k')))).toBe(-49980n);
  });
  test('int64 overflow moves to the decimal form', () => {
    const r = addQuantities(quantityFromInt(9223372036854775807n), quantityFromInt(1n));
    expect([value(r), r.form]).toEqual(['9223372036854775808e0', 'decimal']);
    expect(quantityAsInt64(r)).toBeUndefined();
  });
  test('zero takes the other operand format', () => {
    expect(quantityToString(addQuantities(q('0'), q('1Gi')))).toBe('1Gi');
    expect(quantityToString(subtractQuantities(q('0'), q('100m')))).toBe('-100m');
  });
  test('asInt64 answers only for the int64 form at scale >= 0 (kube AsInt64)', () => {
    expect(quantityAsInt64(q('50k'))).toBe(50000n);
    expect(quantityAsInt64(q('1.0'))).toBeUndefined();
    expect(quantityAsInt64(q('1000m'))).toBeUndefined();
    expect(quantityAsInt64(q('922337203685477580'))).toBe(922337203685477580n);
    expect(quantityAsInt64(q('9223372036854775807'))).toBeUndefined();
    expect(quantityAsInt64(q('10E'))).toBeUndefined();
  });
  test('approximate float', () => {
    expect(quantityAsApproximateFloat(q('50.703k'))).toBe(50703);
    expect(quantityAsApproximateFloat(q('1m'))).toBe(0.001);
    expect(quantityAsApproximateFloat(q('1e400'))).toBe(Infinity);
  });
  test('absurd alignment is refused, not materialised', () => {
    expect(() => addQuantities(q('1e999999999'), q('1'))).toThrow('quantity out of range');
  });
});
