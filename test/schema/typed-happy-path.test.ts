// The typed walk's allocation-free happy path (schema/typed.ts, typed-values.ts):
// times are first matched whole and only a refused one is read element by
// element; own keys are read with for-in; the walk's state is shared between
// calls. Each must answer exactly what the straightforward reading answered.
import { describe, expect, test } from 'vitest';
import { builtinDefinitions } from '../../src/schema/definitions.js';
import { goJsonType } from '../../src/schema/object.js';
import { checkTyped, isSchemaTypeError } from '../../src/schema/typed.js';

const CM = 'io.k8s.api.core.v1.ConfigMap';
const SECRET = 'io.k8s.api.core.v1.Secret';

/** The error text of checking `obj`, or undefined when it is accepted. */
function typeError(schema: string, obj: unknown): string | undefined {
  try {
    checkTyped(schema, obj, builtinDefinitions);
    return undefined;
  } catch (err) {
    if (isSchemaTypeError(err)) return err.detail;
    throw err;
  }
}

const LAYOUT = '2006-01-02T15:04:05Z07:00';
const MICRO_LAYOUT = '2006-01-02T15:04:05.000000Z07:00';

/**
 * Go's time.Parse for the two layouts, element by element with a pattern each —
 * the reading the fast path stands in for: its error text, or undefined.
 * A field out of range stops the reading where it is read, as in Go; the day is
 * checked last; Go's quote prints non-ASCII bytes as \xNN.
 */
function referenceTimeError(value: unknown, micro = false): string | undefined {
  if (typeof value !== 'string') return `json: cannot unmarshal ${goJsonType(value)} into Go value of type string`;
  const q = (s: string) => `"${[...Buffer.from(s, 'utf8')].map((b) => (b < 0x20 || b >= 0x80 ? `\\x${b.toString(16).padStart(2, '0')}` : b === 0x22 || b === 0x5c ? `\\${String.fromCharCode(b)}` : String.fromCharCode(b))).join('')}"`;
  const layout = micro ? MICRO_LAYOUT : LAYOUT;
  const cannot = (rest: string, what: string) => `parsing time ${q(value)} as ${q(layout)}: cannot parse ${q(rest)} as ${q(what)}`;
  const range = (what: string) => `parsing time ${q(value)}: ${what} out of range`;
  let rest = value;
  const take = (re: RegExp): string | undefined => {
    const m = re.exec(rest);
    if (m === null) return undefined;
    rest = rest.slice(m[0].length);
    return m[0];
  };
  const literal = (c: string) => (take(new RegExp(`^${c}`)) === undefined ? cannot(rest, c) : undefined);
  let hold = rest;
  const year = take(/^\d{4}/);
  if (year === undefined) return cannot(hold, '2006');
  const fields: number[] = [Number(year)];
  const steps: [string, string, RegExp, number][] = [['-', '01', /^\d{2}/, 13], ['-', '02', /^\d{2}/, 100], ['T', '15', /^\d{1,2}/, 24], [':', '04', /^\d{2}/, 60], [':', '05', /^\d{2}/, 60]];
  const names = ['month', '', 'hour', 'minute', 'second'];
  for (const [i, [sep, what, re, limit]] of steps.entries()) {
    const bad = literal(sep);
    if (bad !== undefined) return bad;
    hold = rest;
    const got = take(re);
    if (got === undefined) return cannot(hold, what);
    const n = Number(got);
    if (n >= limit || (i === 0 && n === 0)) return range(names[i]!);
    fields.push(n);
  }
  if (micro) {
    hold = rest;
    const frac = rest.slice(0, 7);
    const m = /^[.,]([+-]?)(\d*)$/.exec(frac);
    if (frac.length < 7 || m === null) return cannot(hold, '.000000');
    if (m[1] === '-' && Number(m[2]) > 0) return range('fractional second');
    rest = rest.slice(7);
  } else {
    take(/^[.,]\d+/);
  }
  hold = rest;
  if (take(/^Z/) === undefined) {
    if (rest.length < 6 || rest[3] !== ':') return cannot(hold, 'Z07:00');
    const hh = /^\d\d$/.test(rest.slice(1, 3)) ? Number(rest.slice(1, 3)) : undefined;
    const mm = hh !== undefined && /^\d\d$/.test(rest.slice(4, 6)) ? Number(rest.slice(4, 6)) : undefined;
    if ((mm ?? 0) > 60) return range('time zone offset minute');
    if ((hh ?? 0) > 24) return range('time zone offset hour');
    if (hh === undefined || mm === undefined || !'+-'.includes(rest[0]!)) return cannot(hold, 'Z07:00');
    rest = rest.slice(6);
  }
  if (rest !== '') return `parsing time ${q(value)}: extra text: ${q(rest)}`;
  const [y, month, day] = fields as [number, number, number];
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  if (day < 1 || day > days) return range('day');
  return undefined;
}

