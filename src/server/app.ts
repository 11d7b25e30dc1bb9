// Fastify assembly: one instance, TLS with HTTP/2 (ALPN h2) and HTTP/1.1, the
// filter chain on the root onRequest hook (so it covers 404s and non-resource
// paths too), one error handler, one log line and one metrics observation per
// request. Routes are registered by main.ts from the endpoint modules.
import fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Filter } from './chain.js';
import { clientErrorStatus, installErrorHandling, sendStatus, toStatusError, writeRawStatus, type RenderStatus } from './error-handler.js';
import type { ApiMetrics } from './metrics.js';
import { isLongRunning } from './long-running.js';
import { HTTP2_LIMITS, MAX_HEADER_BYTES, trackHttp2Session } from './http2-limits.js';
import { readHttp1ThroughStream } from './http1-reads.js';
import { answerBeforeRouting } from './pre-router.js';
import { warningHeaderValues } from '../endpoints/warning-header.js';

export interface TlsOptions {
  readonly key: string | Buffer;
  readonly cert: string | Buffer;
  /** CAs trusted for client certificates; asked for, never required. */
  readonly clientCa?: string | Buffer;
}

export interface AppOptions {
  /** Absent: plain HTTP/1.1, only for in-process tests (inject). */
  readonly tls?: TlsOptions;
  readonly logger: Logger;
  readonly filters: readonly Filter[];
  readonly renderStatus: RenderStatus;
  readonly metrics?: ApiMetrics;
  /** kube-apiserver's --max-request-bytes default for JSON bodies: 3 MiB. */
  readonly bodyLimit?: number;
  /**
   * --request-timeout in milliseconds (kube's default 60 s): a request whose headers
   * and body have not all arrived by then is cut off. Watches are unaffected: a GET's
   * request is complete as soon as its headers are in.
   */
  readonly requestTimeoutMs?: number;
}

/** Node's own socket as the clientError event hands it over. */
interface ClientSocket {
  readonly writable: boolean;
  readonly destroyed: boolean;
  write(data: string | Buffer): boolean;
  end(): void;
  destroy(): void;
  /** The response in progress on this connection, if any (Node's internal field). */
  readonly _httpMessage?: { readonly headersSent?: boolean } | null;
}

/** dryRun on the query: the label kube's metrics carry. */
function isDryRun(url: string): boolean {
  const q = url.indexOf('?');
  return q >= 0 && /(?:^|&)dryRun=All(?:&|$)/.test(url.slice(q + 1));
}

