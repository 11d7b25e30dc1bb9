// HTTP/2 limits: how many streams one connection may have open, and how fast a
// client may reset them before its connection is closed.
//
// kube-apiserver serves HTTP/2 with Go's x/net/http2 server: 250 concurrent streams
// per connection unless --http2-max-streams-per-connection says otherwise (0, the
// default, keeps Go's 250), and since CVE-2023-44487 ("rapid reset") a client whose
// reset streams keep handlers busy past that limit loses its connection. Node leaves
// concurrent streams unlimited by default, so both are set here: nghttp2 refuses
// streams over the limit (and Node closes a session after maxSessionRejectedStreams
// refusals), and a token bucket over client resets closes a session with GOAWAY
// ENHANCE_YOUR_CALM once a client resets streams faster than any real client does.
// The onRequest hook (app.ts) stops working on a stream once it is reset, so what a
// reset stream costs is bounded by the filter step it was in.
import { constants, type Http2Session, type Http2Stream, type SecureServerOptions } from 'node:http2';

/**
 * The largest request header block read, on either transport: Go's
 * http.DefaultMaxHeaderBytes, which kube-apiserver keeps. Past it HTTP/1.1 is 431.
 */
export const MAX_HEADER_BYTES = 1 << 20;

export const HTTP2_LIMITS = {
  serverOptions: {
    settings: {
      // Go's http2 default, which kube-apiserver keeps.
      maxConcurrentStreams: 250,
      // Go's server advertises its MaxHeaderBytes (1 MiB, kube-apiserver's) plus
      // RFC 9113's 32 octets of overhead for ten typical fields; Node's default
      // (64 KiB) would refuse a large token's stream instead of answering 401.
      maxHeaderListSize: MAX_HEADER_BYTES + 10 * 32,
    },
    // Streams nghttp2 refused (over the limit) before Node closes the session.
    maxSessionRejectedStreams: 100,
    // Malformed frames tolerated per session (Node's default, stated so it is a decision).
    maxSessionInvalidFrames: 1000,
    // Megabytes of buffered frames and header state per session before new streams are refused.
    maxSessionMemory: 10,
  } satisfies SecureServerOptions,
  /** A session with no stream for this long is closed (Fastify's default). */
  sessionIdleTimeoutMs: 72_000,
  /** Client resets allowed at once, then per second, before the session is closed. */
  resetBurst: 250,
  resetsPerSecond: 50,
} as const;

interface ResetBucket {
  tokens: number;
  updatedMs: number;
}

interface Http2ServerLike {
  on(event: 'session', listener: (session: Http2Session) => void): unknown;
  on(event: 'stream', listener: (stream: Http2Stream) => void): unknown;
}

interface WarnLogger {
  warn(obj: object, msg: string): void;
}

/** Takes one reset from the bucket; false once the client has spent its allowance. */
export function takeReset(bucket: ResetBucket, nowMs: number, limits = HTTP2_LIMITS): boolean {
  const refill = ((nowMs - bucket.updatedMs) / 1000) * limits.resetsPerSecond;
  bucket.tokens = Math.min(limits.resetBurst, bucket.tokens + refill);
  bucket.updatedMs = nowMs;
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

/** Watches every session of `server` and closes the ones that reset streams too fast. */
export function trackHttp2Session(server: unknown, logger: WarnLogger): void {
  const h2 = server as Http2ServerLike;
  if (typeof (server as { on?: unknown }).on !== 'function') return;
  const buckets = new WeakMap<Http2Session, ResetBucket>();
  h2.on('stream', (stream: Http2Stream) => {
    const session = stream.session;
    if (session === undefined) return;
    stream.once('close', () => {
      // A stream the server answered closes with NO_ERROR. A client may also cancel
      // the rest of an upload whose answer it already has (the server refused the
      // body early, RFC 9113 §8.1): that reset costs nothing and is not counted.
      // Everything else is, a request without a body (END_STREAM on its HEADERS, the
      // rapid-reset pattern) above all, answered or not.
      const refusedUpload = stream.writableEnded && !stream.endAfterHeaders;
      if (stream.rstCode === constants.NGHTTP2_NO_ERROR || session.destroyed || refusedUpload) return;
      let bucket = buckets.get(session);
      if (bucket === undefined) {
        bucket = { tokens: HTTP2_LIMITS.resetBurst, updatedMs: Date.now() };
        buckets.set(session, bucket);
      }
      if (takeReset(bucket, Date.now())) return;
      logger.warn({ remoteAddress: session.socket?.remoteAddress }, 'HTTP/2 client reset streams too fast; closing its connection');
      // destroy() with a code sends that code in the final GOAWAY before the socket closes.
      session.destroy(undefined, constants.NGHTTP2_ENHANCE_YOUR_CALM);
    });
  });
}