/** Every one-character edit of `valid` (removed, replaced, inserted). */
function editsOf(valid: string): Set<string> {
  const edits = new Set<string>();
  for (let i = 0; i <= valid.length; i++) {
    edits.add(valid.slice(0, i) + valid.slice(i + 1));
    for (const c of ['0', '2', '6', '9', '-', ':', '.', ',', 'T', 't', 'Z', 'z', '+', ' ', 'x', '\n', '\u00e9', '"']) {
      edits.add(valid.slice(0, i) + c + valid.slice(i + 1));
      edits.add(valid.slice(0, i) + c + valid.slice(i));
    }
  }
  return edits;
}

describe('metav1.Time', () => {
  const valid = '2024-02-29T23:59:59.123456+05:30';
  // Every one-character edit of a valid time, plus the edges of each range.
  const edits = new Set([...editsOf(valid), ...editsOf('2024-02-29T03:59:59Z')]);
  const ranges = [
    '2024-00-01T00:00:00Z', '2024-12-31T00:00:00Z', '2023-02-29T00:00:00Z', '2024-02-29T00:00:00Z', '2100-02-29T00:00:00Z',
    '2000-02-29T00:00:00Z', '0000-02-29T00:00:00Z', '0004-02-29T00:00:00Z', '2024-04-31T00:00:00Z', '2024-04-30T00:00:00Z',
    '2024-01-00T00:00:00Z', '2024-01-32T00:00:00Z', '2024-01-28T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T23:60:00Z',
    '2024-01-01T23:59:60Z', '2024-01-01T23:59:59z', '2024-01-01t23:59:59Z', '2024-01-01T23:59:59.Z', '2024-01-01T23:59:59Z\n',
    '2024-01-01T23:59:59+0530', '', '٢٠٢٤-01-01T00:00:00Z', '2024-01-01T3:04:05Z', '2024-01-01T23:59:59,5Z', '2024-01-01T00:00:00+24:00',
    '2024-01-01T00:00:00-00:60', '2024-01-01T00:00:00+25:00', '2024-01-01T00:00:00+24:61', '2024-01-01T00:00:00*05:00', '2024-13-01T00:00:00Zjunk',
  ];
  // (A null field is dropped before any check, as Go leaves it unset.)
  const all = [...edits, ...ranges, 12, true, { a: 1 }, ['x']];

  test('every edit of a time is accepted or refused with the element reading\'s text', () => {
    expect(all.length).toBeGreaterThan(500);
    for (const t of all) expect([t, typeError(CM, { metadata: { creationTimestamp: t } })]).toEqual([t, referenceTimeError(t)]);
  });

  test('a valid time passes, an impossible day does not', () => {
    expect(typeError(CM, { metadata: { creationTimestamp: valid } })).toBeUndefined();
    expect(typeError(CM, { metadata: { creationTimestamp: '2023-02-29T00:00:00Z' } })).toBe('parsing time "2023-02-29T00:00:00Z": day out of range');
  });
});

describe('metav1.MicroTime', () => {
  const EVENT = 'io.k8s.api.core.v1.Event';
  const edits = new Set([...editsOf('2024-02-29T23:59:59.123456+05:30'), ...editsOf('0000-02-29T03:04:05.000000Z')]);
  const more = ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.12345Z', '2024-01-01T00:00:00.1234567Z', '2024-01-01T00:00:00,123456Z', '2024-01-01T00:00:00.+12345Z', '2024-01-01T00:00:00.-12345Z', '2024-01-01T00:00:00.-00000Z'];
  const all = [...edits, ...more, 12, { a: 1 }];

  test('every edit of a micro time is accepted or refused with the element reading\'s text', () => {
    expect(all.length).toBeGreaterThan(500);
    for (const t of all) expect([t, typeError(EVENT, { eventTime: t })]).toEqual([t, referenceTimeError(t, true)]);
  });

  test('six fractional digits are required', () => {
    expect(typeError(EVENT, { eventTime: '2024-01-01T00:00:00.000000Z' })).toBeUndefined();
    expect(typeError(EVENT, { eventTime: '2024-01-01T00:00:00Z' })).toBe('parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"');
  });
});

/** The reading of base64 the in-place one stands in for: the indices of the characters that are not line breaks, then each one. */
function referenceBase64Error(value: string): string | undefined {
  const at: number[] = [];
  for (let i = 0; i < value.length; i++) if (value[i] !== '\r' && value[i] !== '\n') at.push(i);
  const n = at.length;
  for (let k = 0; k < n; k++) {
    const c = value[at[k]!]!;
    if (c === '=') {
      const q = k % 4;
      if (q === 3 && k + 1 === n) return undefined;
      if (q === 2 && k + 2 === n && value[at[k + 1]!] === '=') return undefined;
      return `illegal base64 data at input byte ${at[k]!}`;
    }
    if (!/^[A-Za-z0-9+/]$/.test(c)) return `illegal base64 data at input byte ${at[k]!}`;
  }
  return n % 4 === 0 ? undefined : `illegal base64 data at input byte ${value.length}`;
}

