// apimachinery types whose JSON is not their message shape: metav1.Time and
// MicroTime ({seconds, nanos} ↔ RFC 3339), metav1.Duration (nanoseconds ↔ "1h0m0s"),
// resource.Quantity ({string} ↔ "100m"), intstr.IntOrString ({type, intVal, strVal}
// ↔ 8080 | "http"), runtime.RawExtension and metav1.FieldsV1 (raw JSON bytes ↔ the
// parsed value). Encoders write every field of these structs even when zero, as
// their Go marshallers do, so our bytes match kube-apiserver's.
import { LENGTH_DELIMITED, Reader, VARINT, Writer } from './wire.js';
import { formatDuration, formatMicroTime, formatTime, parseDuration, parseTime, type Timestamp } from './time-format.js';

export interface WellKnown {
  /** Reads the message body up to `end`; undefined means "leave the field out". */
  decode(r: Reader, end: number): unknown;
  /** Writes the message body for a JSON value (never undefined or null). */
  encode(w: Writer, value: unknown): void;
}

function readTimestamp(r: Reader, end: number): Timestamp | undefined {
  // An empty message is Go's zero time (metav1.Time.Unmarshal), shown as null.
  if (r.pos === end) return undefined;
  let seconds = 0;
  let nanos = 0;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | VARINT)) seconds = r.int64();
    else if (tag === ((2 << 3) | VARINT)) nanos = r.int32();
    else r.skip(tag & 7);
  }
  return { seconds, nanos };
}

function writeTimestamp(w: Writer, value: unknown): void {
  const t = parseTime(expectString(value, 'time'));
  w.tag(1, VARINT);
  w.int64(t.seconds);
  w.tag(2, VARINT);
  w.int64(t.nanos);
}

/** Decodes a message with one field 1 through `read`; absent → `fallback`. */
function singleField<T>(r: Reader, end: number, wireType: number, read: () => T, fallback: T): T {
  let value = fallback;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | wireType)) value = read();
    else r.skip(tag & 7);
  }
  return value;
}

function parseRawJson(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return null;
  return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'));
}

function expectString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new Error(`${what}: expected a string, got ${typeof value}`);
  return value;
}

const time: WellKnown = {
  decode: (r, end) => {
    const t = readTimestamp(r, end);
    return t === undefined ? undefined : formatTime(t);
  },
  encode: writeTimestamp,
};

const microTime: WellKnown = {
  decode: (r, end) => {
    const t = readTimestamp(r, end);
    return t === undefined ? undefined : formatMicroTime(t);
  },
  encode: writeTimestamp,
};

const duration: WellKnown = {
  decode: (r, end) => formatDuration(singleField(r, end, VARINT, () => r.int64(), 0)),
  encode: (w, value) => {
    w.tag(1, VARINT);
    w.int64(parseDuration(expectString(value, 'duration')));
  },
};

const quantity: WellKnown = {
  // Go's zero Quantity marshals as "0".
  decode: (r, end) => singleField(r, end, LENGTH_DELIMITED, () => r.string(), '0'),
  encode: (w, value) => {
    w.tag(1, LENGTH_DELIMITED);
    w.string(typeof value === 'number' ? String(value) : expectString(value, 'quantity'));
  },
};

const intOrString: WellKnown = {
  decode: (r, end) => {
    let type = 0;
    let intVal = 0;
    let strVal = '';
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag === ((1 << 3) | VARINT)) type = r.int64();
      else if (tag === ((2 << 3) | VARINT)) intVal = r.int32();
      else if (tag === ((3 << 3) | LENGTH_DELIMITED)) strVal = r.string();
      else r.skip(tag & 7);
    }
    return type === 1 ? strVal : intVal;
  },
  encode: (w, value) => {
    const isString = typeof value === 'string';
    if (!isString && typeof value !== 'number') throw new Error(`int-or-string: got ${typeof value}`);
    w.tag(1, VARINT);
    w.int64(isString ? 1 : 0);
    w.tag(2, VARINT);
    w.int64(isString ? 0 : (value as number));
    w.tag(3, LENGTH_DELIMITED);
    w.string(isString ? value : '');
  },
};

const rawJson: WellKnown = {
  decode: (r, end) => parseRawJson(singleField(r, end, LENGTH_DELIMITED, () => r.bytes(), new Uint8Array(0))),
  encode: (w, value) => {
    w.tag(1, LENGTH_DELIMITED);
    w.bytes(Buffer.from(JSON.stringify(value), 'utf8'));
  },
};

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

export const wellKnownTypes: ReadonlyMap<string, WellKnown> = new Map([
  [`${META}.Time`, time],
  [`${META}.MicroTime`, microTime],
  [`${META}.Duration`, duration],
  [`${META}.FieldsV1`, rawJson],
  ['k8s.io.apimachinery.pkg.runtime.RawExtension', rawJson],
  ['k8s.io.apimachinery.pkg.api.resource.Quantity', quantity],
  ['k8s.io.apimachinery.pkg.api.resource.QuantityValue', quantity],
  ['k8s.io.apimachinery.pkg.util.intstr.IntOrString', intOrString],
]);
