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
import { defaultCodecs, type CodecRegistry } from '../codecs/registry.js';
import { YAML_MEDIA_TYPE } from '../codecs/yaml.js';
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

/** Parses an Accept header into ranges in the order kube tries them (see parseAcceptUncached). */
export function parseAccept(header: string): readonly MediaRange[] {
  let ranges = parsedAccepts.get(header);
  if (ranges === undefined) {
    if (parsedAccepts.size >= PARSED_ACCEPTS_MAX) parsedAccepts.clear();
    ranges = Object.freeze(parseAcceptUncached(header));
    parsedAccepts.set(header, ranges);
  }
  return ranges;
}

/** strings.Trim(s, " "): goautoneg trims spaces only. */
function trimSpaces(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) === 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) === 0x20) b--;
  return s.slice(a, b);
}

/** strconv.ParseFloat as goautoneg uses it: text it cannot read is q=0. */
function parseQ(value: string): number {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value)) return Number(value);
  const word = value.toLowerCase().replace(/^[+-]/, '');
  return word === 'inf' || word === 'infinity' ? (value.startsWith('-') ? -Infinity : Infinity) : 0;
}

/** goautoneg's ordering: higher q first, and a concrete type or subtype before a wildcard (whatever the q). */
function before(a: MediaRange, b: MediaRange): boolean {
  return a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subtype !== '*' && b.subtype === '*');
}

/**
 * kube's Accept parsing (goautoneg.ParseAccept): a bare `*` is the full wildcard, entries that
 * are not type/subtype are dropped, types and parameter names keep their case,
 * q=0 entries stay (kube only orders by q), and the order is Go's insertion sort
 * with goautoneg's comparison, so ties keep the client's order.
 */
function parseAcceptUncached(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [mediaRange = '', ...rawParams] = part.split(';');
    const sp = mediaRange.split('/');
    const type = trimSpaces(sp[0]!);
    let subtype: string;
    if (sp.length === 1 && type === '*') subtype = '*';
    else if (sp.length === 2) subtype = trimSpaces(sp[1]!);
    else continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const key = trimSpaces(p.slice(0, eq));
      if (key === 'q') q = parseQ(p.slice(eq + 1));
      else params[key] = trimSpaces(p.slice(eq + 1));
    }
    ranges.push({ type, subtype, params, q });
  }
  for (let i = 1; i < ranges.length; i++) {
    for (let j = i; j > 0 && before(ranges[j]!, ranges[j - 1]!); j--) [ranges[j - 1], ranges[j]] = [ranges[j]!, ranges[j - 1]!];
  }
  return ranges;
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

/**
 * What an entry's `as`/`g`/`v` ask for (kube's MediaTypeOptions.Convert): nothing
 * when none is given; a Table or metadata-only form of meta.k8s.io v1 or v1beta1;
 * anything else (a missing or wrong `as`, `g` or `v`) is a transform the server
 * cannot make, and the entry is skipped.
 */
type Transform = { readonly table: TableVersion } | { readonly partial: PartialTarget } | 'none' | 'unknown';

function transformOf(range: MediaRange): Transform {
  const { as, g, v } = range.params;
  if (as === undefined && g === undefined && v === undefined) return 'none';
  if (g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) return 'unknown';
  if (as === 'Table') return { table: v };
  if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') return { partial: { kind: as, version: v } };
  return 'unknown';
}

/**
 * The server's codecs an entry names, in the server's order (kube's
 * NegotiateMediaTypeOptions): the exact type, every codec of the type for
 * `type/*`, every codec for the full wildcard (JSON first). Case-sensitive, as in kube.
 */
function candidates(range: MediaRange, codecs: CodecRegistry): readonly Codec[] {
  if (range.subtype !== '*') {
    const codec = codecs.forMediaType(`${range.type}/${range.subtype}`);
    return codec === undefined ? [] : [codec];
  }
  if (range.type !== '*' && range.type !== 'application') return [];
  return codecs.mediaTypes.map((t) => codecs.forMediaType(t)).filter((c): c is Codec => c !== undefined);
}

/**
 * The response codec for an Accept header, and whether the client asked for a
 * Table or a metadata-only form; throws 406 NotAcceptable when no entry fits.
 * Entries are tried in preference order, so kubectl's "Table v1, Table v1beta1,
 * JSON" picks Table v1.
 */
export function negotiateOutputTarget(opts: OutputNegotiation): NegotiatedOutput {
  const codecs = opts.codecs ?? defaultCodecs;
  const picked = pickOutput(opts, codecs);
  if (picked === undefined) throw notAcceptable(codecs.mediaTypes);
  return picked;
}

/**
 * The first Accept entry the server can answer, as kube's acceptMediaTypeOptions
 * and the resource scope's AllowsMediaTypeTransform decide: `stream=` only as
 * `watch` on a codec with a stream form; Table only in JSON or YAML; the
 * metadata-only forms in any codec that can write them; no transform only in a
 * codec that can write the kind (protobuf: kinds with a message).
 */
