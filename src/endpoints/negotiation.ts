// Content negotiation for resource endpoints: which codec reads the request body
// (Content-Type) and which writes the answer (Accept, ?pretty). Mirrors apiserver's
// handlers/negotiation: q-values, wildcards, and `as=`/`g=`/`v=` parameters that ask
// for a transformed kind. Of those we serve meta.k8s.io (v1 and v1beta1) Table in
// JSON or YAML — Table has no protobuf message — and PartialObjectMetadata /
// PartialObjectMetadataList (the metadata-only forms client-go's metadata client,
// informers and garbage collector ask for) in any codec that can write them, as
// kube's AllowsMediaTypeTransform does; other `as=` entries are skipped, so a
// plain entry later in the list wins. Error bodies use encodeStatusFor.
import type { FastifyRequest } from 'fastify';
import type { Codec } from '../codecs/codec.js';
import { PROTOBUF_MEDIA_TYPE, defaultCodecs, type CodecRegistry } from '../codecs/registry.js';
import type { WatchFramer } from '../codecs/framing.js';
import { encodeShared } from '../codecs/shared-encoding.js';
import { notAcceptable, unsupportedMediaType, type StatusBody } from '../errors/status-error.js';
import type { TableVersion } from '../registry/table.js';
import { asPartialMetadata, isUntransformable, type PartialTarget } from './partial-metadata.js';
import type { KubeList, KubeObject } from '../schema/object.js';

export interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly params: Readonly<Record<string, string>>;
  readonly q: number;
}

/**
 * Clients send the same few Accept headers on every request (kubectl, client-go,
 * informers), and a request negotiates up to three times (before the work, for a
 * Table, for the answer): parsed ranges are kept per header text. Bounded: a
 * client that varies its header only refills the map.
 */
const parsedAccepts = new Map<string, readonly MediaRange[]>();
const PARSED_ACCEPTS_MAX = 256;

/** Parses an Accept header into ranges, best first (q, then specificity, then order). */
export function parseAccept(header: string): readonly MediaRange[] {
  let ranges = parsedAccepts.get(header);
  if (ranges === undefined) {
    if (parsedAccepts.size >= PARSED_ACCEPTS_MAX) parsedAccepts.clear();
    ranges = Object.freeze(parseAcceptUncached(header));
    parsedAccepts.set(header, ranges);
  }
  return ranges;
}

function parseAcceptUncached(header: string): MediaRange[] {
  const ranges: { range: MediaRange; order: number }[] = [];
  header.split(',').forEach((part, order) => {
    const [full = '', ...rawParams] = part.split(';').map((s) => s.trim());
    const slash = full.indexOf('/');
    if (slash <= 0) return;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      if (eq <= 0) continue;
      const key = p.slice(0, eq).trim().toLowerCase();
      const value = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
      if (key === 'q') q = Number.isFinite(Number(value)) ? Number(value) : 0;
      else params[key] = value;
    }
    ranges.push({ range: { type: full.slice(0, slash).toLowerCase(), subtype: full.slice(slash + 1).toLowerCase(), params, q }, order });
  });
  const specificity = (r: MediaRange): number => (r.type === '*' ? 0 : r.subtype === '*' ? 1 : 2);
  return ranges
    .filter(({ range }) => range.q > 0)
    .sort((a, b) => b.range.q - a.range.q || specificity(b.range) - specificity(a.range) || a.order - b.order)
    .map(({ range }) => range);
}

/** Go's strconv.ParseBool, which kube uses for ?pretty. */
function parseBool(value: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

export function isPretty(request: { readonly query: unknown; readonly headers: { readonly 'user-agent'?: string | undefined } }): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  const value = query !== undefined && Object.hasOwn(query, 'pretty') ? query.pretty : undefined;
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'string' && first !== '') return parseBool(first) === true;
  // kube's isPrettyPrint: without ?pretty, people's tools (browsers, curl, wget) get indented JSON.
  const header: unknown = request.headers['user-agent'];
  const userAgent = typeof header === 'string' ? header : '';
  return userAgent.startsWith('curl') || userAgent.startsWith('Wget') || userAgent.startsWith('Mozilla/5.0');
}

export interface OutputNegotiation {
  readonly accept: string | undefined;
  readonly pretty?: boolean;
  readonly codecs?: CodecRegistry;
  /** The kind about to be written; protobuf is offered only for kinds it has a message for. */
  readonly type?: { readonly apiVersion: string; readonly kind: string };
}

function pick(codecs: CodecRegistry, codec: Codec, pretty: boolean): Codec {
  return pretty && codec === codecs.json ? codecs.prettyJson : codec;
}

export interface NegotiatedOutput {
  readonly codec: Codec;
  /** Set when the chosen Accept entry asks for a meta.k8s.io Table of this version. */
  readonly table?: TableVersion;
  /** Set when the chosen Accept entry asks for the metadata-only form. */
  readonly partial?: PartialTarget;
}

