// The Go types of the typed walk (schema/typed.ts) that decode themselves, with
// their own UnmarshalJSON wording: resource.Quantity, metav1.Time and MicroTime,
// intstr.IntOrString, []byte as base64, and the opaque RawExtension and FieldsV1.
// Each check throws SchemaTypeError with the text kube's decoder gives.
import { parseQuantity, QuantityParseError, QuantityRangeError } from './quantity.js';
import { goJsonType } from './object.js';

/** A value Go's decoder would refuse; `detail` is the decoder's error text. */
export class SchemaTypeError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'SchemaTypeError';
  }
}

export function isSchemaTypeError(err: unknown): err is SchemaTypeError {
  return err instanceof SchemaTypeError;
}

export const INT32 = 2 ** 31;
export const INT64 = 2 ** 63;

/** Short quantity texts already parsed without error (requests and limits repeat the same few). */
const validQuantities = new Set<string>();
/** Past this many texts the memo starts over (it only saves work). */
const QUANTITY_MEMO_LIMIT = 1024;

/** resource.Quantity's UnmarshalJSON: a JSON number is read as its text, quoted text trimmed. */
function checkQuantity(value: unknown): void {
  // Short texts only: the memo must not hold on to a client's megabyte of digits.
  const memo = typeof value === 'string' && value.length <= 32;
  if (memo && validQuantities.has(value)) return;
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
  try {
    // Objects, lists and booleans reach ParseQuantity as their raw JSON: never a quantity.
    parseQuantity(text ?? '');
  } catch (err) {
    if (err instanceof QuantityParseError || err instanceof QuantityRangeError) throw new SchemaTypeError(err.message);
    throw err;
  }
  if (!memo) return;
  if (validQuantities.size >= QUANTITY_MEMO_LIMIT) validQuantities.clear();
  validQuantities.add(value);
}

const RFC3339 = '2006-01-02T15:04:05Z07:00';
/** The elements of Go's RFC 3339 layout, in order, with what each accepts. */
const RFC3339_ELEMENTS: readonly { readonly layout: string; readonly re: RegExp }[] = [
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
  // Go accepts fractional seconds after the seconds element even when the layout has none.
  { layout: '05', re: /^\d{2}(?:\.\d+)?/ },
  { layout: 'Z07:00', re: /^(?:[Zz]|[+-]\d{2}:\d{2})/ },
];

/** metav1.Time / MicroTime: a JSON string in RFC 3339, checked as time.Parse checks it. */
function checkTime(value: unknown): void {
  if (typeof value !== 'string') {
    throw new SchemaTypeError(`json: cannot unmarshal ${goJsonType(value)} into Go value of type string`);
  }
  let rest = value;
  const quoted = JSON.stringify(value);
  for (let i = 0; i < RFC3339_ELEMENTS.length; i++) {
    const element = RFC3339_ELEMENTS[i]!;
    const m = element.re.exec(rest);
    if (m === null) {
      throw new SchemaTypeError(`parsing time ${quoted} as "${RFC3339}": cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(element.layout)}`);
    }
    rest = rest.slice(m[0].length);
  }
  if (rest !== '') throw new SchemaTypeError(`parsing time ${quoted}: extra text: ${JSON.stringify(rest)}`);
  const [month, day, hour, minute, second] = [value.slice(5, 7), value.slice(8, 10), value.slice(11, 13), value.slice(14, 16), value.slice(17, 19)].map(Number);
  const range = (what: string) => new SchemaTypeError(`parsing time ${quoted}: ${what} out of range`);
  if (month! < 1 || month! > 12) throw range('month');
  const year = Number(value.slice(0, 4));
  const days = new Date(Date.UTC(year, month!, 0)).getUTCDate();
  if (day! < 1 || day! > days) throw range('day');
  if (hour! > 23) throw range('hour');
  if (minute! > 59) throw range('minute');
  if (second! > 59) throw range('second');
}

/** intstr.IntOrString: a quoted string, or a JSON value decoded as int32. */
export function checkIntOrString(value: unknown): void {
  if (typeof value === 'string') return;
  if (typeof value !== 'number') throw new SchemaTypeError(`json: cannot unmarshal ${goJsonType(value)} into Go value of type int32`);
  if (!Number.isInteger(value) || value < -INT32 || value >= INT32) {
    throw new SchemaTypeError(`json: cannot unmarshal number ${String(value)} into Go value of type int32`);
  }
}

const BASE64_CHAR = /^[A-Za-z0-9+/]$/;

/**
 * []byte fields: standard padded base64, as Go's base64.StdEncoding reads it (CR and
 * LF ignored; `=` only to pad the last quantum), refused with its CorruptInputError text.
 */
export function checkBase64(value: string): void {
  const at: number[] = [];
  for (let i = 0; i < value.length; i++) if (value[i] !== '\r' && value[i] !== '\n') at.push(i);
  const n = at.length;
  const corrupt = (i: number) => new SchemaTypeError(`illegal base64 data at input byte ${i}`);
  for (let k = 0; k < n; k++) {
    const c = value[at[k]!]!;
    if (c === '=') {
      const q = k % 4;
      if (q === 3 && k + 1 === n) return;
      if (q === 2 && k + 2 === n && value[at[k + 1]!] === '=') return;
      throw corrupt(at[k]!);
    }
    if (!BASE64_CHAR.test(c)) throw corrupt(at[k]!);
  }
  if (n % 4 !== 0) throw corrupt(value.length);
}

/** Definitions whose Go type decodes itself; `opaque` ones take any JSON value (raw bytes). */
export const SELF_DECODING: ReadonlyMap<string, (value: unknown) => void> = new Map<string, (value: unknown) => void>([
  ['io.k8s.apimachinery.pkg.api.resource.Quantity', checkQuantity],
  ['io.k8s.apimachinery.pkg.apis.meta.v1.Time', checkTime],
  ['io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime', checkTime],
  ['io.k8s.apimachinery.pkg.util.intstr.IntOrString', checkIntOrString],
  ['io.k8s.apimachinery.pkg.runtime.RawExtension', () => undefined],
  ['io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1', () => undefined],
]);