function pickOutput(opts: OutputNegotiation, codecs: CodecRegistry): NegotiatedOutput | undefined {
  const pretty = opts.pretty === true;
  const header = opts.accept ?? '';
  if (header === '') return { codec: pick(codecs, codecs.json, pretty) };
  for (const range of parseAccept(header)) {
    const transform = transformOf(range);
    if (transform === 'unknown') continue;
    const rangePretty = pretty || range.params.pretty === '1';
    const stream = range.params.stream;
    for (const codec of candidates(range, codecs)) {
      if (stream !== undefined && stream !== '' && (stream !== 'watch' || codecs.framerFor(codec) === undefined)) continue;
      if (transform === 'none') {
        if (opts.type !== undefined && !codecs.canEncode(codec, opts.type)) continue;
        return { codec: pick(codecs, codec, rangePretty) };
      }
      if ('table' in transform) {
        // Table is written only as JSON or YAML (kubectl-wire §5).
        if (codec !== codecs.json && codec.mediaType !== YAML_MEDIA_TYPE) continue;
        return { codec: pick(codecs, codec, rangePretty), table: transform.table };
      }
      // Protobuf only where a message exists (v1beta1 PartialObjectMetadata has none of its own here).
      if (!codecs.canEncode(codec, { apiVersion: `meta.k8s.io/${transform.partial.version}`, kind: transform.partial.kind })) continue;
      return { codec: pick(codecs, codec, rangePretty), partial: transform.partial };
    }
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
  const picked = pickOutput(opts, codecs);
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

const TSPECIALS = '()<>@,;:\\"/[]?=';
const isTokenChar = (c: string): boolean => c > ' ' && c < '\x7f' && !TSPECIALS.includes(c);
const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);

function skipSpaces(s: string, i: number): number {
  while (isSpace(s[i])) i++;
  return i;
}

function tokenEnd(s: string, i: number): number {
  while (i < s.length && isTokenChar(s[i]!)) i++;
  return i;
}

/** Go's mime.ParseMediaType, the media type alone (lower case), or undefined where Go fails. */
function parseMediaType(raw: string): string | undefined {
  const semi = raw.indexOf(';');
  const base = semi < 0 ? raw : raw.slice(0, semi);
  const mediaType = base.toLowerCase().trim();
  // checkMediaTypeDisposition: a token, optionally `/` and a token, nothing more.
  const typeEnd = tokenEnd(mediaType, 0);
  if (typeEnd === 0) return undefined;
  if (typeEnd < mediaType.length) {
    if (mediaType[typeEnd] !== '/') return undefined;
    const subEnd = tokenEnd(mediaType, typeEnd + 1);
    if (subEnd === typeEnd + 1 || subEnd !== mediaType.length) return undefined;
  }
  // The parameters: `; token = token-or-quoted-string`, names unique, one trailing `;` allowed.
  const rest = raw.slice(base.length);
  const seen = new Set<string>();
  let i = skipSpaces(rest, 0);
  while (i < rest.length) {
    const param = parseParam(rest, i);
    if (param === undefined) return rest.slice(i).trim() === ';' ? mediaType : undefined;
    if (seen.has(param.name)) return undefined;
    seen.add(param.name);
    i = skipSpaces(rest, param.end);
  }
  return mediaType;
}

function parseParam(s: string, start: number): { name: string; end: number } | undefined {
  if (s[start] !== ';') return undefined;
  let i = skipSpaces(s, start + 1);
  const nameEnd = tokenEnd(s, i);
  if (nameEnd === i) return undefined;
  const name = s.slice(i, nameEnd).toLowerCase();
  i = skipSpaces(s, nameEnd);
  if (s[i] !== '=') return undefined;
  i = skipSpaces(s, i + 1);
  if (s[i] === '"') {
    for (let j = i + 1; j < s.length; j++) {
      if (s[j] === '\\' && j + 1 < s.length) j++;
      else if (s[j] === '"') return { name, end: j + 1 };
    }
    return undefined;
  }
  const valueEnd = tokenEnd(s, i);
  return valueEnd === i ? undefined : { name, end: valueEnd };
}

/**
 * The request-body codec for a Content-Type (kube's NegotiateInputSerializer): an
 * absent or empty header means JSON; a header Go's mime.ParseMediaType refuses
 * (`application/json;;;`, `;;;`) or a type not served is 415.
 */
export function negotiateInput(opts: { contentType: string | undefined; codecs?: CodecRegistry; accepted?: readonly string[] }): Codec {
  const codecs = opts.codecs ?? defaultCodecs;
  const accepted = opts.accepted ?? codecs.mediaTypes;
  const raw = opts.contentType ?? '';
  if (raw === '') return codecs.json;
  const mediaType = parseMediaType(raw);
  const codec = mediaType !== undefined && accepted.includes(mediaType) ? codecs.forMediaType(mediaType) : undefined;
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
