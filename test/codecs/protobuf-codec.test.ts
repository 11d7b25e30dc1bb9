// The codec's contract beyond the golden files: which kinds have messages, how bad
// bodies fail (always a 400 Status, never a crash), the envelope fallbacks, and
// the JSON-shape rules (inline structs, kept and dropped zero values).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { hasProtobufMessage, PROTOBUF_MEDIA_TYPE, protobufCodec } from '../../src/codecs/protobuf.js';
import { isStatusError } from '../../src/errors/status-error.js';

const TESTDATA = join(import.meta.dirname, '..', 'testdata');
const MAGIC = '6b387300';

/** Builds `k8s\0` + Unknown{typeMeta{apiVersion, kind}, raw} by hand, independent of the encoder. */
function envelope(opts: { apiVersion: string; kind: string; rawHex: string; contentEncoding?: string }): Buffer {
  const str = (field: number, s: string): string => {
    const b = Buffer.from(s);
    return Buffer.from([(field << 3) | 2, b.length]).toString('hex') + b.toString('hex');
  };
  const typeMeta = str(1, opts.apiVersion) + str(2, opts.kind);
  const raw = Buffer.from(opts.rawHex, 'hex');
  let hex = MAGIC + `0a${(typeMeta.length / 2).toString(16).padStart(2, '0')}${typeMeta}`;
  hex += `12${raw.length.toString(16).padStart(2, '0')}${opts.rawHex}`;
  if (opts.contentEncoding !== undefined) hex += str(3, opts.contentEncoding);
  return Buffer.from(hex, 'hex');
}

function statusOf(fn: () => unknown): { code: number; message: string } | 'no error' | 'not a StatusError' {
  try {
    fn();
    return 'no error';
  } catch (err) {
    return isStatusError(err) ? { code: err.code, message: err.message } : 'not a StatusError';
  }
}

