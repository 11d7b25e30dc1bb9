// Protobuf wire primitives for the Kubernetes codec: varints (with int64 values as
// JS numbers), length-delimited fields and UTF-8 strings. Hand-written rather than
// protobufjs' Reader/Writer because the codec converts straight between bytes and
// the JSON shape, and because every malformed input must end in a 400, never a
// RangeError from deep inside a library.
import { badRequest } from '../../errors/status-error.js';

export type WireType = 0 | 1 | 2 | 5;
export const VARINT = 0;
export const FIXED64 = 1;
export const LENGTH_DELIMITED = 2;
export const FIXED32 = 5;

const TWO_32 = 4294967296;

function truncated(): never {
  throw badRequest('unable to decode protobuf message: unexpected end of data');
}

function malformed(what: string): never {
  throw badRequest(`unable to decode protobuf message: ${what}`);
}

export class Reader {
  pos: number;

  constructor(
    readonly buf: Uint8Array,
    pos: number,
    /** Hard limit: nothing at or past it is ever read. */
    readonly end: number,
  ) {
    this.pos = pos;
  }

  /** Low 32 bits of a varint as an unsigned number; consumes up to 10 bytes. */
  uint32(): number {
    const buf = this.buf;
    let b = buf[this.pos++]!;
    let v = b & 0x7f;
    if (b < 0x80) return this.checked(v);
    b = buf[this.pos++]!;
    v |= (b & 0x7f) << 7;
    if (b < 0x80) return this.checked(v);
    b = buf[this.pos++]!;
    v |= (b & 0x7f) << 14;
    if (b < 0x80) return this.checked(v);
    b = buf[this.pos++]!;
    v |= (b & 0x7f) << 21;
    if (b < 0x80) return this.checked(v);
    b = buf[this.pos++]!;
    v = (v | ((b & 0x0f) << 28)) >>> 0;
    if (b < 0x80) return this.checked(v);
    // Negative int32s are sign-extended to ten bytes; the high bits carry nothing.
    for (let i = 0; i < 5; i++) if (buf[this.pos++]! < 0x80) return this.checked(v);
    return this.pos > this.end ? truncated() : malformed('varint longer than 10 bytes');
  }

  int32(): number {
    return this.uint32() | 0;
  }

  /** A 64-bit two's-complement varint as a number (exact up to 2^53, as JSON is). */
  int64(): number {
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    let b = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      b = buf[this.pos++]!;
      lo |= (b & 0x7f) << shift;
      if (b < 0x80) return this.checked(lo >>> 0);
    }
    b = buf[this.pos++]!;
    lo |= (b & 0x0f) << 28;
    hi = (b & 0x7f) >> 4;
    if (b < 0x80) return this.checked(combine(lo, hi));
    for (let shift = 3; shift < 32; shift += 7) {
      b = buf[this.pos++]!;
      hi |= (b & 0x7f) << shift;
      if (b < 0x80) return this.checked(combine(lo, hi));
    }
    return this.pos > this.end ? truncated() : malformed('varint longer than 10 bytes');
  }

  bool(): boolean {
    return this.uint32() !== 0;
  }

  /** Reads a length prefix and returns where that field ends. */
  delimitedEnd(): number {
    const len = this.uint32();
    const end = this.pos + len;
    if (end > this.end) truncated();
    return end;
  }

  /** A view of the next length-delimited field (not a copy). */
  bytes(): Uint8Array {
    const end = this.delimitedEnd();
    const view = this.buf.subarray(this.pos, end);
    this.pos = end;
    return view;
  }

  string(): string {
    const end = this.delimitedEnd();
    const start = this.pos;
    this.pos = end;
    return utf8Slice(this.buf, start, end);
  }

  skip(wireType: number): void {
    switch (wireType) {
      case VARINT:
        this.int64();
        return;
      case FIXED64:
        this.pos += 8;
        break;
      case LENGTH_DELIMITED:
        this.pos = this.delimitedEnd();
        return;
      case FIXED32:
        this.pos += 4;
        break;
      default:
        malformed(`unsupported wire type ${wireType}`);
    }
    if (this.pos > this.end) truncated();
  }

  private checked(v: number): number {
    if (this.pos > this.end) truncated();
    return v;
  }
}

function combine(lo: number, hi: number): number {
  if ((hi & 0x80000000) === 0) return (hi >>> 0) * TWO_32 + (lo >>> 0);
  return -((~hi >>> 0) * TWO_32 + (~lo >>> 0) + 1);
}

const decoder = new TextDecoder('utf-8');

/** Short ASCII strings (most keys and names) skip the TextDecoder round trip. */
function utf8Slice(buf: Uint8Array, start: number, end: number): string {
  if (end - start < 24) {
    let s = '';
    for (let i = start; i < end; i++) {
      const c = buf[i]!;
      if (c >= 0x80) return decoder.decode(buf.subarray(start, end));
      s += String.fromCharCode(c);
    }
    return s;
  }
  return decoder.decode(buf.subarray(start, end));
}

export class Writer {
  buf: Buffer;
  pos = 0;

  constructor(initialSize = 512) {
    this.buf = Buffer.allocUnsafe(initialSize);
  }

  ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  tag(fieldNumber: number, wireType: WireType): void {
    this.uint32((fieldNumber << 3) | wireType);
  }

  uint32(v: number): void {
    this.ensure(5);
    const buf = this.buf;
    v >>>= 0;
    while (v > 0x7f) {
      buf[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[this.pos++] = v;
  }

  /** int32 and int64 share the encoding: negatives take ten bytes. */
  int64(v: number): void {
    if (v >= 0 && v <= 0xffffffff) {
      this.uint32(v);
      return;
    }
    let lo: number;
    let hi: number;
    const abs = Math.abs(v);
    lo = abs % TWO_32 >>> 0;
    hi = Math.floor(abs / TWO_32) >>> 0;
    if (v < 0) {
      lo = (~lo + 1) >>> 0;
      hi = (~hi + (lo === 0 ? 1 : 0)) >>> 0;
    }
    this.ensure(10);
    const buf = this.buf;
    while (hi !== 0 || lo > 0x7f) {
      buf[this.pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    buf[this.pos++] = lo;
  }

  bool(v: boolean): void {
    this.ensure(1);
    this.buf[this.pos++] = v ? 1 : 0;
  }

  bytes(v: Uint8Array): void {
    this.uint32(v.length);
    this.raw(v);
  }

  string(s: string): void {
    const start = this.fork();
    const n = s.length;
    this.ensure(n * 3);
    const buf = this.buf;
    let p = this.pos;
    let ascii = true;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        ascii = false;
        break;
      }
      buf[p++] = c;
    }
    this.pos = ascii ? p : this.pos + buf.write(s, this.pos, 'utf8');
    this.ldelim(start);
  }

  /** Reserves one byte for a length prefix; ldelim fills it in. */
  fork(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Writes the length of everything since fork, widening the prefix if it needs more than a byte. */
  ldelim(start: number): void {
    const len = this.pos - start - 1;
    if (len < 0x80) {
      this.buf[start] = len;
      return;
    }
    const width = varintSize(len);
    this.ensure(width - 1);
    this.buf.copyWithin(start + width, start + 1, this.pos);
    this.pos += width - 1;
    let v = len;
    let p = start;
    while (v > 0x7f) {
      this.buf[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[p] = v;
  }

  finish(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    return out;
  }
}

function varintSize(v: number): number {
  let size = 1;
  while (v > 0x7f) {
    v >>>= 7;
    size++;
  }
  return size;
}
