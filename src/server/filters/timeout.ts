// Request timeout: a request that is not long-running answers 504 Timeout once
// --request-timeout (or a shorter `?timeout=` from the client, as client-go sends)
// has passed, with kube-apiserver's message. Whatever the handler does later is
// not sent: the reply is already finished.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { timeout } from '../../errors/status-error.js';
import { sendStatus, type RenderStatus } from '../error-handler.js';
import { isLongRunning } from '../long-running.js';
import { parseGoDuration } from '../../schema/go-duration.js';

function queryTimeoutMs(url: string): number | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  const text = new URLSearchParams(url.slice(q + 1)).get('timeout');
  if (text === null || text === '') return undefined;
  try {
    const ms = parseGoDuration(text);
    return ms > 0 ? ms : undefined;
  } catch {
    // kube ignores a timeout it cannot parse and keeps the server's.
    return undefined;
  }
}

export function createTimeoutFilter(opts: { readonly requestTimeoutMs: number; readonly render: RenderStatus }) {
  return function requestTimeout(request: FastifyRequest, reply: FastifyReply): void {
    if (opts.requestTimeoutMs <= 0 || isLongRunning(request.kapi.info)) return;
    const asked = queryTimeoutMs(request.url);
    const ms = asked === undefined ? opts.requestTimeoutMs : Math.min(asked, opts.requestTimeoutMs);
    const timer = setTimeout(() => {
      if (reply.sent || reply.raw.headersSent) return;
      // A body still arriving (or never coming: Content-Length larger than what is
      // sent, a stalled chunked body) must not hold the connection after the answer.
      const incomplete = !request.raw.complete;
      if (incomplete && request.raw.httpVersionMajor < 2) reply.header('Connection', 'close');
      sendStatus(request, reply, timeout('request did not complete within requested timeout - context deadline exceeded'), opts.render);
      if (incomplete && request.raw.httpVersionMajor >= 2) {
        const stream = (request.raw as unknown as { stream?: { close(code?: number): void } }).stream;
        reply.raw.once('finish', () => stream?.close());
      }
    }, ms);
    reply.raw.once('close', () => clearTimeout(timer));
  };
}
