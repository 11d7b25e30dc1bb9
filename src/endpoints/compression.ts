// Response compression (kube's APIResponseCompression gate, beta and on since 1.16):
// an answer to a resource request whose body is larger than 128 KiB goes out
// gzipped when the client's Accept-Encoding names gzip. This is kube's
// SerializeObject rule (k8s.io/apiserver responsewriters/writers.go and
// compression.go): every non-streaming answer — objects, lists, Tables, Status
// errors — while watches and streams (pods/log) are never compressed. Whole
// bodies are compressed by the onSend hook installed here; lists written item by
// item (list-stream.ts) pipe through gzipStream themselves, once they know the
// body passes the threshold.
//
// Node's zlib, not @fastify/compress: the plugin is not a dependency, and its own
// rules (q-values, br first, a 1 KiB threshold, level 6, any route) are not kube's.
// Measured on a 3 MB list of 5,000 ConfigMaps (2 CPUs, shared): level 1 gives 0.282
// of the bytes in 26 ms and level 6 0.277 in 29 ms; gzipSync held the event loop for
// 22 ms per answer, zlib.gzip (threadpool) 6 ms and a 64 KiB-chunk createGzip
// stream 3 ms, so both paths here use the threadpool, never gzipSync.
import { promisify } from 'node:util';
import { pipeline, type Readable } from 'node:stream';
import { createGzip, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** kube's defaultGzipThresholdBytes: bodies of at most this many bytes go out as they are. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

/** kube's gzipContentEncodingLevel: the fastest level, within 1.1–1.3x of the best ratio (kubernetes#112296). */
export const GZIP_LEVEL = 1;

const gzipAsync = promisify(gzip);

/**
 * Whether an Accept-Encoding names gzip, by kube's ContentEncodingSupported: a
 * comma-separated entry that is exactly `gzip` once trimmed. Parameters are not
 * read, so `gzip;q=0` (refused) and `gzip;q=0.5` (which kube also leaves alone)
 * do not count, nor do `GZIP`, `x-gzip` or `*`; `identity` beside gzip changes
 * nothing. Node joins repeated header lines with ", " where Go reads the first.
 */
export function acceptsGzip(header: string | readonly string[] | undefined): boolean {
  if (header === undefined) return false;
  const value = typeof header === 'string' ? header : header.join(',');
  // A header without the word (most, and any huge garbage one) is not split at all.
  if (!value.includes('gzip')) return false;
  return value.split(',').some((token) => token.trim() === 'gzip');
}

/** Marks a reply as gzipped, with the headers kube writes then (and only then). */
export function markGzip(reply: FastifyReply): void {
  reply.header('Content-Encoding', 'gzip');
  reply.header('Vary', 'Accept-Encoding');
}

/**
 * `source` through gzip at kube's level. An error of the source destroys the
 * result with it (the client sees a cut body, as with an uncompressed stream);
 * the result destroyed (client gone) destroys the source.
 */
export function gzipStream(source: Readable): Readable {
  const gz = createGzip({ level: GZIP_LEVEL });
  // The error reaches Fastify through `gz`, which pipeline destroys with it.
  pipeline(source, gz, () => {});
  return gz;
}

/**
 * Compresses the whole-body answers of the routes registered on `scope` (the
 * resource routes). Streams are left alone: a list stream compresses itself,
 * and pods/log-like streams are never compressed, as kube's StreamObject is not.
 * Watches hijack their reply, so no onSend hook sees them.
 */
export function installResponseCompression(scope: FastifyInstance): void {
  scope.addHook('onSend', async (request, reply, payload) => {
    if (!Buffer.isBuffer(payload) || payload.length <= GZIP_THRESHOLD_BYTES) return payload;
    if (reply.hasHeader('content-encoding') || !acceptsGzip(request.headers['accept-encoding'])) return payload;
    markGzip(reply);
    return gzipAsync(payload, { level: GZIP_LEVEL });
  });
}
