// The requests being served and the connections they came on, tracked for two
// readers: shutdown (drain until no request is left, then close what remains)
// and the fatal-error log line (which requests were in flight when the process
// died). One entry per request, added and removed in O(1): from the server's raw
// `request` event, so requests the filter chain refuses count too, completed by a
// Fastify onRequest hook with what the chain learnt (audit ID, user, whether the
// request is long-running). main.ts installs it on the app; app.ts knows nothing
// of it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse, Http2Session } from 'node:http2';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { isLongRunning } from './long-running.js';

/** What the fatal log line says about one request. */
export interface InFlightSummary {
  readonly method: string;
  readonly uri: string;
  readonly auditId?: string;
  readonly user?: string;
  readonly ageMs: number;
}

type RawRequest = IncomingMessage | Http2ServerRequest;
type RawResponse = ServerResponse | Http2ServerResponse;

interface Entry {
  readonly method: string;
  readonly uri: string;
  readonly startedAt: number;
  readonly response: RawResponse;
  /** HTTP/1.1 only: the connection, closed once idle while draining. */
  readonly socket: Socket | undefined;
  auditId?: string;
  user?: string;
  longRunning: boolean;
}

export interface InFlight {
  /** Requests being served now, oldest first, at most `limit`. */
  snapshot(limit?: number): { readonly requests: readonly InFlightSummary[]; readonly total: number };
  /**
   * Shutdown's first step: no new connections (the listener closes), watches and
   * other long-running responses end (their clients re-watch elsewhere, as with
   * kube-apiserver), HTTP/2 sessions get GOAWAY, idle HTTP/1.1 connections close
   * and busy ones close after their current response.
   */
  beginDrain(): void;
  /** Resolves when no request is left or after `ms`, with the requests still in flight. */
  drained(ms: number): Promise<number>;
  /** Last step: every connection that is left is cut. */
  destroyConnections(): void;
}

export function trackInFlight(app: FastifyInstance): InFlight {
  const entries = new Map<RawResponse, Entry>();
  const busySockets = new Map<Socket, number>();
  // TLS connections (HTTP/1.1 and HTTP/2 alike), and beneath them every TCP
  // connection, including those still in their TLS handshake: only the last step
  // touches the latter, since ending one under a live TLS session would cut it.
  const sockets = new Set<Socket>();
  const tcpSockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  let draining = false;
  let onEmpty: (() => void) | undefined;
  const server = app.server as unknown as NodeJS.EventEmitter & { close(cb?: (err?: Error) => void): void };

  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('connection', (socket: Socket) => {
    tcpSockets.add(socket);
    socket.once('close', () => tcpSockets.delete(socket));
  });
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    if (draining) session.close();
  });

  const release = (response: RawResponse): void => {
    const entry = entries.get(response);
    if (entry === undefined) return;
    entries.delete(response);
    if (entry.socket !== undefined) {
      const left = (busySockets.get(entry.socket) ?? 1) - 1;
      if (left > 0) busySockets.set(entry.socket, left);
      else {
        busySockets.delete(entry.socket);
        // end(), not destroy(): the response's last bytes may still be in the socket's buffer.
        if (draining) entry.socket.end();
      }
    }
    if (entries.size === 0) onEmpty?.();
  };

  server.on('request', (req: RawRequest, res: RawResponse) => {
    const http1 = req.httpVersionMajor < 2;
    const socket = http1 ? (req.socket as Socket) : undefined;
    entries.set(res, { method: req.method ?? '', uri: req.url ?? '', startedAt: Date.now(), response: res, socket, longRunning: false });
    if (socket !== undefined) busySockets.set(socket, (busySockets.get(socket) ?? 0) + 1);
    // Fastify sets the same header while it closes; ours starts with the drain.
    if (draining && http1 && !res.headersSent) res.setHeader('Connection', 'close');
    res.once('close', () => release(res));
  });

  // Runs after the filter chain (app.ts registers it first): the audit ID, the user
  // and the long-running verdict are known here.
  app.addHook('onRequest', (request, reply, done) => {
    const entry = entries.get(reply.raw);
    const ctx = request.kapi;
    if (entry !== undefined && ctx !== undefined) {
      entry.auditId = ctx.auditId;
      if (ctx.user !== undefined) entry.user = ctx.user.username;
      entry.longRunning = isLongRunning(ctx.info);
      if (draining && entry.longRunning) reply.raw.end();
    }
    done();
  });

  return {
    snapshot(limit = 20) {
      const now = Date.now();
      const requests: InFlightSummary[] = [];
      for (const e of entries.values()) {
        if (requests.length >= limit) break;
        requests.push({
          method: e.method,
          uri: e.uri,
          ...(e.auditId === undefined ? {} : { auditId: e.auditId }),
          ...(e.user === undefined ? {} : { user: e.user }),
          ageMs: now - e.startedAt,
        });
      }
      return { requests, total: entries.size };
    },

    beginDrain() {
      if (draining) return;
      draining = true;
      // Errors here only say the listener was already closed.
      server.close(() => undefined);
      for (const e of entries.values()) if (e.longRunning) e.response.end();
      for (const session of sessions) session.close();
      for (const socket of sockets) if (!busySockets.has(socket) && !isHttp2Socket(socket)) socket.end();
    },

    drained(ms) {
      if (entries.size === 0) return Promise.resolve(0);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          onEmpty = undefined;
          resolve(entries.size);
        }, ms);
        onEmpty = () => {
          clearTimeout(timer);
          onEmpty = undefined;
          resolve(0);
        };
      });
    },

    destroyConnections() {
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
      for (const socket of tcpSockets) socket.destroy();
    },
  };
}

/** An HTTP/2 connection (ALPN h2): its session is closed with GOAWAY instead. */
function isHttp2Socket(socket: Socket): boolean {
  return (socket as Socket & { alpnProtocol?: string | false }).alpnProtocol === 'h2';
}
