// Fastify assembly: one instance, TLS with HTTP/2 (ALPN h2) and HTTP/1.1, the
// filter chain on the root onRequest hook (so it covers 404s and non-resource
// paths too), one error handler, one log line and one metrics observation per
// request. Routes are registered by main.ts from the endpoint modules.
import fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Filter } from './chain.js';
import { installErrorHandling, type RenderStatus } from './error-handler.js';
import type { ApiMetrics } from './metrics.js';
import { isLongRunning } from './long-running.js';

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
}

/** dryRun on the query: the label kube's metrics carry. */
function isDryRun(url: string): boolean {
  const q = url.indexOf('?');
  return q >= 0 && /(?:^|&)dryRun=All(?:&|$)/.test(url.slice(q + 1));
}

export function createApp(opts: AppOptions): FastifyInstance {
  const common = {
    loggerInstance: opts.logger,
    // Our own onResponse hook writes the one line per request.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: opts.bodyLimit ?? 3 * 1024 * 1024,
    // Kubernetes names may be long and contain dots; the router must not cut them.
    routerOptions: { maxParamLength: 1024, ignoreTrailingSlash: true },
    // Watches and long lists stream for as long as the client wants.
    requestTimeout: 0,
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
      ? fastify(common)
      : fastify({
          ...common,
          http2: true,
          https: {
            allowHTTP1: true,
            key: opts.tls.key,
            cert: opts.tls.cert,
            ...(opts.tls.clientCa === undefined ? {} : { ca: opts.tls.clientCa }),
            requestCert: true,
            rejectUnauthorized: false,
          },
        })
  ) as unknown as FastifyInstance;

  app.decorateRequest('kapi', undefined as never);

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
        reply.header(
          'Warning',
          ctx.warnings.map((w) => `299 - "${w.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`),
        );
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

  installErrorHandling(app, opts.renderStatus);
  return app;
}
