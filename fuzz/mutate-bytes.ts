// Mutators of the encoded body: bytes of any format, YAML text (anchors, aliases,
// tags, YAML 1.1 scalars), and the protobuf wire (lengths, varints, wire types,
// truncation). They run after encoding, so they reach the server's decoders as
// bytes no encoder would write.
import type { Rng } from './rng.js';

type BytesMutator = (body: Buffer, rng: Rng) => Buffer;

const TOKENS: readonly string[] = ['{', '}', '[', ']', '"', ',', ':', '\\', '\\u', '\\ud800', '\u0000', 'null', '1e999', '-', '0x10', 'NaN', 'Infinity', '/*', '\ufeff', '{"__proto__":{"a":1}}', '"__proto__"', '"constructor"'];
const BYTES: readonly number[] = [0x00, 0x01, 0x7f, 0x80, 0xff, 0xc0, 0xc3, 0xed, 0xf4, 0x0a, 0x0d, 0x09, 0x22, 0x5c];

function splice(body: Buffer, at: number, remove: number, insert: Buffer): Buffer {
  return Buffer.concat([body.subarray(0, at), insert, body.subarray(Math.min(body.length, at + remove))]);
}

export const BYTE_MUTATORS: Readonly<Record<string, BytesMutator>> = {
  'flip-bit'(b, rng) {
    if (b.length === 0) return b;
    const out = Buffer.from(b);
    const i = rng.int(out.length);
    out[i] = out[i]! ^ (1 << rng.int(8));
    return out;
  },
  'set-byte'(b, rng) {
    if (b.length === 0) return Buffer.from([rng.pick(BYTES)]);
    const out = Buffer.from(b);
    out[rng.int(out.length)] = rng.chance(0.5) ? rng.pick(BYTES) : rng.int(256);
    return out;
  },
  'insert-token'(b, rng) {
    return splice(b, rng.int(b.length + 1), 0, Buffer.from(rng.pick(TOKENS), 'utf8'));
  },
  'invalid-utf8'(b, rng) {
    return splice(b, rng.int(b.length + 1), 0, Buffer.from(rng.pick([[0xc3, 0x28], [0xed, 0xa0, 0x80], [0xff], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]])));
  },
  'delete-range'(b, rng) {
    if (b.length === 0) return b;
    const at = rng.int(b.length);
    return splice(b, at, 1 + rng.int(Math.min(64, b.length - at)), Buffer.alloc(0));
  },
  'duplicate-range'(b, rng) {
    if (b.length === 0) return b;
    const at = rng.int(b.length);
    const len = 1 + rng.int(Math.min(128, b.length - at));
    return splice(b, rng.int(b.length + 1), 0, Buffer.from(b.subarray(at, at + len)));
  },
  truncate(b, rng) {
    return b.subarray(0, rng.int(b.length + 1));
  },
  'append-garbage'(b, rng) {
    return Buffer.concat([b, Buffer.from(rng.pick(['}', ']', '\n---\n', ' trailing', '\u0000', '{}', 'x'.repeat(1000)]))]);
  },
  bom(b) {
    return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]);
  },
  empty() {
    return Buffer.alloc(0);
  },
};

const YAML_SCALARS: readonly string[] = [
  'yes', 'no', 'on', 'off', 'y', 'n', 'Yes', 'NO', 'True', '~', 'null', 'Null', '0o17', '017', '0x1F', '0b101', '1_000', '1:20', '12:30:45', '+12', '1e3', '.5',
  '.inf', '-.Inf', '.nan', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '!!binary aGVsbG8=', '!!timestamp 2001-12-14', '!!int "12"', '!!str 12', '!!float 1',
  '!!bool yes', '!!set {a, b}', '!!omap [a: 1]', '!!pairs [a: 1]', '!!python/object:os.system {}', '!custom x', '!<tag:yaml.org,2002:str> x', '*undefined',
  '"\\u0000"', '"\\ud800"', "'single'", '|\n  block', '>-\n  folded', '[]', '{}', '[a, [b, [c]]]', '{a: {b: {c: d}}}', '? complex\n: key', '"\\x00"', '!!null', '&fz',
];

