// The Kubernetes protobuf codec (application/vnd.kubernetes.protobuf). kubectl 1.32+
// sends request bodies in it for every typed command (create configmap|secret|…,
// create token, auth can-i, auth whoami) and does not retry a 415 as JSON, so
// the endpoint layer decodes them here into the same JSON-shaped objects the JSON
// codec yields. On the wire: the magic `k8s\0`, then a runtime.Unknown
// {1: typeMeta{apiVersion, kind}, 2: raw, 3: contentEncoding, 4: contentType}
// whose raw is the kind's message from k8s.io/api (proto2). Messages come from
// src/generated/proto, loaded per package on first use.
import type { Codec, DecodeOptions } from './codec.js';
import { badRequest, internal, isStatusError, notAcceptable, StatusError } from '../errors/status-error.js';
import { checkDepth } from './depth.js';
import { messageForKind } from './protobuf/descriptors.js';
import { decoderFor } from './protobuf/decode.js';
import { encoderFor } from './protobuf/encode.js';
import { LENGTH_DELIMITED, Reader, Writer } from './protobuf/wire.js';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** `k8s\0`: what apimachinery's protobuf serializer puts before every envelope. */
export const PROTOBUF_MAGIC: Readonly<Uint8Array> = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** Whether apiVersion/kind has a message: negotiation offers protobuf only then (never for CRDs). */
export function hasProtobufMessage(apiVersion: string, kind: string): boolean {
  return messageForKind(apiVersion, kind) !== undefined;
}

interface Envelope {
  readonly apiVersion: string;
  readonly kind: string;
  readonly rawStart: number;
  readonly rawEnd: number;
  readonly contentEncoding: string;
}

function readEnvelope(body: Buffer): Envelope {
  if (body.length < 4 || body[0] !== 0x6b || body[1] !== 0x38 || body[2] !== 0x73 || body[3] !== 0x00) {
    throw badRequest('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  }
  const r = new Reader(body, 4, body.length);
  let apiVersion = '';
  let kind = '';
  let rawStart = 0;
  let rawEnd = 0;
  let contentEncoding = '';
  while (r.pos < r.end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | LENGTH_DELIMITED)) {
      const end = r.delimitedEnd();
      while (r.pos < end) {
        const inner = r.uint32();
        if (inner === ((1 << 3) | LENGTH_DELIMITED)) apiVersion = r.string();
        else if (inner === ((2 << 3) | LENGTH_DELIMITED)) kind = r.string();
        else r.skip(inner & 7);
      }
      if (r.pos !== end) throw badRequest('unable to decode protobuf message: typeMeta overruns its field');
    } else if (tag === ((2 << 3) | LENGTH_DELIMITED)) {
      rawEnd = r.delimitedEnd();
      rawStart = r.pos;
      r.pos = rawEnd;
    } else if (tag === ((3 << 3) | LENGTH_DELIMITED)) {
      contentEncoding = r.string();
    } else {
      r.skip(tag & 7); // contentType: always the protobuf itself here
    }
  }
  return { apiVersion, kind, rawStart, rawEnd, contentEncoding };
}

function decode(body: Buffer, opts?: DecodeOptions): unknown {
  try {
    const envelope = readEnvelope(body);
    // An envelope without type information means "the kind the endpoint expects",
    // as apimachinery's serializer falls back to its default GVK.
    let { apiVersion, kind } = envelope;
    if (kind === '' && opts?.expected !== undefined) {
      const gvk = opts.expected;
      apiVersion = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
      kind = gvk.kind;
    }
    if (kind === '') throw badRequest('Object \'Kind\' is missing in protobuf envelope');
    if (envelope.contentEncoding !== '') {
      throw badRequest(`unsupported protobuf content encoding ${JSON.stringify(envelope.contentEncoding)}`);
    }
    const message = messageForKind(apiVersion, kind);
    if (message === undefined) throw badRequest(`no kind "${kind}" is registered for version "${apiVersion}"`);
    // kind and apiVersion first, as Go's TypeMeta puts them.
    const result: Record<string, unknown> = { kind, apiVersion };
    const decoded = decoderFor(message).decode(new Reader(body, envelope.rawStart, envelope.rawEnd), envelope.rawEnd, result);
    // Embedded raw JSON (RawExtension, FieldsV1) nests below the message's own depth.
    checkDepth(decoded, { prefix: 'unable to decode protobuf message: ' });
    return decoded;
  } catch (err) {
    if (isStatusError(err)) throw err;
    // Anything else (a RawExtension that is not JSON, recursion too deep) is still the body's fault.
    throw badRequest(`unable to decode protobuf message: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function typeOf(obj: unknown): { apiVersion: string; kind: string } {
  const o = obj as { apiVersion?: unknown; kind?: unknown } | null;
  if (typeof o !== 'object' || o === null || typeof o.apiVersion !== 'string' || typeof o.kind !== 'string') {
    throw internal(new Error('protobuf: object to encode has no apiVersion/kind'));
  }
  return { apiVersion: o.apiVersion, kind: o.kind };
}

function encode(obj: unknown): Buffer {
  const { apiVersion, kind } = typeOf(obj);
  const message = messageForKind(apiVersion, kind);
  if (message === undefined) {
    // Negotiation should have asked hasProtobufMessage first; this is its 406.
    throw notAcceptable(['application/json', 'application/yaml']);
  }
  try {
    const w = new Writer();
    writeEnvelopeStart(w, apiVersion, kind);
    const raw = w.fork();
    encoderFor(message).encode(w, obj);
    w.ldelim(raw);
    // contentEncoding and contentType: Go writes them even when empty.
    w.tag(3, LENGTH_DELIMITED);
    w.uint32(0);
    w.tag(4, LENGTH_DELIMITED);
    w.uint32(0);
    return w.finish();
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw internal(err);
  }
}

export const protobufCodec: Codec = { mediaType: PROTOBUF_MEDIA_TYPE, decode, encode };

/**
 * The `k8s\0` envelope up to its payload: the magic, runtime.Unknown's TypeMeta
 * (field 1: apiVersion, kind), then the tag of its raw field (2), whose length the
 * caller writes next.
 */
export function writeEnvelopeStart(w: Writer, apiVersion: string, kind: string): void {
  w.raw(PROTOBUF_MAGIC);
  w.tag(1, LENGTH_DELIMITED);
  const typeMeta = w.fork();
  w.tag(1, LENGTH_DELIMITED);
  w.string(apiVersion);
  w.tag(2, LENGTH_DELIMITED);
  w.string(kind);
  w.ldelim(typeMeta);
  w.tag(2, LENGTH_DELIMITED);
}
