// WATCH: events framed for the negotiated codec (codecs/framing.ts: JSON lines, or
// length-prefixed protobuf WatchEvents answered as
// application/vnd.kubernetes.protobuf;stream=watch), headers flushed before the
// first event (client-go waits for them), the stream ended by timeoutSeconds
// (default: kube's --min-request-timeout 1800 s, randomised x[1,2)) or by the
// client going away. Bookmarks only when allowWatchBookmarks asks for them, on
// kube's schedule: about once a minute and 2 s before the watch's deadline.
// sendInitialEvents=true (KEP-3157 streaming lists, client-go's WatchList) first
// sends ADDED for the state a list would give (resourceVersionMatch=NotOlderThan:
// unset is the most recent state, "0" any, N not older than N; served by the
// watch cache), then a BOOKMARK carrying that state's resourceVersion annotated
// k8s.io/initial-events-end: "true", then every change after it. An error after the stream started is an ERROR event. With a
// Table Accept (kubectl get -w) each event's object is a one-row Table and only the
// first carries columnDefinitions, as kube's watch encoder does (kubectl-wire §2.3).
// With a PartialObjectMetadata Accept (client-go metadata informers) each event's
// object, bookmarks included, is its metadata-only form; asking for the list form
// on a watch gets whole objects, as kube's watch encoder falls back to them.
// Storage hands every watcher of a resource the same frozen object per event, so an
// event is framed once per codec and its bytes written to every watcher
// (frameShared); a Table is per watcher and framed for it alone.
// A watcher that stops reading is cut off once MAX_UNREAD_WATCH_BYTES are queued.
// A busy watch's frames are gathered over WATCH_WRITE_WINDOW_MS and written together.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { frameShared, type WatchFrameEvent, type WatchFramer } from '../../codecs/framing.js';
import { forbiddenField, notSupported, path, type FieldError } from '../../schema/field-errors.js';
import { isStatusError, internal } from '../../errors/status-error.js';
import type { KubeObject } from '../../schema/object.js';
import type { StorageWatchEvent } from '../../storage/storage.js';
import { tableForList, tableForObject } from '../../registry/table.js';
import { watchFramingFor } from '../negotiation.js';
import { listOptionsFrom, tableOptionsFor } from './list.js';
import { partialObjectMetadata } from '../partial-metadata.js';
import { boolParam, intParam, invalidOptions } from './options.js';
import { userOf, type Handler, type HandlerScope } from './scope.js';
import { warningHeaderValues } from '../warning-header.js';

/** kube's cacher sends each watcher a bookmark about once a minute (defaultBookmarkFrequency). */
export const DEFAULT_BOOKMARK_INTERVAL_MS = 60_000;

/** While storage has reported no progress yet, a due bookmark is tried again this soon. */
const BOOKMARK_RETRY_MS = 1_000;

/**
 * kube's cacheWatcher.nextBookmarkTime: the next bookmark is due one interval
 * from now, or 2 s before the watch's deadline when that comes first (so a
 * client re-watching after the timeout starts close to now); none once that
 * moment has passed. Milliseconds from `now`, or undefined.
 */
export function nextBookmarkDelay(now: number, deadline: number, intervalMs: number): number | undefined {
  const at = Math.min(now + intervalMs, deadline - 2_000);
  return at < now ? undefined : at - now;
}

/**
 * Bytes a watcher may leave unread before it is cut off. A client that stops
 * reading would otherwise make the server hold every later event in socket buffers
 * outside the heap; like kube's cacher with an unresponsive watcher, the stream is
 * ended instead and the client re-watches from its last resourceVersion.
 */
export const MAX_UNREAD_WATCH_BYTES = 4 * 1024 * 1024;

/**
 * A watch that wrote within this window holds its next frames until the window
 * ends and writes them together. Each write to an HTTP/2 stream costs the server
 * microseconds of its own (Node's stream machinery, nghttp2, the completion) whatever
 * its size, so at a busy resource's rate, one write per event per watcher is most of
 * a fan-out's CPU. An event to a quiet watch is written at once; one to a busy watch
 * waits at most this long.
 */
export const WATCH_WRITE_WINDOW_MS = 25;

/** One watch's frames held for the end of the write window. */
interface HeldFrames {
  readonly frames: Buffer[];
  /** The window in which the watch last wrote. */
  window: number;
  /** Writes the held frames (the window ended). */
  readonly flush: () => void;
}

/** The current write window; one shared timer ends it (none is armed while no watch has written). */
let writeWindow = 0;
let windowTimer: NodeJS.Timeout | undefined;
let holding: HeldFrames[] = [];

