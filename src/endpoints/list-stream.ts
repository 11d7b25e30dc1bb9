// Writing a list answer item by item, as kube-apiserver 1.33+ does with its
// streaming collection encoders: the list's head, then each item's bytes (made once
// per stored object and shared by every list, codecs/list-encoding.ts), then its
// tail, pulled by the socket in chunks of at most CHUNK_BYTES. Nothing builds the
// whole body: memory per answer stays about one chunk above the items' shared bytes,
// a slow client holds the stream (highWaterMark, the socket's own backpressure)
// rather than the server's heap, and the work of encoding items not seen before is
// cut into slices of at most SLICE_MS with the event loop free between them, so a
// 10,000-item list does not stall every other request. The bytes are exactly the
// codec's encode(list). A list that fits in one chunk goes out as one body with its
// Content-Length, as before; JSON with ?pretty, YAML and Tables keep that path too.
// When the answer may be gzipped (compression.ts), the first piece is gathered up to
// kube's threshold before deciding, as kube's deferredResponseWriter buffers a
// streaming encoder's output: a whole body is left to the compression hook, a longer
// one streams through gzip.
import { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CodecRegistry } from '../codecs/registry.js';
import { listEncoding, type ListEncoding } from '../codecs/list-encoding.js';
import { answerTargetFor } from './negotiation.js';
import { GZIP_THRESHOLD_BYTES, gzipStream, markGzip } from './compression.js';

/** Bytes per write: large enough that per-chunk costs vanish, small enough to stay off the big-object heap. */
export const CHUNK_BYTES = 64 * 1024;

/** The longest stretch of encoding between two turns of the event loop. */
export const SLICE_MS = 5;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Item pieces (what goes before each item, then the item) from `from`, until `limit` bytes or the slice ends. */
function collect(enc: ListEncoding, from: number, opts: { limit: number; sliceStart: number; sliceMs: number }): { pieces: Buffer[]; size: number; next: number } {
  const pieces: Buffer[] = [];
  let size = 0;
  let i = from;
  while (i < enc.count && size < opts.limit) {
    const item = enc.item(i);
    const before = enc.before(i, item);
    if (before.length > 0) pieces.push(before);
    pieces.push(item);
    size += before.length + item.length;
    i++;
    // performance.now() costs little next to an item; checking every item keeps slices honest when items are big.
    if (performance.now() - opts.sliceStart > opts.sliceMs) break;
  }
  return { pieces, size, next: i };
}

/**
 * The rest of a list after `next`, chunk by chunk, each chunk made only when the
 * socket asks for more. A chunk whose making used up its slice is handed over on
 * the next turn of the event loop, so other requests run in between.
 */
class ListStream extends Readable {
  private sliceStart = performance.now();
  private timer: NodeJS.Immediate | undefined;

  constructor(
    private readonly enc: ListEncoding,
    private next: number,
    first: Buffer,
    private readonly sliceMs: number,
  ) {
    super({ highWaterMark: CHUNK_BYTES });
    this.push(first);
  }

  override _read(): void {
    if (this.next >= this.enc.count) {
      this.push(this.enc.tail);
      this.push(null);
      return;
    }
    let failed: unknown;
    let chunk: Buffer | undefined;
    try {
      const { pieces, size, next } = collect(this.enc, this.next, { limit: CHUNK_BYTES, sliceStart: this.sliceStart, sliceMs: this.sliceMs });
      this.next = next;
      chunk = Buffer.concat(pieces, size);
    } catch (err) {
      failed = err;
    }
    if (chunk === undefined) {
      // Headers are gone: all that is left is to cut the body short, which the client sees as an error.
      this.destroy(failed instanceof Error ? failed : new Error(String(failed)));
      return;
    }
    if (performance.now() - this.sliceStart <= this.sliceMs) {
      this.push(chunk);
      return;
    }
    const ready = chunk;
    this.timer = setImmediate(() => {
      this.timer = undefined;
      this.sliceStart = performance.now();
      if (!this.destroyed) this.push(ready);
    });
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    if (this.timer !== undefined) clearImmediate(this.timer);
    this.timer = undefined;
    callback(err);
  }
}

/**
 * Sends `list` (already in the form the Accept asked for) in pieces when its codec
 * has a piecewise form, and says whether it did; when not, the caller encodes it
 * whole. (A boolean, not the reply: a FastifyReply is thenable, and an async
 * function returning it would wait for the response to finish.)
 * Throws before anything is sent (a 406, an item protobuf cannot write), so errors
 * are ordinary answers; once a stream has started, an error cuts it short.
 */