describe('base64 bytes', () => {
  test('every edit of a few encodings is accepted or refused at the byte the index reading names', () => {
    const seeds = ['', 'YQ==', 'YWI=', 'YWJj', 'YWJjZA==', 'YW\r\nJj', 'YWI\n=', 'YQ=\r\n=', '+/+/', 'YQ==\n'];
    const inputs = new Set<string>(seeds);
    for (const seed of seeds) {
      for (let i = 0; i <= seed.length; i++) {
        inputs.add(seed.slice(0, i) + seed.slice(i + 1));
        for (const c of ['=', '\n', '\r', 'A', '-', '_', ' ', '\u00e9', '\ud83d']) {
          inputs.add(seed.slice(0, i) + c + seed.slice(i));
          inputs.add(seed.slice(0, i) + c + seed.slice(i + 1));
        }
      }
    }
    expect(inputs.size).toBeGreaterThan(300);
    for (const v of inputs) expect([v, typeError(SECRET, { data: { k: v } })]).toEqual([v, referenceBase64Error(v)]);
  });
});

describe('the walk over own keys', () => {
  test('inherited enumerable fields are neither known nor unknown', () => {
    const metadata = Object.assign(Object.create({ inherited: 1, name: 7 }) as object, { name: 'a', extra: 'x' });
    const obj = Object.assign(Object.create({ bogus: true }) as object, { metadata, data: { k: 'v' }, other: 1 });
    const checked = checkTyped(CM, obj, builtinDefinitions);
    expect(checked.unknownFields).toEqual(['metadata.extra', 'other']);
    checked.dropUnknownFields();
    expect(Object.keys(obj)).toEqual(['metadata', 'data']);
    expect(Object.keys(metadata)).toEqual(['name']);
  });

  test('objects without a prototype are walked like any other', () => {
    const metadata = Object.assign(Object.create(null) as object, { name: 'a', extra: 'x', labels: Object.assign(Object.create(null) as object, { a: 'b' }) });
    const obj = Object.assign(Object.create(null) as object, { metadata, data: { k: 'v' }, other: 1 });
    expect(checkTyped(CM, obj, builtinDefinitions).unknownFields).toEqual(['metadata.extra', 'other']);
    expect(typeError(CM, { metadata: Object.assign(Object.create(null) as object, { name: 5 }) })).toBe(
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
    );
  });

  test('an enumerable key someone added to Object.prototype is never walked', () => {
    Object.defineProperty(Object.prototype, 'polluted', { value: { bad: 1 }, enumerable: true, configurable: true, writable: true });
    try {
      const obj = JSON.parse('{"metadata":{"name":"a","labels":{"a":"b"}},"data":{"k":"v"},"other":1}') as object;
      const checked = checkTyped(CM, obj, builtinDefinitions);
      expect(checked.unknownFields).toEqual(['other']);
      // Nor written: a map's inherited key is not made an own one.
      expect(Object.keys((obj as { data: object }).data)).toEqual(['k']);
    } finally {
      delete (Object.prototype as Record<string, unknown>)['polluted'];
    }
  });

  test('a null field removed mid-walk does not hide the fields after it', () => {
    const obj = { metadata: { name: null, labels: null, x: 1, namespace: 'n', y: 2 }, data: null, z: 3 };
    expect(checkTyped(CM, obj, builtinDefinitions).unknownFields).toEqual(['metadata.x', 'metadata.y', 'z']);
    expect(obj).toEqual({ metadata: { x: 1, namespace: 'n', y: 2 }, z: 3 });
  });
});

describe('the shared walk state', () => {
  test('a walk that threw deep inside leaves nothing for the next one', () => {
    const bad = { metadata: { labels: { a: 'b' }, ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'n', uid: 5 }] } };
    expect(typeError(CM, bad)).toBe('json: cannot unmarshal number into Go struct field OwnerReference.metadata.ownerReferences.uid of type string');
    const next = { metadata: { name: 'a', extra: 1 }, data: { k: 'v' } };
    expect(checkTyped(CM, next, builtinDefinitions).unknownFields).toEqual(['metadata.extra']);
    expect(typeError(CM, { metadata: { name: 1 } })).toBe('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string');
  });

  test('each check answers its own unknown fields; one with none answers an empty list that cannot grow', () => {
    const first = checkTyped(CM, { a: 1 }, builtinDefinitions);
    const second = checkTyped(CM, { b: 1 }, builtinDefinitions);
    const clean = checkTyped(CM, { metadata: { name: 'a' } }, builtinDefinitions);
    expect(first.unknownFields).toEqual(['a']);
    expect(second.unknownFields).toEqual(['b']);
    expect(clean.unknownFields).toEqual([]);
    expect(() => (clean.unknownFields as string[]).push('x')).toThrow(TypeError);
    expect(checkTyped(CM, { metadata: {} }, builtinDefinitions).unknownFields).toEqual([]);
  });
});