function endWriteWindow(): void {
  windowTimer = undefined;
  writeWindow++;
  const due = holding;
  holding = [];
  for (const h of due) h.flush();
}

/** The frames joined last, and their bytes. */
let lastJoined: { readonly frames: readonly Buffer[]; readonly bytes: Buffer } = { frames: [], bytes: Buffer.alloc(0) };

/**
 * Held frames as one Buffer. Watchers of one resource hold the same shared frames
 * (frameShared) when a window ends, so the last join serves most of them.
 */
function joinFrames(frames: readonly Buffer[]): Buffer {
  if (frames.length === 1) return frames[0]!;
  const last = lastJoined;
  if (last.frames.length === frames.length) {
    let same = true;
    for (let i = 0; i < frames.length && same; i++) same = frames[i] === last.frames[i];
    if (same) return last.bytes;
  }
  const bytes = Buffer.concat(frames);
  lastJoined = { frames: frames.slice(), bytes };
  return bytes;
}

/** A watch wrote in the current window: the window must end. */
function armWriteWindow(): void {
  if (windowTimer !== undefined) return;
  windowTimer = setTimeout(endWriteWindow, WATCH_WRITE_WINDOW_MS);
  // Held frames belong to open streams, which keep the process alive on their own.
  windowTimer.unref();
}

/**
 * What holds the bytes queued for the client and not yet taken by it: the HTTP/2
 * stream, or the HTTP/1.1 response. Found once per watch; read after every write.
 */
function unreadQueue(raw: FastifyReply['raw']): { readonly writableLength?: number } {
  return (raw as { stream?: { writableLength?: number } }).stream ?? (raw as { writableLength?: number });
}

function startStream(request: FastifyRequest, reply: FastifyReply, contentType: string): void {
  reply.hijack();
  const headers: Record<string, string | string[] | number> = {};
  for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v as string | string[] | number;
  const warnings = request.kapi?.warnings ?? [];
  // Made header-safe as every other answer's warnings are (server/app.ts does it in onSend, which a hijacked reply skips).
  const warning = warningHeaderValues(warnings);
  if (warning.length > 0) headers.warning = warning;
  reply.raw.writeHead(200, { ...headers, 'content-type': contentType, 'cache-control': 'no-cache, private' });
  reply.raw.flushHeaders();
}

export interface WatchHandlerOptions {
  /** Table ages and the bookmark schedule read it. */
  readonly clock?: () => Date;
}

/** The WATCH handler; `clock` is injected so tests own time. */
export function createWatchHandler(opts: WatchHandlerOptions = {}): Handler {
  const clock = opts.clock ?? (() => new Date());
  return (request, reply, scope) => serveWatch({ request, reply, scope, clock });
}

interface WatchContext {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly scope: HandlerScope;
  readonly clock: () => Date;
}

