// Hostile protobuf bodies end in a 400 (or decode harmlessly), never a 500 or a
// crash: truncated varints, huge length prefixes, unknown field numbers, groups,
// invalid UTF-8, map keys named like prototype members, and raw JSON nested past
// the depth bound inside a RawExtension.
import { describe, expect, test } from 'vitest';
import { MAX_DEPTH } from '../../src/codecs/depth.js';
import { protobufCodec } from '../../src/codecs/protobuf.js';
import { LENGTH_DELIMITED, VARINT, Writer } from '../../src/codecs/protobuf/wire.js';
import { isStatusError } from '../../src/errors/status-error.js';

const MAGIC = Buffer.from('6b387300', 'hex');

/** `k8s\0` + Unknown{typeMeta, raw}, built with the wire writer from a raw-body callback. */
function body(opts: { apiVersion: string; kind: string; raw: (w: Writer) => void }): Buffer {
  const w = new Writer();
  w.raw(MAGIC);
  w.tag(1, LENGTH_DELIMITED);
  const tm = w.fork();
  w.tag(1, LENGTH_DELIMITED);
  w.string(opts.apiVersion);
  w.tag(2, LENGTH_DELIMITED);
  w.string(opts.kind);
  w.ldelim(tm);
  w.tag(2, LENGTH_DELIMITED);
  const raw = w.fork();
  opts.raw(w);
  w.ldelim(raw);
  return w.finish();
}

const configMap = (raw: (w: Writer) => void): Buffer => body({ apiVersion: 'v1', kind: 'ConfigMap', raw });

function outcome(bytes: Buffer): unknown {
  try {
    return { ok: protobufCodec.decode(bytes) };
  } catch (err) {
    return isStatusError(err) ? { code: err.code, message: err.message } : { crash: String(err) };
  }
}

describe('hostile protobuf', () => {
  const cases: { name: string; input: Buffer; want: unknown }[] = [
    { name: 'truncated varint', input: Buffer.concat([MAGIC, Buffer.from([0x0a, 0xff])]), want: { code: 400 } },
    { name: 'huge length prefix', input: Buffer.concat([MAGIC, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f])]), want: { code: 400, message: 'unable to decode protobuf message: unexpected end of data' } },
    { name: 'varint longer than ten bytes', input: Buffer.concat([MAGIC, Buffer.from([0x08, ...Array<number>(11).fill(0xff), 0x01])]), want: { code: 400 } },
    { name: 'group wire type', input: configMap((w) => w.uint32((7 << 3) | 3)), want: { code: 400, message: 'unable to decode protobuf message: unsupported wire type 3' } },
    {
      name: 'unknown field numbers are skipped',
      input: configMap((w) => {
        w.tag(99, VARINT);
        w.uint32(7);
        w.tag(100, LENGTH_DELIMITED);
        w.string('x');
      }),
      want: { ok: { kind: 'ConfigMap', apiVersion: 'v1' } },
    },
    {
      name: 'invalid UTF-8 becomes U+FFFD, as Go writes it to JSON',
      input: configMap((w) => {
        w.tag(1, LENGTH_DELIMITED);
        const meta = w.fork();
        w.tag(1, LENGTH_DELIMITED);
        w.bytes(Buffer.from([0xff, 0xfe, 0x61]));
        w.ldelim(meta);
      }),
      want: { ok: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: '\ufffd\ufffda' } } },
    },
    {
      name: 'a map entry overrunning its field',
      input: configMap((w) => {
        w.tag(2, LENGTH_DELIMITED);
        w.raw(Uint8Array.of(3, 0x0a, 0x05, 0x61));
      }),
      want: { code: 400 },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(outcome(c.input)).toMatchObject(c.want as object);
    });
  }

  test('map keys named like prototype members are data', () => {
    const bytes = configMap((w) => {
      for (const key of ['__proto__', 'constructor', 'toString']) {
        w.tag(2, LENGTH_DELIMITED);
        const entry = w.fork();
        w.tag(1, LENGTH_DELIMITED);
        w.string(key);
        w.tag(2, LENGTH_DELIMITED);
        w.string(`v-${key}`);
        w.ldelim(entry);
      }
    });
    const got = protobufCodec.decode(bytes) as { data: object };
    expect(JSON.stringify(got.data)).toBe('{"__proto__":"v-__proto__","constructor":"v-constructor","toString":"v-toString"}');
    expect(Object.getPrototypeOf(got.data)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  test('raw JSON in a RawExtension nested past the bound is 400', () => {
    const deep = `${'['.repeat(MAX_DEPTH + 1)}${']'.repeat(MAX_DEPTH + 1)}`;
    // ControllerRevision: 2 = data (RawExtension), whose field 1 is the raw bytes.
    const bytes = body({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      raw: (w) => {
        w.tag(2, LENGTH_DELIMITED);
        const ext = w.fork();
        w.tag(1, LENGTH_DELIMITED);
        w.bytes(Buffer.from(deep));
        w.ldelim(ext);
      },
    });
    expect(outcome(bytes)).toEqual({ code: 400, message: "unable to decode protobuf message: invalid character '[' exceeded max depth" });
  });
});