function lines(b: Buffer): string[] {
  return b.toString('utf8').split('\n');
}
const join = (l: string[]): Buffer => Buffer.from(l.join('\n'), 'utf8');
const KEY_LINE = /^(\s*)(-\s+)?([^\s:#][^:#]*):(\s+.*)?$/;

export const YAML_MUTATORS: Readonly<Record<string, BytesMutator>> = {
  'yaml-scalar'(b, rng) {
    const l = lines(b);
    const idx = l.map((s, i) => (KEY_LINE.test(s) && /:\s+\S/.test(s) ? i : -1)).filter((i) => i >= 0);
    if (idx.length === 0) return b;
    const i = rng.pick(idx);
    l[i] = l[i]!.replace(/:\s+.*$/, `: ${rng.pick(YAML_SCALARS).replace(/\n/g, '\n' + (KEY_LINE.exec(l[i]!)?.[1] ?? '') + '  ')}`);
    return join(l);
  },
  'yaml-alias'(b, rng) {
    const l = lines(b);
    const idx = l.map((s, i) => (KEY_LINE.test(s) ? i : -1)).filter((i) => i >= 0);
    if (idx.length < 2) return b;
    const a = rng.pick(idx);
    const c = rng.pick(idx);
    l[a] = l[a]!.replace(/:(\s|$)/, ': &fz$1');
    l[c] = l[c]!.replace(/:(\s.*)?$/, rng.chance(0.5) ? ': *fz' : ': [*fz, *fz, *fz]');
    return join(l);
  },
  'yaml-merge-key'(b, rng) {
    const l = lines(b);
    const idx = l.map((s, i) => (KEY_LINE.test(s) ? i : -1)).filter((i) => i >= 0);
    if (idx.length === 0) return b;
    const i = rng.pick(idx);
    const indent = KEY_LINE.exec(l[i]!)![1]!;
    l.splice(i, 0, indent + rng.pick(['<<: {a: "1"}', '<<: *nope', '<<: [{a: b}, {c: d}]', '<<: 5', '<<: {__proto__: {polluted: 1}}']));
    return join(l);
  },
  'yaml-laughs'(b, rng) {
    const levels = rng.pick([3, 5, 9]);
    const width = rng.pick([5, 9]);
    const l = ['fz0: &l0 ["lol"]'];
    for (let i = 1; i < levels; i++) l.push(`fz${i}: &l${i} [${Array<string>(width).fill(`*l${i - 1}`).join(',')}]`);
    return Buffer.concat([Buffer.from(l.join('\n') + '\n'), b]);
  },
  'yaml-directive'(b, rng) {
    return Buffer.concat([Buffer.from(rng.pick(['%YAML 1.1\n---\n', '%YAML 9.9\n---\n', '%TAG ! tag:x,2000:\n---\n', '---\n', '--- !!map\n', '...\n', '--- |\n'])), b]);
  },
  'yaml-indent'(b, rng) {
    const l = lines(b);
    if (l.length === 0) return b;
    const i = rng.int(l.length);
    l[i] = rng.pick(['\t', ' ', '   ', '']) + l[i]!.trimStart();
    return join(l);
  },
  'yaml-duplicate-line'(b, rng) {
    const l = lines(b);
    if (l.length === 0) return b;
    const i = rng.int(l.length);
    l.splice(i, 0, l[i]!);
    return join(l);
  },
};

/** Length-delimited fields found by a best-effort walk of the protobuf wire. */
interface PbField {
  readonly tagStart: number;
  readonly lenStart: number;
  readonly valueStart: number;
  readonly end: number;
}

function varint(b: Buffer, pos: number): { value: number; next: number } | undefined {
  let value = 0;
  let shift = 0;
  for (let i = pos; i < b.length && i < pos + 10; i++) {
    value += (b[i]! & 0x7f) * 2 ** shift;
    shift += 7;
    if ((b[i]! & 0x80) === 0) return { value, next: i + 1 };
  }
  return undefined;
}

function walk(b: Buffer, start: number, end: number, depth: number, out: PbField[]): boolean {
  let pos = start;
  while (pos < end) {
    const tag = varint(b, pos);
    if (tag === undefined || tag.value >>> 3 === 0) return false;
    const wire = tag.value & 7;
    if (wire === 0) { const v = varint(b, tag.next); if (v === undefined) return false; pos = v.next; }
    else if (wire === 1) pos = tag.next + 8;
    else if (wire === 5) pos = tag.next + 4;
    else if (wire === 2) {
      const len = varint(b, tag.next);
      if (len === undefined || len.next + len.value > end) return false;
      const field = { tagStart: pos, lenStart: tag.next, valueStart: len.next, end: len.next + len.value };
      out.push(field);
      // Sub-messages are tried as messages; strings that happen to parse add harmless candidates.
      if (depth < 12 && len.value > 0) {
        const mark = out.length;
        if (!walk(b, field.valueStart, field.end, depth + 1, out)) out.length = mark;
      }
      pos = field.end;
    } else return false;
    if (pos > end) return false;
  }
  return true;
}

function pbFields(b: Buffer): PbField[] {
  const out: PbField[] = [];
  walk(b, 4, b.length, 0, out);
  return out;
}

function encodeVarint(n: number): Buffer {
  const bytes: number[] = [];
  let v = n;
  while (v >= 0x80) { bytes.push((v % 0x80) | 0x80); v = Math.floor(v / 0x80); }
  bytes.push(v);
  return Buffer.from(bytes);
}

export const PROTOBUF_MUTATORS: Readonly<Record<string, BytesMutator>> = {
  'pb-length'(b, rng) {
    const f = pbFields(b);
    if (f.length === 0) return b;
    const field = rng.pick(f);
    const len = field.end - field.valueStart;
    const next = rng.pick([0, len + 1, Math.max(0, len - 1), len * 2, 0x7fffffff, 2 ** 32 + len]);
    return splice(b, field.lenStart, field.valueStart - field.lenStart, encodeVarint(next));
  },
  'pb-overlong-varint'(b, rng) {
    const f = pbFields(b);
    if (f.length === 0) return splice(b, 4, 0, Buffer.from([0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]));
    const field = rng.pick(f);
    return splice(b, field.lenStart, field.valueStart - field.lenStart, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]));
  },
  'pb-wire-type'(b, rng) {
    const f = pbFields(b);
    if (f.length === 0) return b;
    const field = rng.pick(f);
    const out = Buffer.from(b);
    out[field.tagStart] = (out[field.tagStart]! & 0xf8) | rng.pick([0, 1, 3, 4, 5, 6, 7]);
    return out;
  },
  'pb-truncate'(b, rng) {
    const f = pbFields(b);
    if (f.length === 0) return b.subarray(0, rng.int(b.length + 1));
    const field = rng.pick(f);
    return b.subarray(0, field.valueStart + rng.int(field.end - field.valueStart + 1));
  },
  'pb-unknown-field'(b, rng) {
    const f = pbFields(b);
    const at = f.length === 0 ? b.length : rng.pick(f).valueStart;
    const payload = rng.pick([[0x08, 0x01], [0x7a, 0x02, 0x68, 0x69], [0x9a, 0x3f, 0x00], [0x0b, 0x0c], [0x0d, 0x00, 0x00, 0x80, 0x7f], [0x13], [0x14]]);
    return splice(b, at, 0, Buffer.from(payload));
  },
  'pb-duplicate-field'(b, rng) {
    const f = pbFields(b);
    if (f.length === 0) return b;
    const field = rng.pick(f);
    return splice(b, field.end, 0, Buffer.from(b.subarray(field.tagStart, field.end)));
  },
  'pb-string-garbage'(b, rng) {
    const f = pbFields(b).filter((x) => x.end > x.valueStart);
    if (f.length === 0) return b;
    const field = rng.pick(f);
    const out = Buffer.from(b);
    out[field.valueStart + rng.int(field.end - field.valueStart)] = rng.pick([0xff, 0xc3, 0x00, 0x80]);
    return out;
  },
  'pb-magic'(b, rng) {
    const out = Buffer.from(b);
    if (out.length > 0) out[rng.int(Math.min(4, out.length))] ^= 0x20;
    return out;
  },
};
