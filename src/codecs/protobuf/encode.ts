// The JSON shape → protobuf bytes, one compiled encoder per message type: a list of
// field writers in field-number order (the order Go's generated marshallers use),
// each specialised for its label and type. Absent and null fields are not written;
// anything present is, zero or not, so `replicas: 0` reaches a Go client as &0.
// Map entries go out sorted by key, as Go's marshallers sort them. A value of the
// wrong JSON type is a server bug and throws a plain Error; the codec turns it into
// an InternalError.
import { isScalarType, messageDescriptor, type FieldDescriptor, type ScalarType } from './descriptors.js';
import { wellKnownTypes } from './well-known.js';
import { LENGTH_DELIMITED, VARINT, Writer } from './wire.js';

type Obj = Record<string, unknown>;
type FieldWriter = (w: Writer, obj: Obj) => void;

export interface MessageEncoder {
  /** Writes the message body (no tag, no length) for a JSON value. */
  readonly encode: (w: Writer, value: unknown) => void;
}

const encoders = new Map<string, MessageEncoder>();

export function encoderFor(fullName: string): MessageEncoder {
  let encoder = encoders.get(fullName);
  if (encoder === undefined) {
    encoder = compile(fullName);
    encoders.set(fullName, encoder);
  }
  return encoder;
}

function compile(fullName: string): MessageEncoder {
  const wellKnown = wellKnownTypes.get(fullName);
  if (wellKnown !== undefined) return wellKnown;
  const descriptor = messageDescriptor(fullName);
  if (descriptor === undefined) throw new Error(`protobuf message ${fullName} is not generated`);
  const only = descriptor.fields.length === 1 ? descriptor.fields[0]! : undefined;
  if (only !== undefined && only.number === 1 && only.name === 'items' && only.type === 'string' && only.label === 'r') {
    // Named slice types (metav1.Verbs, ExtraValue): the JSON array is the items.
    const items = fieldWriter(only);
    return { encode: (w, value) => items(w, { items: expectArray(value, fullName) }) };
  }
  let writers: FieldWriter[] | undefined;
  return {
    encode: (w, value) => {
      writers ??= descriptor.fields.map(fieldWriter);
      const obj = expectObject(value, fullName);
      for (let i = 0; i < writers.length; i++) writers[i]!(w, obj);
    },
  };
}

function expectObject(value: unknown, what: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what}: expected an object`);
  return value as Obj;
}

function expectArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what}: expected an array`);
  return value;
}

function scalarWriter(type: ScalarType, what: string): (w: Writer, value: unknown) => void {
  const fail = (value: unknown): never => {
    throw new Error(`${what}: expected ${type}, got ${typeof value}`);
  };
  switch (type) {
    case 'string':
      return (w, v) => (typeof v === 'string' ? w.string(v) : fail(v));
    case 'bytes':
      return (w, v) => (typeof v === 'string' ? w.bytes(Buffer.from(v, 'base64')) : fail(v));
    case 'int32':
    case 'int64':
      return (w, v) => (typeof v === 'number' && Number.isInteger(v) ? w.int64(v) : fail(v));
    case 'bool':
      return (w, v) => (typeof v === 'boolean' ? w.bool(v) : fail(v));
  }
}

/** Writes one value of `type` after its tag: scalars inline, messages length-delimited. */
function valueWriter(type: string, what: string): { wireType: 0 | 2; write: (w: Writer, value: unknown) => void } {
  if (isScalarType(type)) {
    return { wireType: type === 'string' || type === 'bytes' ? LENGTH_DELIMITED : VARINT, write: scalarWriter(type, what) };
  }
  let encoder: MessageEncoder | undefined;
  return {
    wireType: LENGTH_DELIMITED,
    write: (w, value) => {
      encoder ??= encoderFor(type);
      const start = w.fork();
      encoder.encode(w, value);
      w.ldelim(start);
    },
  };
}

function fieldWriter(field: FieldDescriptor): FieldWriter {
  const { name, number, label, type } = field;
  if (label === 'i') return inlineWriter(field);
  const { wireType, write } = valueWriter(type, name);
  if (label === 'm') return mapWriter(field);
  if (label === 'r') {
    return (w, obj) => {
      const v = obj[name];
      if (v === undefined || v === null) return;
      const list = expectArray(v, name);
      for (let i = 0; i < list.length; i++) {
        w.tag(number, wireType);
        write(w, list[i]);
      }
    };
  }
  return (w, obj) => {
    const v = obj[name];
    if (v === undefined || v === null) return;
    w.tag(number, wireType);
    write(w, v);
  };
}

/** A Go-embedded struct: its fields live in the parent's JSON object. */
function inlineWriter(field: FieldDescriptor): FieldWriter {
  const names = messageDescriptor(field.type)?.fields.map((f) => f.name) ?? [];
  let encoder: MessageEncoder | undefined;
  return (w, obj) => {
    if (!names.some((n) => obj[n] !== undefined && obj[n] !== null)) return;
    encoder ??= encoderFor(field.type);
    w.tag(field.number, LENGTH_DELIMITED);
    const start = w.fork();
    encoder.encode(w, obj);
    w.ldelim(start);
  };
}

function mapWriter(field: FieldDescriptor): FieldWriter {
  const { name, number, type } = field;
  const value = valueWriter(type, name);
  return (w, obj) => {
    const v = obj[name];
    if (v === undefined || v === null) return;
    const map = expectObject(v, name);
    const keys = Object.keys(map).sort();
    for (const key of keys) {
      const entry = map[key];
      w.tag(number, LENGTH_DELIMITED);
      const start = w.fork();
      w.tag(1, LENGTH_DELIMITED);
      w.string(key);
      // Go writes the value even when it is the zero value; a null is a zero Time.
      if (entry !== null) {
        w.tag(2, value.wireType);
        value.write(w, entry);
      }
      w.ldelim(start);
    }
  };
}