describe('hasProtobufMessage', () => {
  const cases: { name: string; apiVersion: string; kind: string; want: boolean }[] = [
    { name: 'core kind', apiVersion: 'v1', kind: 'ConfigMap', want: true },
    { name: 'core list', apiVersion: 'v1', kind: 'PodList', want: true },
    { name: 'named group', apiVersion: 'apps/v1', kind: 'Deployment', want: true },
    { name: 'status', apiVersion: 'v1', kind: 'Status', want: true },
    { name: 'delete options in a group', apiVersion: 'apps/v1', kind: 'DeleteOptions', want: true },
    { name: 'review kind', apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', want: true },
    { name: 'v1beta1 review (kubectl 1.27 whoami)', apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview', want: true },
    { name: 'rbac group name differs from package', apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', want: true },
    { name: 'flowcontrol', apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', want: true },
    { name: 'admission review', apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', want: true },
    { name: 'metadata-only list', apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList', want: true },
    { name: 'Table has no message', apiVersion: 'meta.k8s.io/v1', kind: 'Table', want: false },
    { name: 'custom resource', apiVersion: 'example.com/v1', kind: 'Widget', want: false },
    { name: 'kind in the wrong group', apiVersion: 'apps/v1', kind: 'ConfigMap', want: false },
    { name: 'prototype names are not kinds', apiVersion: 'v1', kind: 'constructor', want: false },
  ];
  for (const c of cases) test(c.name, () => expect(hasProtobufMessage(c.apiVersion, c.kind)).toBe(c.want));

  test('media type', () => expect(protobufCodec.mediaType).toBe(PROTOBUF_MEDIA_TYPE));
});

describe('decode rejects bad bodies with 400', () => {
  const cases: { name: string; body: Buffer; message: RegExp }[] = [
    { name: 'empty body', body: Buffer.alloc(0), message: /expected prefix \[107 56 115 0\]/ },
    { name: 'JSON body', body: Buffer.from('{"kind":"ConfigMap"}'), message: /expected prefix/ },
    { name: 'magic only', body: Buffer.from(MAGIC, 'hex'), message: /Kind.* is missing/ },
    { name: 'truncated envelope', body: Buffer.from(`${MAGIC}0a20`, 'hex'), message: /unexpected end of data/ },
    {
      name: 'unknown kind',
      body: envelope({ apiVersion: 'example.com/v1', kind: 'Widget', rawHex: '' }),
      message: /no kind "Widget" is registered for version "example.com\/v1"/,
    },
    {
      name: 'compressed raw',
      body: envelope({ apiVersion: 'v1', kind: 'ConfigMap', rawHex: '', contentEncoding: 'gzip' }),
      message: /content encoding "gzip"/,
    },
    {
      name: 'string field sent as varint',
      body: envelope({ apiVersion: 'v1', kind: 'ConfigMap', rawHex: '0a020801' }),
      message: /wire type 0/,
    },
    {
      name: 'nested message overruns its parent',
      body: envelope({ apiVersion: 'v1', kind: 'ConfigMap', rawHex: '0a030a0578' }),
      message: /unexpected end of data|overruns/,
    },
    {
      name: 'RawExtension that is not JSON',
      body: envelope({ apiVersion: 'apps/v1', kind: 'ControllerRevision', rawHex: '12030a017b' }),
      message: /unable to decode protobuf message/,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = statusOf(() => protobufCodec.decode(c.body));
      expect(got).toMatchObject({ code: 400 });
      expect((got as { message: string }).message).toMatch(c.message);
    });
  }

  test('every truncation and byte flip of every golden file decodes or is a 400', () => {
    // Deterministic xorshift so a failure reproduces.
    let seed = 0x2545f491;
    const next = (): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    const outcomes = new Set<string>();
    for (const file of readdirSync(TESTDATA).filter((f) => f.endsWith('.pb'))) {
      const golden = readFileSync(join(TESTDATA, file));
      const variants: Buffer[] = [];
      for (let len = 0; len < golden.length; len++) variants.push(golden.subarray(0, len));
      for (let i = 0; i < 200; i++) {
        const copy = Buffer.from(golden);
        copy[4 + (next() % (copy.length - 4))] = next() & 0xff;
        variants.push(copy);
      }
      for (const body of variants) {
        const got = statusOf(() => protobufCodec.decode(body));
        const outcome = typeof got === 'string' ? got : `status ${got.code}`;
        outcomes.add(outcome);
        expect(outcome, `${file} variant ${body.toString('hex')}`).toMatch(/^(no error|status 400)$/);
      }
    }
    expect(outcomes).toContain('status 400');
  });
});

describe('envelope', () => {
  test('an envelope without kind decodes as the kind the endpoint expects', () => {
    const body = envelope({ apiVersion: '', kind: '', rawHex: '0a030a0178' });
    const got = protobufCodec.decode(body, { expected: { group: '', version: 'v1', kind: 'ConfigMap' } });
    expect(got).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x' } });
  });

  test('Go writes empty contentEncoding and contentType; so do we', () => {
    const bytes = protobufCodec.encode({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'n' } });
    expect(bytes.subarray(-4).toString('hex')).toBe('1a002200');
  });
});

describe('JSON shape', () => {
  const cases: { name: string; obj: Record<string, unknown> }[] = [
    {
      name: 'Go-embedded structs stay inline (LocalObjectReference, VolumeSource, ProbeHandler)',
      obj: {
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: { name: 'p' },
        spec: {
          volumes: [{ name: 'v', secret: { secretName: 's' } }],
          containers: [
            {
              name: 'c',
              envFrom: [{ configMapRef: { name: 'cm' } }],
              startupProbe: { exec: { command: ['true'] } },
            },
          ],
        },
      },
    },
    {
      name: 'pointer zeros survive (replicas 0, optional false, gracePeriodSeconds 0)',
      obj: { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'd' }, spec: { replicas: 0 }, status: { replicas: 3 } },
    },
    {
      name: 'delete options keep explicit zeros',
      obj: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, orphanDependents: false, dryRun: ['All'] },
    },
    {
      name: 'annotation keys that look like prototype members are data',
      obj: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', annotations: JSON.parse('{"__proto__":"p","constructor":"c"}') } },
    },
    {
      name: 'quantities, int-or-string and maps of quantities',
      obj: {
        kind: 'ResourceQuota',
        apiVersion: 'v1',
        metadata: { name: 'q' },
        spec: { hard: { 'requests.cpu': '2', pods: '10', 'requests.memory': '1536Mi' } },
      },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const decoded = protobufCodec.decode(protobufCodec.encode(c.obj)) as Record<string, unknown>;
      expect(decoded).toEqual(c.obj);
      expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    });
  }

  test('zero scalars that Go writes for non-pointer fields are dropped', () => {
    // ObjectMeta{name:"x", generateName:"", generation:0}, ConfigMap.immutable absent.
    const body = envelope({ apiVersion: 'v1', kind: 'ConfigMap', rawHex: '0a070a0178120038 00'.replace(/ /g, '') });
    expect(protobufCodec.decode(body)).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x' } });
  });

  test('a JSON value of the wrong type is a 500, not bytes', () => {
    const got = statusOf(() => protobufCodec.encode({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 7 } }));
    expect(got).toMatchObject({ code: 500 });
  });

  test('a kind without a message is 406', () => {
    const got = statusOf(() => protobufCodec.encode({ kind: 'Widget', apiVersion: 'example.com/v1', metadata: {} }));
    expect(got).toMatchObject({ code: 406 });
  });
});