/** The Table version an `as=Table;g=meta.k8s.io;v=…` entry asks for; undefined for other entries. */
function tableVersionOf(range: MediaRange): TableVersion | undefined {
  const { as, g, v } = range.params;
  if (as !== 'Table' || g !== 'meta.k8s.io') return undefined;
  return v === 'v1' || v === 'v1beta1' ? v : undefined;
}

/** The metadata-only form an `as=PartialObjectMetadata[List];g=meta.k8s.io;v=…` entry asks for; undefined for other entries. */
function partialTargetOf(range: MediaRange): PartialTarget | undefined {
  const { as, g, v } = range.params;
  if ((as !== 'PartialObjectMetadata' && as !== 'PartialObjectMetadataList') || g !== 'meta.k8s.io') return undefined;
  return v === 'v1' || v === 'v1beta1' ? { kind: as, version: v } : undefined;
}

/**
 * The response codec for an Accept header, and whether the client asked for a
 * Table; throws 406 NotAcceptable when no entry fits. Entries are tried in
 * preference order, so kubectl's "Table v1, Table v1beta1, JSON" picks Table v1.
 */
export function negotiateOutputTarget(opts: OutputNegotiation): NegotiatedOutput {
  const codecs = opts.codecs ?? defaultCodecs;
  const picked = pickOutput(opts, codecs, () => true);
  if (picked === undefined) throw notAcceptable(codecs.mediaTypes);
  return picked;
}

/**
 * The first Accept entry the server can answer; `allows` may refuse an entry for
 * its parameters (a watch refuses a `stream` it cannot serve), and then the next
 * one is tried, as kube's acceptMediaTypeOptions does.
 */
function pickOutput(opts: OutputNegotiation, codecs: CodecRegistry, allows: (range: MediaRange, codec: Codec) => boolean): NegotiatedOutput | undefined {
  const pretty = opts.pretty === true;
  const usable = (codec: Codec | undefined): codec is Codec =>
    codec !== undefined && (opts.type === undefined || codecs.canEncode(codec, opts.type));
  const header = opts.accept?.trim() ?? '';
  if (header === '') return { codec: pick(codecs, codecs.json, pretty) };
  for (const range of parseAccept(header)) {
    const rangePretty = pretty || range.params.pretty === '1';
    if (range.params.as !== undefined) {
      const codec = codecs.forMediaType(`${range.type}/${range.subtype}`);
      if (codec === undefined) continue;
      const partial = partialTargetOf(range);
      if (partial !== undefined) {
        // Protobuf only where a message exists (v1beta1 PartialObjectMetadata has none of its own here).
        if (!codecs.canEncode(codec, { apiVersion: `meta.k8s.io/${partial.version}`, kind: partial.kind }) || !allows(range, codec)) continue;
        return { codec: pick(codecs, codec, rangePretty), partial };
      }
      const table = tableVersionOf(range);
      // Table is written only as JSON or YAML (kubectl-wire §5).
      if (table === undefined || codec.mediaType === PROTOBUF_MEDIA_TYPE || !allows(range, codec)) continue;
      return { codec: pick(codecs, codec, rangePretty), table };
    }
    if (range.type === '*' || (range.subtype === '*' && range.type === 'application')) {
      if (!allows(range, codecs.json)) continue;
      return { codec: pick(codecs, codecs.json, pretty) };
    }
    const codec = codecs.forMediaType(`${range.type}/${range.subtype}`);
    if (usable(codec) && allows(range, codec)) return { codec: pick(codecs, codec, rangePretty) };
  }
  return undefined;
}

export interface NegotiatedWatch {
  readonly framer: WatchFramer;
  /** Set when the chosen Accept entry asks for a meta.k8s.io Table of this version. */
  readonly table?: TableVersion;
  /** Set when the chosen Accept entry asks for the metadata-only form of each event's object. */
  readonly partial?: PartialTarget;
}

/**
 * How a watch answers (kube's NegotiateOutputMediaTypeStream): the entry an
 * ordinary answer would use, where `stream=` is allowed only as `watch` and only
 * on a codec with a stream form. client-go sends its usual Accept on a watch
 * (its protobuf type, then any type, for a protobuf client), so a
 * plain protobuf entry means a protobuf stream. If the chosen codec has no stream
 * form (YAML) the answer is 406 listing the stream media types; like kube, a
 * later entry is not tried then.
 */
export function negotiateWatchOutput(opts: OutputNegotiation): NegotiatedWatch {
  const codecs = opts.codecs ?? defaultCodecs;
  const picked = pickOutput(opts, codecs, (range, codec) => {
    const stream = range.params.stream;
    return stream === undefined || stream === '' || (stream === 'watch' && codecs.framerFor(codec) !== undefined);
  });
  const framer = picked === undefined ? undefined : codecs.framerFor(picked.codec);
  if (picked === undefined || framer === undefined) throw notAcceptable(codecs.streamMediaTypes);
  return {
    framer,
    ...(picked.table === undefined ? {} : { table: picked.table }),
    ...(picked.partial === undefined ? {} : { partial: picked.partial }),
  };
}

