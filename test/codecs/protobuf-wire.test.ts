// Varint and length-prefix edge cases of the wire layer, checked against the bytes
// the protobuf spec prescribes (two's-complement ten-byte negatives, minimal varints).
import { describe, expect, test } from 'vitest';
import { isStatusError } from '../../src/errors/status-error.js';
import { Reader, Writer } from '../../src/codecs/protobuf/wire.js';

const int64Cases: { name: string; value: number; hex: string }[] = [
  { name: 'zero', value: 0, hex: '00' },
  { name: 'one byte max', value: 127, hex: '7f' },
  { name: 'two bytes', value: 300, hex: 'ac02' },
  { name: 'uint32 max', value: 4294967295, hex: 'ffffffff0f' },
  { name: 'past 32 bits', value: 4294967296, hex: '8080808010' },
  { name: 'unix seconds', value: 1767366245, hex: 'e5bcdfca06' },
  { name: 'max safe integer', value: Number.MAX_SAFE_INTEGER, hex: 'ffffffffffffff0f' },
  { name: 'minus one', value: -1, hex: 'ffffffffffffffffff01' },
  { name: 'int32 min', value: -2147483648, hex: '80808080f8ffffffff01' },
  { name: 'negative past 32 bits', value: -4294967297, hex: 'ffffffffefffffffff01' },
];

describe('int64 varints', () => {
  for (const c of int64Cases) {
    test(c.name, () => {
      const w = new Writer(1);
      w.int64(c.value);
      expect(w.finish().toString('hex')).toBe(c.hex);
      const bytes = Buffer.from(c.hex, 'hex');
      expect(new Reader(bytes, 0, bytes.length).int64()).toBe(c.value);
    });
  }
});

const int32Cases: { name: string; hex: string; want: number }[] = [
  { name: 'positive', hex: '9601', want: 150 },
  { name: 'sign-extended minus one', hex: 'ffffffffffffffffff01', want: -1 },
  { name: 'int32 min', hex: '80808080f8ffffffff01', want: -2147483648 },
];

describe('int32 varints', () => {
  for (const c of int32Cases) {
    test(c.name, () => {
      const bytes = Buffer.from(c.hex, 'hex');
      const r = new Reader(bytes, 0, bytes.length);
      expect(r.int32()).toBe(c.want);
      expect(r.pos).toBe(bytes.length);
    });
  }
});

const stringCases: { name: string; value: string }[] = [
  { name: 'empty', value: '' },
  { name: 'ascii', value: 'kube-system' },
  { name: 'multi-byte', value: 'ünïcödé ✓ 𝄞' },
  { name: 'long enough for a two-byte prefix', value: 'x'.repeat(200) },
  { name: 'long multi-byte', value: 'é'.repeat(5000) },
];

describe('length-delimited strings', () => {
  for (const c of stringCases) {
    test(c.name, () => {
      const w = new Writer(4);
      w.string(c.value);
      const out = w.finish();
      const body = Buffer.from(c.value, 'utf8');
      const r = new Reader(out, 0, out.length);
      expect(r.uint32()).toBe(body.length);
      expect(out.subarray(r.pos).equals(body)).toBe(true);
      expect(new Reader(out, 0, out.length).string()).toBe(c.value);
    });
  }
});

const truncatedCases: { name: string; hex: string; read: (r: Reader) => unknown }[] = [
  { name: 'varint cut short', hex: 'ff', read: (r) => r.uint32() },
  { name: 'int64 cut short', hex: 'ffffffff', read: (r) => r.int64() },
  { name: 'string longer than the data', hex: '0561', read: (r) => r.string() },
  { name: 'varint longer than ten bytes', hex: 'ffffffffffffffffffff01', read: (r) => r.int64() },
  { name: 'fixed64 cut short', hex: '0102', read: (r) => r.skip(1) },
  { name: 'group wire type', hex: '', read: (r) => r.skip(3) },
];

describe('malformed input is a 400', () => {
  for (const c of truncatedCases) {
    test(c.name, () => {
      const bytes = Buffer.from(c.hex, 'hex');
      let caught: unknown;
      try {
        c.read(new Reader(bytes, 0, bytes.length));
      } catch (err) {
        caught = err;
      }
      expect(isStatusError(caught) && caught.code === 400).toBe(true);
    });
  }
});
