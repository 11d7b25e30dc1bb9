// Protobuf bytes → the JSON shape, one compiled decoder per message type. A decoder
// is a table indexed by field number whose entries are closures specialised for the
// field's label and type when the message is first used, so the hot loop does no
// descriptor inspection. Field presence follows Go's JSON: zero scalars drop out
// (see zero-values.ts), empty repeated fields and maps never appear, messages
// present on the wire appear even when empty (Go shows `"spec": {}`).
import { badRequest } from '../../errors/status-error.js';
import { MAX_DEPTH } from '../depth.js';
import { isScalarType, messageDescriptor, type FieldDescriptor, type ScalarType } from './descriptors.js';
import { wellKnownTypes } from './well-known.js';
import { LENGTH_DELIMITED, Reader, VARINT } from './wire.js';
import { keepsZero } from './zero-values.js';

type Obj = Record<string, unknown>;
/** Reads one occurrence of a field (tag already consumed) into `obj`. */
type FieldReader = (r: Reader, obj: Obj, wireType: number) => void;

export interface MessageDecoder {
  /** Reads fields up to `end` into `into` (a fresh object unless given). */
  readonly decode: (r: Reader, end: number, into?: Obj) => unknown;
}

const decoders = new Map<string, MessageDecoder>();

export function decoderFor(fullName: string): MessageDecoder {
  let decoder = decoders.get(fullName);
  if (decoder === undefined) {
    decoder = compile(fullName);
    decoders.set(fullName, decoder);
  }
  return decoder;
}

function compile(fullName: string): MessageDecoder {
  const wellKnown = wellKnownTypes.get(fullName);
  if (wellKnown !== undefined) return { decode: (r, end) => wellKnown.decode(r, end) };
  const descriptor = messageDescriptor(fullName);
  if (descriptor === undefined) throw new Error(`protobuf message ${fullName} is not generated`);
  const only = descriptor.fields.length === 1 ? descriptor.fields[0]! : undefined;
  if (only !== undefined && only.number === 1 && only.name === 'items' && only.type === 'string' && only.label === 'r') {
    // Go named slice types (metav1.Verbs, authentication ExtraValue) are messages
    // with one `repeated string items = 1`; their JSON is the bare array.
    return { decode: (r, end) => (decodeFields(r, end, {}, readersFor(fullName)).items as string[] | undefined) ?? [] };
  }
  let table: (FieldReader | undefined)[] | undefined;
  return {
    decode: (r, end, into) => {
      table ??= readersFor(fullName);
      return decodeFields(r, end, into ?? {}, table);
    },
  };
}

const tables = new Map<string, (FieldReader | undefined)[]>();

function readersFor(fullName: string): (FieldReader | undefined)[] {
  let table = tables.get(fullName);
  if (table === undefined) {
    table = [];
    const message = fullName.slice(fullName.lastIndexOf('.') + 1);
    for (const field of messageDescriptor(fullName)!.fields) table[field.number] = fieldReader(field, message);
    tables.set(fullName, table);
  }
  return table;
}

function decodeFields(r: Reader, end: number, obj: Obj, table: (FieldReader | undefined)[]): Obj {
  while (r.pos < end) {
    const tag = r.uint32();
    const read = table[tag >>> 3];
    if (read === undefined) r.skip(tag & 7);
    else read(r, obj, tag & 7);
  }
  if (r.pos !== end) throw badRequest('unable to decode protobuf message: field overruns its message');
  return obj;
}

function wrongWireType(field: FieldDescriptor, wireType: number): never {
  throw badRequest(`unable to decode protobuf message: field ${field.name || field.type} has wire type ${wireType}`);
}

function scalarValue(type: ScalarType): (r: Reader) => unknown {
  switch (type) {
    case 'string':
      return (r) => r.string();
    case 'bytes':
      return (r) => Buffer.from(r.bytes()).toString('base64');
    case 'int32':
      return (r) => r.int32();
    case 'int64':
      return (r) => r.int64();
    case 'bool':
      return (r) => r.bool();
  }
}

function scalarWireType(type: ScalarType): number {
  return type === 'string' || type === 'bytes' ? LENGTH_DELIMITED : VARINT;
}