async function serveWatch(ctx: WatchContext): Promise<FastifyReply> {
  const { request, reply, scope, clock } = ctx;
  const q = scope.query;
  const bookmarks = boolParam(q, 'allowWatchBookmarks');
  const sendInitialEvents = validateWatchOptions(scope);
  // 0 or absent means the server default, as in kube's watch handler.
  const asked = intParam(q, 'timeoutSeconds') ?? 0;
  const timeoutSeconds = asked > 0 ? asked : Math.floor(scope.minRequestTimeoutSeconds * (1 + Math.random()));
  const { limit: _l, continue: _c, resourceVersionMatch, ...list } = listOptionsFrom(scope);
  const def = scope.definition;
  const apiVersion = def.group === '' ? def.version : `${def.group}/${def.version}`;
  // Negotiated before any work, so a 406 is an ordinary answer (kube: NegotiateOutputMediaTypeStream).
  const negotiated = watchFramingFor(request, { apiVersion, kind: def.kind }, scope.codecs);
  const framer: WatchFramer = negotiated.framer;
  const table = negotiated.table === undefined ? undefined : tableOptionsFor(request, scope);
  const partialVersion = negotiated.partial?.kind === 'PartialObjectMetadata' ? negotiated.partial.version : undefined;

  const buffered: Buffer[] = [];
  let started = false;
  let ended = false;
  // Until the stream is set up, ending (an ERROR reported at once) is only noted.
  let endAsked = false;
  let finish = (): void => {
    endAsked = true;
  };
  const out = reply.raw;
  const unread = unreadQueue(out);
  // Set when the client went away: nothing more is written, held frames included.
  let gone = false;
  const send = (bytes: Buffer): void => {
    out.write(bytes);
    held.window = writeWindow;
    armWriteWindow();
    if ((unread.writableLength ?? 0) > MAX_UNREAD_WATCH_BYTES) finish();
  };
  /** The held frames as one write, in order; none once the stream ended. */
  const flushHeld = (): void => {
    const frames = held.frames;
    if (frames.length === 0 || ended) {
      frames.length = 0;
      return;
    }
    const bytes = joinFrames(frames);
    frames.length = 0;
    send(bytes);
  };
  const held: HeldFrames = { frames: [], window: -1, flush: flushHeld };
  const write = (event: WatchFrameEvent): void => {
    if (ended) return;
    const bytes = frameShared(framer, event);
    if (!started) {
      buffered.push(bytes);
      return;
    }
    if (held.frames.length > 0) {
      held.frames.push(bytes);
      return;
    }
    if (held.window === writeWindow && windowTimer !== undefined) {
      held.frames.push(bytes);
      holding.push(held);
      return;
    }
    send(bytes);
  };
  let headersSent = false;
  /** The event's object as the client asked for it: itself, its metadata-only form, or a one-row Table. */
  const shown = (object: KubeObject): object => {
    // Shared per event object (frozen), so its frame is shared by every metadata watcher.
    if (partialVersion !== undefined) return partialObjectMetadata(object, partialVersion);
    if (table === undefined) return object;
    const t = tableForObject(object, { ...table, now: clock(), noHeaders: headersSent });
    headersSent = true;
    return t as object;
  };
  // Storage's event is written as it is when the client takes whole objects: no
  // copy of it per watcher (it is shared, and frameShared only reads it).
  const onEvent: (e: StorageWatchEvent) => void =
    partialVersion === undefined && table === undefined ? write : (e) => write({ type: e.type, object: shown(e.object) });
  const bookmark = (resourceVersion: string, annotations?: Record<string, string>): void => {
    const object: KubeObject = { kind: def.kind, apiVersion, metadata: { resourceVersion, ...(annotations === undefined ? {} : { annotations }) } };
    // A bookmark names no object: as a Table it is an empty one carrying the resourceVersion.
    const rows =
      partialVersion !== undefined
        ? partialObjectMetadata(object, partialVersion)
        : table === undefined
          ? object
          : tableForList({ kind: '', apiVersion: '', metadata: { resourceVersion }, items: [] }, { ...table, noHeaders: true });
    write({ type: 'BOOKMARK', object: rows as object });
  };
  // Storage reports progress as often as it likes (every commit, every second);
  // the latest is what the next scheduled bookmark carries.
  let progressed: string | undefined;
  const onProgress = (resourceVersion: string): void => {
    progressed = resourceVersion;
  };

  const onError = (err: unknown): void => {
    const status = isStatusError(err) ? err : internal(err);
    write({ type: 'ERROR', object: status.toStatus() });
    finish();
  };

  // Streaming list: the initial state as a list would read it, then the watch from its revision.
  // sendInitialEvents=false with "" or "0" starts at that state without replaying it.
  let from = list.resourceVersion;
  const noState = sendInitialEvents === false && (from === undefined || from === '' || from === '0');
  if (sendInitialEvents === true || noState) {
    let initial: Awaited<ReturnType<HandlerScope['store']['list']>>;
    try {
      initial = await scope.store.list({
        ...list,
        // Unset resourceVersion is the most recent state: a list takes no match with it.
        ...(resourceVersionMatch === undefined || (from ?? '') === '' ? {} : { resourceVersionMatch }),
        ...(noState ? { limit: 1 } : {}),
        user: userOf(request),
      });
    } catch (err) {
      // kube's cacher answers a state it cannot reach in time (504 Too large
      // resource version, after 3 s) or no longer has (410) with a watch that
      // sends that one ERROR and ends; anything else is an ordinary error.
      if (!isStatusError(err) || (err.code !== 504 && err.code !== 410)) throw err;
      startStream(request, reply, framer.contentType);
      reply.raw.end(frameShared(framer, { type: 'ERROR', object: err.toStatus() }));
      return reply;
    }
    from = initial.metadata.resourceVersion ?? '';
    if (!noState) {
      for (const item of initial.items) {
        if (scope.info.name !== '' && item.metadata.name !== scope.info.name) continue;
        onEvent({ type: 'ADDED', object: { apiVersion, kind: def.kind, ...item } });
      }
      // Sent whatever the bookmark schedule: the client waits for it to end its list.
      // Without allowWatchBookmarks kube sends none (the state, then changes).
      if (bookmarks) bookmark(from, { [INITIAL_EVENTS_END]: 'true' });
    }
  }

  // Errors while establishing (a malformed resourceVersion) are ordinary HTTP
  // errors; a version older than history is an ERROR event, as kube's cacher sends it.
  const handle = await scope.store.watch({
    ...list,
    ...(from === undefined ? {} : { resourceVersion: from }),
    // The one name filter: a name in the path (legacy /watch/.../<name>, kubectl
    // wait / get -w NAME) narrows by key in the store, before anything is decoded.
    ...(scope.info.name === '' ? {} : { name: scope.info.name }),
    user: userOf(request),
    onEvent,
    onError,
    ...(bookmarks ? { onProgress } : {}),
  });
  startStream(request, reply, framer.contentType);
  started = true;
  for (const bytes of buffered.splice(0)) reply.raw.write(bytes);
  const timer = setTimeout(() => finish(), timeoutSeconds * 1000);
  let bookmarkTimer: NodeJS.Timeout | undefined;
  if (bookmarks) {
    const deadline = clock().getTime() + timeoutSeconds * 1000;
    const lastAt = deadline - 2_000;
    const arm = (delay: number | undefined): void => {
      if (delay === undefined || ended) return;
      // Decided when armed, not from the clock when the timer fires: a timer may
      // fire a millisecond before its time, and must not then arm a second
      // "last" bookmark right behind the first.
      const last = clock().getTime() + delay >= lastAt;
      bookmarkTimer = setTimeout(() => {
        const now = clock().getTime();
        // Nothing to report yet: try again soon rather than a whole interval later.
        if (progressed === undefined) {
          if (!last) arm(Math.max(0, Math.min(BOOKMARK_RETRY_MS, lastAt - now)));
          return;
        }
        bookmark(progressed);
        // The bookmark just before the deadline is the last one.
        if (last) return;
        arm(nextBookmarkDelay(now, deadline, DEFAULT_BOOKMARK_INTERVAL_MS));
      }, delay);
    };
    arm(nextBookmarkDelay(clock().getTime(), deadline, DEFAULT_BOOKMARK_INTERVAL_MS));
  }
  finish = () => {
    if (ended) return;
    // What is held goes out before the end (an ERROR event among it), unless the client left.
    const last = gone || held.frames.length === 0 ? undefined : joinFrames(held.frames);
    held.frames.length = 0;
    ended = true;
    clearTimeout(timer);
    clearTimeout(bookmarkTimer);
    handle.close();
    if (last === undefined) reply.raw.end();
    else reply.raw.end(last);
  };
  // 'close' on the response (not the request): the request's fires once its body is read.
  reply.raw.on('close', () => {
    gone = true;
    finish();
  });
  if (endAsked) finish();
  return reply;
}