export async function sendList(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: {
    list: { apiVersion?: string; kind?: string };
    codecs: CodecRegistry;
    /** Default SLICE_MS; tests pass 0 so that every item is a slice of its own. */
    sliceMs?: number;
    /** The answer may be gzipped: compression is on and the client's Accept-Encoding names gzip. */
    gzip?: boolean;
  },
): Promise<boolean> {
  const sliceMs = opts.sliceMs ?? SLICE_MS;
  const gzip = opts.gzip === true;
  const target = answerTargetFor(request, opts.list, opts.codecs);
  if (target.table !== undefined) return false;
  const enc = listEncoding(target.codec, opts.list);
  if (enc === undefined) return false;
  reply.code(200).header('Content-Type', target.codec.mediaType);
  if (enc.needsItemsLength) {
    await sendMeasured({ request, reply, enc, sliceMs, gzip });
    return true;
  }
  // The first chunk is made here: a list that fits in it is sent whole, with its Content-Length.
  const head = enc.head(0);
  const first = gzip
    ? await collectPastThreshold({ request, reply, enc, head, sliceMs })
    : collect(enc, 0, { limit: CHUNK_BYTES - head.length, sliceStart: performance.now(), sliceMs });
  if (first === undefined) return true;
  const { pieces, size, next } = first;
  if (next >= enc.count) {
    // Whole: the compression hook gzips it if it is over the threshold.
    reply.send(Buffer.concat([head, ...pieces, enc.tail], head.length + size + enc.tail.length));
    return true;
  }
  const stream = new ListStream(enc, next, Buffer.concat([head, ...pieces], head.length + size), sliceMs);
  // Items remain, so with gzip the body is past the threshold already.
  reply.send(gzip ? compressed(reply, stream) : stream);
  return true;
}

function compressed(reply: FastifyReply, stream: Readable): Readable {
  markGzip(reply);
  return gzipStream(stream);
}

/**
 * The first piece of a JSON list when it may be gzipped: items until the body
 * passes kube's threshold (or ends), a slice at a time with the event loop free
 * between slices. Undefined when the client went away (or the request timed out)
 * meanwhile.
 */
async function collectPastThreshold(opts: {
  request: FastifyRequest;
  reply: FastifyReply;
  enc: ListEncoding;
  head: Buffer;
  sliceMs: number;
}): Promise<{ pieces: Buffer[]; size: number; next: number } | undefined> {
  const { request, reply, enc, head, sliceMs } = opts;
  const pieces: Buffer[] = [];
  let size = 0;
  let next = 0;
  // Past the threshold: the whole body, head and tail included, is then larger than it.
  const limit = Math.max(CHUNK_BYTES, GZIP_THRESHOLD_BYTES + 1) - head.length;
  for (;;) {
    const got = collect(enc, next, { limit: limit - size, sliceStart: performance.now(), sliceMs });
    pieces.push(...got.pieces);
    size += got.size;
    next = got.next;
    if (next >= enc.count || size >= limit) return { pieces, size, next };
    await nextTurn();
    if (request.raw.destroyed || reply.raw.destroyed) {
      reply.hijack();
      return undefined;
    }
    if (reply.sent) return undefined;
  }
}

/**
 * Protobuf writes a list's length before its items, so every item is encoded (or
 * found in the shared encodings) first, a slice at a time; then the same bytes go
 * out in chunks. The items' bytes are the shared ones, so this holds no second copy,
 * only one reference per item.
 */
async function sendMeasured(opts: { request: FastifyRequest; reply: FastifyReply; enc: ListEncoding; sliceMs: number; gzip: boolean }): Promise<void> {
  const { request, reply, enc, sliceMs, gzip } = opts;
  // The items' Buffers as the first pass found them, so the second does not look them up again.
  const found: Buffer[] = new Array<Buffer>(enc.count);
  const measured: ListEncoding = { ...enc, item: (i) => found[i] ?? (found[i] = enc.item(i)) };
  let itemsLength = 0;
  let i = 0;
  while (i < enc.count) {
    const { size, next } = collect(measured, i, { limit: Number.POSITIVE_INFINITY, sliceStart: performance.now(), sliceMs });
    itemsLength += size;
    i = next;
    if (i < enc.count) {
      await nextTurn();
      // The client went away meanwhile: nobody reads the answer, so no more work for it.
      if (request.raw.destroyed || reply.raw.destroyed) {
        reply.hijack();
        return;
      }
    }
  }
  // The request's timeout may have answered 504 while the items were encoded.
  if (reply.sent) return;
  const head = enc.head(itemsLength);
  if (head.length + itemsLength + enc.tail.length <= CHUNK_BYTES) {
    // Small: every item is at hand (found), so this is one copy, not a slice of work.
    const pieces = [head];
    for (let j = 0; j < enc.count; j++) pieces.push(enc.before(j, found[j]!), found[j]!);
    reply.send(Buffer.concat([...pieces, enc.tail]));
    return;
  }
  const stream = new ListStream(measured, 0, head, sliceMs);
  const total = head.length + itemsLength + enc.tail.length;
  reply.send(gzip && total > GZIP_THRESHOLD_BYTES ? compressed(reply, stream) : stream);
}