// How many embedded messages the decoder is inside. Recursive message types
// (JSONSchemaProps in a CRD) let a hostile body nest without end; past MAX_DEPTH
// it is a 400, never a stack overflow. Decoding is synchronous, so one counter
// serves every request.
let nesting = 0;

function nested<T>(run: () => T): T {
  if (nesting >= MAX_DEPTH) throw badRequest('unable to decode protobuf message: exceeded max depth');
  nesting++;
  try {
    return run();
  } finally {
    nesting--;
  }
}

/** A message-typed value: its decoder runs over the length-delimited body. */
function messageValue(type: string): (r: Reader) => unknown {
  let decoder: MessageDecoder | undefined;
  return (r) => {
    const end = r.delimitedEnd();
    decoder ??= decoderFor(type);
    const d = decoder;
    return nested(() => d.decode(r, end));
  };
}

function fieldReader(field: FieldDescriptor, message: string): FieldReader {
  const { name, label, type } = field;
  if (label === 'm') return mapReader(field);
  if (label === 'i') {
    let decoder: MessageDecoder | undefined;
    return (r, obj, wireType) => {
      if (wireType !== LENGTH_DELIMITED) wrongWireType(field, wireType);
      const end = r.delimitedEnd();
      decoder ??= decoderFor(type);
      const d = decoder;
      nested(() => d.decode(r, end, obj));
    };
  }
  if (!isScalarType(type)) {
    const read = messageValue(type);
    if (label === 'r') {
      return (r, obj, wireType) => {
        if (wireType !== LENGTH_DELIMITED) wrongWireType(field, wireType);
        const value = read(r);
        const list = obj[name] as unknown[] | undefined;
        if (list === undefined) obj[name] = [value];
        else list.push(value);
      };
    }
    return (r, obj, wireType) => {
      if (wireType !== LENGTH_DELIMITED) wrongWireType(field, wireType);
      const value = read(r);
      if (value !== undefined) obj[name] = value;
    };
  }
  const read = scalarValue(type);
  const expected = scalarWireType(type);
  if (label === 'r') {
    return (r, obj, wireType) => {
      let list = obj[name] as unknown[] | undefined;
      if (list === undefined) obj[name] = list = [];
      if (wireType === expected) {
        list.push(read(r));
      } else if (wireType === LENGTH_DELIMITED && expected === VARINT) {
        // Packed encoding: parsers must accept it even though Go writes unpacked.
        const end = r.delimitedEnd();
        while (r.pos < end) list.push(read(r));
      } else wrongWireType(field, wireType);
    };
  }
  const keepZero = field.required || keepsZero(message, name);
  return (r, obj, wireType) => {
    if (wireType !== expected) wrongWireType(field, wireType);
    const value = read(r);
    if (keepZero || (value !== '' && value !== 0 && value !== false)) obj[name] = value;
    else if (obj[name] !== undefined) delete obj[name]; // a repeated occurrence: last one wins
  };
}

/** proto2 maps are repeated entries {1: key, 2: value}; a missing value is Go's zero. */
function mapReader(field: FieldDescriptor): FieldReader {
  const { name, type } = field;
  const scalar = isScalarType(type);
  const readValue = scalar ? scalarValue(type) : messageValue(type);
  const valueWire = scalar ? scalarWireType(type) : LENGTH_DELIMITED;
  const zero = (): unknown => (type === 'string' || type === 'bytes' ? '' : type === 'bool' ? false : 0);
  return (r, obj, wireType) => {
    if (wireType !== LENGTH_DELIMITED) wrongWireType(field, wireType);
    const end = r.delimitedEnd();
    let key = '';
    let value: unknown;
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag === ((1 << 3) | LENGTH_DELIMITED)) key = r.string();
      else if (tag === ((2 << 3) | valueWire)) value = readValue(r);
      else r.skip(tag & 7);
    }
    if (r.pos !== end) throw badRequest('unable to decode protobuf message: map entry overruns its field');
    if (value === undefined) value = scalar ? zero() : (decoderFor(type).decode(r, r.pos) ?? null);
    let map = obj[name] as Obj | undefined;
    if (map === undefined) obj[name] = map = {};
    // Keys are user data (annotations): never let one reach the prototype.
    if (key === '__proto__') Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
    else map[key] = value;
  };
}