export function createApp(opts: AppOptions): FastifyInstance {
  const bodyLimit = opts.bodyLimit ?? 3 * 1024 * 1024;
  const requestTimeoutMs = opts.requestTimeoutMs ?? 60_000;
  // Set once the instance exists: the handlers below render through it.
  let log: Logger = opts.logger;
  const common = {
    loggerInstance: opts.logger,
    // Our own onResponse hook writes the one line per request.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    // Kubernetes names may be long and contain dots; the router must not cut them.
    routerOptions: { maxParamLength: 1024, ignoreTrailingSlash: true },
    // Node's requestTimeout bounds receiving the request (headers and body), not the
    // answer, so watches and long lists still stream for as long as the client wants,
    // while a body that never completes is cut off (kube's timeout filter does the same
    // at --request-timeout; ours answers 504 first, this closes what is left).
    requestTimeout: requestTimeoutMs,
    // Errors the router raises before any hook (a malformed percent-escape) are Status bodies too.
    frameworkErrors: (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      sendStatus(request, reply, toStatusError(err, bodyLimit).status, opts.renderStatus);
    },
    // Node's HTTP/1.1 parser refused the request: no request object exists, so the
    // answer is written on the socket.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: ClientSocket) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || socket.destroyed) return;
      // A response already started on this connection (e.g. our 504 for a body that
      // stalled): another status line would corrupt it; close instead.
      if (socket._httpMessage?.headersSent === true) {
        socket.destroy();
        return;
      }
      log.debug({ code: err.code }, 'client error');
      writeRawStatus(socket, clientErrorStatus(err));
    },
    // On shutdown open watches end (clients re-watch elsewhere, as with kube-apiserver);
    // waiting for them would hold the process for up to --min-request-timeout.
    forceCloseConnections: true,
    return503OnClosing: false,
    // The one request log line carries the audit ID; a child logger per request
    // (Fastify's default, for its reqId binding) would cost more than the line.
    childLoggerFactory: <L>(logger: L): L => logger,
  };
  // Fastify's generic types differ per transport; routes only use the common surface.
  const app = (
    opts.tls === undefined
      ? fastify(common as never)
      : fastify({
          ...common,
          http2: true,
          http2SessionTimeout: HTTP2_LIMITS.sessionIdleTimeoutMs,
          https: {
            ...HTTP2_LIMITS.serverOptions,
            allowHTTP1: true,
            key: opts.tls.key,
            cert: opts.tls.cert,
            ...(opts.tls.clientCa === undefined ? {} : { ca: opts.tls.clientCa }),
            requestCert: true,
            rejectUnauthorized: false,
          },
        } as never)
  ) as unknown as FastifyInstance;

  app.decorateRequest('kapi', undefined as never);
  log = app.log as unknown as Logger;
  if (opts.tls !== undefined) {
    trackHttp2Session(app.server, app.log);
    readHttp1ThroughStream(app.server);
  }
  answerBeforeRouting(app.server);
  // Node reads 16 KiB of HTTP/1.1 headers unless the server says otherwise; the
  // HTTP/1.1 fallback of the HTTP/2 server reads this property per connection.
  (app.server as { maxHeaderSize?: number }).maxHeaderSize = MAX_HEADER_BYTES;

  // Long-running responses (watches) end when the server closes: their clients
  // re-watch, as they do when kube-apiserver shuts down; nothing else waits on them.
  const longRunning = new Set<{ end(): void }>();
  const filters = opts.filters;
  // The whole chain is one hook: Fastify's per-hook promise hand-offs cost more
  // than most filters, and only the filters that return a promise are awaited.
  app.addHook('onRequest', async (request, reply) => {
    for (const filter of filters) {
      const pending = filter(request, reply);
      if (pending !== undefined) await pending;
      // The client reset the stream (or closed the connection) while a filter waited:
      // nobody will read the answer, so no more work is done for it. This is what keeps
      // a flood of opened-and-reset HTTP/2 streams from queueing real work.
      if (reply.raw.destroyed || request.raw.destroyed) {
        reply.hijack();
        return;
      }
    }
    if (!isLongRunning(request.kapi.info)) return;
    const raw = reply.raw as { end(): void; once(event: 'close', fn: () => void): void };
    longRunning.add(raw);
    raw.once('close', () => longRunning.delete(raw));
  });
  app.addHook('preClose', async () => {
    for (const raw of longRunning) raw.end();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const ctx = request.kapi;
    if (ctx !== undefined) {
      reply.header('Audit-Id', ctx.auditId);
      if (ctx.warnings.length > 0) {
        const values = warningHeaderValues(ctx.warnings);
        if (values.length > 0) reply.header('Warning', values);
      }
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    const seconds = reply.elapsedTime / 1000;
    const ctx = request.kapi;
    if (ctx !== undefined) {
      opts.metrics?.observe({ info: ctx.info, method: request.method, dryRun: isDryRun(request.url), code: reply.statusCode, seconds });
    }
    request.log.info(
      {
        verb: ctx?.info.verb,
        uri: request.url,
        user: ctx?.user?.username,
        auditId: ctx?.auditId,
        code: reply.statusCode,
        latencyMs: Math.round(seconds * 1e5) / 100,
        userAgent: request.headers['user-agent'],
        proto: request.raw.httpVersion,
      },
      'request',
    );
    done();
  });

  installErrorHandling(app, opts.renderStatus, bodyLimit);
  return app;
}