/** The annotation of the bookmark that ends a streaming list's initial events (metav1.InitialEventsAnnotationKey). */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/**
 * kube's validateWatchOptions (apimachinery internalversion/validation): what
 * sendInitialEvents needs, and resourceVersionMatch only beside it. (Bookmarks
 * are not required: without them the initial events end with no bookmark.) Returns
 * sendInitialEvents (undefined when not given).
 */
function validateWatchOptions(scope: HandlerScope): boolean | undefined {
  const q = scope.query;
  const sendInitialEvents = q.has('sendInitialEvents') ? boolParam(q, 'sendInitialEvents') : undefined;
  const match = q.get('resourceVersionMatch') ?? '';
  const errs: FieldError[] = [];
  // kube's ValidateListOptions: streaming lists exist only with the WatchList gate (beta, on in 1.36).
  if (sendInitialEvents !== undefined && !scope.featureGates.enabled('WatchList')) {
    errs.push(forbiddenField(path('sendInitialEvents'), 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
  }
  if (sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan') errs.push(forbiddenField(path('resourceVersionMatch'), 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (match !== '') {
    if (sendInitialEvents === undefined) errs.push(forbiddenField(path('resourceVersionMatch'), 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errs.push(notSupported(path('resourceVersionMatch'), match, ['NotOlderThan']));
    if ((q.get('continue') ?? '') !== '') errs.push(forbiddenField(path('resourceVersionMatch'), 'resourceVersionMatch is forbidden when continue is provided'));
  }
  if (errs.length > 0) invalidOptions('ListOptions', errs);
  return sendInitialEvents;
}

export const watchHandler: Handler = createWatchHandler();
