// Test helper: compares two protobuf encodings of one message field by field, the
// way a Go client would read them. Go's marshallers write every non-pointer field
// even when zero (""/0/false, an empty metav1.Time, an empty embedded struct); kapi
// writes only what the object holds. Those zeros are ignored, everything else —
// field numbers, wire order, map order, nested bytes — must match exactly.
import { isScalarType, messageDescriptor, messageForKind } from '../../src/codecs/protobuf/descriptors.js';
import { keepsZero } from '../../src/codecs/protobuf/zero-values.js';
import { Reader } from '../../src/codecs/protobuf/wire.js';

type Canonical = { no: number; value: string | Canonical }[];

const TIME_TYPES = new Set(['k8s.io.apimachinery.pkg.apis.meta.v1.Time', 'k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime']);

function canonical(r: Reader, end: number, type: string, inMapEntry: boolean): Canonical {
  const descriptor = messageDescriptor(type);
  const out: Canonical = [];
  while (r.pos < end) {
    const tag = r.uint32();
    const no = tag >>> 3;
    const field = descriptor?.fields.find((f) => f.number === no);
    const start = r.pos;
    if (field === undefined || isScalarType(field.type) || (tag & 7) !== 2) {
      r.skip(tag & 7);
      const bytes = Buffer.from(r.buf.subarray(start, r.pos));
      const zero = bytes.length === 1 && bytes[0] === 0;
      const droppable = !inMapEntry && field?.label === 'o' && !field.required && !keepsZero(type.slice(type.lastIndexOf('.') + 1), field.name);
      if (!(zero && droppable)) out.push({ no, value: bytes.toString('hex') });
      continue;
    }
    const fieldEnd = r.delimitedEnd();
    const children = field.label === 'm' ? mapEntry(r, fieldEnd, field.type) : canonical(r, fieldEnd, field.type, false);
    const emptyZero = children.length === 0 && (TIME_TYPES.has(field.type) || field.label === 'i');
    if (!emptyZero) out.push({ no, value: children });
  }
  return out;
}

function mapEntry(r: Reader, end: number, valueType: string): Canonical {
  const out: Canonical = [];
  while (r.pos < end) {
    const tag = r.uint32();
    const start = r.pos;
    if ((tag >>> 3) === 2 && !isScalarType(valueType)) {
      const fieldEnd = r.delimitedEnd();
      out.push({ no: 2, value: canonical(r, fieldEnd, valueType, true) });
    } else {
      r.skip(tag & 7);
      out.push({ no: tag >>> 3, value: Buffer.from(r.buf.subarray(start, r.pos)).toString('hex') });
    }
  }
  return out;
}

function envelopeOf(bytes: Buffer): { message: string; raw: Reader; end: number } {
  const r = new Reader(bytes, 4, bytes.length);
  let apiVersion = '';
  let kind = '';
  let raw: { start: number; end: number } = { start: 0, end: 0 };
  while (r.pos < r.end) {
    const tag = r.uint32();
    if (tag === 0x0a) {
      const end = r.delimitedEnd();
      while (r.pos < end) {
        const t = r.uint32();
        if (t === 0x0a) apiVersion = r.string();
        else kind = r.string();
      }
    } else if (tag === 0x12) {
      const end = r.delimitedEnd();
      raw = { start: r.pos, end };
      r.pos = end;
    } else r.skip(tag & 7);
  }
  const message = messageForKind(apiVersion, kind);
  if (message === undefined) throw new Error(`no message for ${apiVersion}/${kind}`);
  return { message, raw: new Reader(bytes, raw.start, raw.end), end: raw.end };
}

/** Paths where `ours` and `theirs` disagree beyond Go's written-out zero values; [] when equivalent. */
export function wireDifferences(ours: Buffer, theirs: Buffer): string[] {
  if (!ours.subarray(0, 4).equals(theirs.subarray(0, 4))) return ['magic'];
  const a = envelopeOf(ours);
  const b = envelopeOf(theirs);
  if (a.message !== b.message) return [`message ${a.message} != ${b.message}`];
  const diffs: string[] = [];
  compare(canonical(a.raw, a.end, a.message, false), canonical(b.raw, b.end, b.message, false), a.message, diffs);
  return diffs;
}

function compare(a: Canonical, b: Canonical, path: string, diffs: string[]): void {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    const here = `${path}[${i}]#${x?.no ?? y?.no}`;
    if (x === undefined || y === undefined || x.no !== y.no) {
      diffs.push(`${here}: ours ${JSON.stringify(x)} theirs ${JSON.stringify(y)}`);
      return;
    }
    if (typeof x.value === 'string' || typeof y.value === 'string') {
      if (x.value !== y.value) diffs.push(`${here}: ours ${JSON.stringify(x.value)} theirs ${JSON.stringify(y.value)}`);
    } else compare(x.value, y.value, here, diffs);
  }
}