/** The watch framing for this request's Accept on a resource of `type`; throws 406 when none fits. */
export function watchFramingFor(
  request: FastifyRequest,
  type: { apiVersion: string; kind: string },
  codecs?: CodecRegistry,
): NegotiatedWatch {
  return negotiateWatchOutput({ accept: header(request, 'accept'), ...(codecs === undefined ? {} : { codecs }), type });
}

/** The response codec for an Accept header; throws 406 NotAcceptable when none fits. */
export function negotiateOutput(opts: OutputNegotiation): Codec {
  return negotiateOutputTarget(opts).codec;
}

/** The request-body codec for a Content-Type; missing means JSON (as kube does); else 415. */
export function negotiateInput(opts: { contentType: string | undefined; codecs?: CodecRegistry; accepted?: readonly string[] }): Codec {
  const codecs = opts.codecs ?? defaultCodecs;
  const accepted = opts.accepted ?? codecs.mediaTypes;
  const raw = opts.contentType?.trim() ?? '';
  if (raw === '') return codecs.json;
  const mediaType = raw.split(';')[0]!.trim().toLowerCase();
  const codec = accepted.includes(mediaType) ? codecs.forMediaType(mediaType) : undefined;
  if (codec === undefined) throw unsupportedMediaType(raw, accepted);
  return codec;
}

export interface EncodedBody {
  readonly contentType: string;
  readonly body: Buffer;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** The Table version this request's Accept asks for on a resource of `type`, if any (get, list, watch). */
export function tableVersionFor(
  request: FastifyRequest,
  type: { apiVersion: string; kind: string },
  codecs?: CodecRegistry,
): TableVersion | undefined {
  return negotiateOutputTarget({
    accept: header(request, 'accept'),
    ...(codecs === undefined ? {} : { codecs }),
    type,
  }).table;
}

/**
 * What this request's Accept asks a get or list of `type` to answer: the object
 * itself, a Table, or a metadata-only form; throws 406 when no entry fits.
 */
export function outputTargetFor(
  request: FastifyRequest,
  type: { apiVersion: string; kind: string },
  codecs?: CodecRegistry,
): NegotiatedOutput {
  return negotiateOutputTarget({ accept: header(request, 'accept'), ...(codecs === undefined ? {} : { codecs }), type });
}

/** The codec (with ?pretty) and form this request's Accept picks for answering `obj`; throws 406 when nothing fits. */
export function answerTargetFor(request: FastifyRequest, obj: { apiVersion?: string; kind?: string }, codecs?: CodecRegistry): NegotiatedOutput {
  return negotiateOutputTarget({
    accept: header(request, 'accept'),
    pretty: isPretty(request),
    ...(codecs === undefined ? {} : { codecs }),
    type: { apiVersion: obj.apiVersion ?? '', kind: obj.kind ?? '' },
  });
}

/**
 * Encodes an object for this request's Accept; throws 406 when nothing fits. A
 * Table answers with the Accept entry's parameters in its Content-Type, as
 * kube-apiserver does (application/json;as=Table;v=v1;g=meta.k8s.io).
 */
export function encodeFor(request: FastifyRequest, obj: { apiVersion?: string; kind?: string }, codecs?: CodecRegistry): EncodedBody {
  const { codec, table, partial } = answerTargetFor(request, obj, codecs);
  const isTable = table !== undefined && obj.kind === 'Table' && obj.apiVersion === `meta.k8s.io/${table}`;
  const contentType = isTable ? `${codec.mediaType};as=Table;v=${table};g=meta.k8s.io` : codec.mediaType;
  // Writes and deletes answer their object in the metadata-only form too (get and list transform earlier).
  const shown = partial !== undefined && !isUntransformable(obj) && isObjectLike(obj) ? asPartialMetadata(obj, partial) : obj;
  return { contentType, body: encodeShared(codec, shown) };
}

function isObjectLike(obj: unknown): obj is KubeObject | KubeList {
  const metadata = (obj as { metadata?: unknown }).metadata;
  return typeof metadata === 'object' && metadata !== null;
}

/**
 * Renders a Status for the error handler in the negotiated codec. Never throws: an
 * Accept nothing satisfies (the 406 itself) falls back to JSON, as kube-apiserver does.
 */
export function encodeStatusFor(request: FastifyRequest, status: StatusBody, codecs: CodecRegistry = defaultCodecs): EncodedBody {
  try {
    return encodeFor(request, status, codecs);
  } catch {
    const codec = isPretty(request) ? codecs.prettyJson : codecs.json;
    return { contentType: codec.mediaType, body: codec.encode(status) };
  }
}

/** The error handler's hook (server/error-handler.ts RenderStatus) with the server's codecs. */
export const renderStatus = (request: FastifyRequest, status: StatusBody): EncodedBody => encodeStatusFor(request, status);
