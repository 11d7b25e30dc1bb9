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
const ELEMENTS: readonly { readonly layout: string; readonly re: RegExp }[] = [
  { layout: '2006', re: /^\d{4}/ },
  { layout: '-', re: /^-/ },
  { layout: '01', re: /^\d{2}/ },
  { layout: '-', re: /^-/ },
  { layout: '02', re: /^\d{2}/ },
  { layout: 'T', re: /^[Tt]/ },
  { layout: '15', re: /^\d{2}/ },
  { layout: ':', re: /^:/ },
  { layout: '04', re: /^\d{2}/ },
  { layout: ':', re: /^:/ },
  { layout: '05', re: /^\d{2}(?:\.\d+)?/ },
  { layout: 'Z07:00', re: /^(?:[Zz]|[+-]\d{2}:\d{2})/ },
];

/** The element-by-element reading of metav1.Time the fast path stands in for: its error text, or undefined. */
function referenceTimeError(value: unknown): string | undefined {
  if (typeof value !== 'string') return `json: cannot unmarshal ${goJsonType(value)} into Go value of type string`;
  const quoted = JSON.stringify(value);
  let rest = value;
  for (const element of ELEMENTS) {
    const m = element.re.exec(rest);
    if (m === null) return `parsing time ${quoted} as "${LAYOUT}": cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(element.layout)}`;
    rest = rest.slice(m[0].length);
  }
  if (rest !== '') return `parsing time ${quoted}: extra text: ${JSON.stringify(rest)}`;
  const [month, day, hour, minute, second] = [5, 8, 11, 14, 17].map((at) => Number(value.slice(at, at + 2))) as [number, number, number, number, number];
  const range = (what: string) => `parsing time ${quoted}: ${what} out of range`;
  if (month < 1 || month > 12) return range('month');
  const days = new Date(Date.UTC(Number(value.slice(0, 4)), month, 0)).getUTCDate();
  if (day < 1 || day > days) return range('day');
  if (hour > 23) return range('hour');
  if (minute > 59) return range('minute');
  if (second > 59) return range('second');
  return undefined;
}

describe('metav1.Time', () => {
  const valid = '2024-02-29T23:59:59.123456+05:30';
  // Every one-character edit of a valid time, plus the edges of each range.
  const edits = new Set<string>();
  for (let i = 0; i <= valid.length; i++) {
    edits.add(valid.slice(0, i) + valid.slice(i + 1));
    for (const c of ['0', '9', '-', ':', '.', 'T', 't', 'Z', 'z', '+', ' ', 'x', '\n']) {
      edits.add(valid.slice(0, i) + c + valid.slice(i + 1));
      edits.add(valid.slice(0, i) + c + valid.slice(i));
    }
  }
  const ranges = [
    '2024-00-01T00:00:00Z', '2024-12-31T00:00:00Z', '2023-02-29T00:00:00Z', '2024-02-29T00:00:00Z', '2100-02-29T00:00:00Z',
    '2000-02-29T00:00:00Z', '0000-02-29T00:00:00Z', '0004-02-29T00:00:00Z', '2024-04-31T00:00:00Z', '2024-04-30T00:00:00Z',
    '2024-01-00T00:00:00Z', '2024-01-32T00:00:00Z', '2024-01-28T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T23:60:00Z',
    '2024-01-01T23:59:60Z', '2024-01-01T23:59:59z', '2024-01-01t23:59:59Z', '2024-01-01T23:59:59.Z', '2024-01-01T23:59:59Z\n',
    '2024-01-01T23:59:59+0530', '', '٢٠٢٤-01-01T00:00:00Z',
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
