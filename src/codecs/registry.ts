// Which codecs the server speaks, by media type, in the server's preference order
// (JSON first: what `*/*` and a missing Content-Type mean). Negotiation
// (endpoints/negotiation.ts) asks this registry; nothing else maps media types.
import type { Codec } from './codec.js';
import { jsonLinesFramer, lengthDelimitedFramer, type WatchFramer } from './framing.js';
import { JSON_MEDIA_TYPE, jsonCodec, prettyJsonCodec } from './json.js';
import { hasProtobufMessage, protobufCodec } from './protobuf.js';
import { YAML_MEDIA_TYPE, yamlCodec } from './yaml.js';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** Protobuf speaks only the kinds it has messages for (built-ins, not custom resources). */
export interface ProtobufSupport {
  readonly codec: Codec;
  readonly hasMessage: (apiVersion: string, kind: string) => boolean;
}

export interface CodecRegistry {
  /** Media types accepted in request bodies (the 415 message lists them). */
  readonly mediaTypes: readonly string[];
  readonly json: Codec;
  readonly prettyJson: Codec;
  /** The codec for an exact media type (lower-case, no parameters). */
  forMediaType(mediaType: string): Codec | undefined;
  /** Whether `codec` can write objects of this kind (protobuf: only kinds with a message). */
  canEncode(codec: Codec, type: { apiVersion: string; kind: string }): boolean;
  /**
   * How a watch stream in `codec` is framed; undefined for a codec with no stream
   * form (YAML, as kube's YAML serializer has no StreamSerializer).
   */
  framerFor(codec: Codec): WatchFramer | undefined;
  /** What a watch may be answered in (kube's 406 for a watch lists these). */
  readonly streamMediaTypes: readonly string[];
}

export function createCodecRegistry(opts: { protobuf?: ProtobufSupport } = {}): CodecRegistry {
  const byType = new Map<string, Codec>([
    [JSON_MEDIA_TYPE, jsonCodec],
    [YAML_MEDIA_TYPE, yamlCodec],
  ]);
  const protobuf = opts.protobuf;
  if (protobuf !== undefined) byType.set(PROTOBUF_MEDIA_TYPE, protobuf.codec);
  // One framer per codec for the life of the registry: shared frames are keyed by it.
  const jsonLines = jsonLinesFramer(jsonCodec);
  // ?pretty does not indent watch events: kube's stream serializer is never the pretty one.
  const framers = new Map<Codec, WatchFramer>([
    [jsonCodec, jsonLines],
    [prettyJsonCodec, jsonLines],
  ]);
  if (protobuf !== undefined) framers.set(protobuf.codec, lengthDelimitedFramer(protobuf.codec));
  return {
    mediaTypes: [...byType.keys()],
    streamMediaTypes: [...new Set([...framers.values()].map((f) => `${f.codec.mediaType};stream=watch`))],
    framerFor: (codec) => framers.get(codec),
    json: jsonCodec,
    prettyJson: prettyJsonCodec,
    forMediaType: (mediaType) => byType.get(mediaType),
    canEncode: (codec, type) => protobuf === undefined || codec !== protobuf.codec || protobuf.hasMessage(type.apiVersion, type.kind),
  };
}

/** The server's codecs: JSON, YAML and protobuf for the kinds it has messages for. */
export const defaultCodecs: CodecRegistry = createCodecRegistry({ protobuf: { codec: protobufCodec, hasMessage: hasProtobufMessage } });
