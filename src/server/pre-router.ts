// Requests answered before Fastify's router, where Node or Fastify would otherwise
// answer in their own words instead of a `kind: Status` body.
//
// Unrouted methods: Go reads any token as a method and kube-apiserver's router
// (go-restful) refuses one its path does not serve with 405 MethodNotAllowed. Node's
// HTTP/1.1 parser refuses methods outside its own list before any request exists
// (clientErrorStatus answers those 405), but HTTP/2 hands any method over, and
// Fastify's router sends one it does not know to a fallback that logs a warning with
// its whole route table and answers 404: a log flood for the asking. So unrouted
// methods are answered here, with the same 405 on both protocols. Departure: kube
// authenticates such a request first (a bad token is 401 there); here the 405 comes
// before authentication, as on HTTP/1.1. No route, resource or object is reached
// either way.
//
// Expectations other than 100-continue: Go answers 417 and closes the connection
// (RFC 9110 §10.1.1); Node answers 417 with an empty chunked body and keeps it open.
// Here: 417, a Status body, and the connection closed, as Go does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { genericServerResponse, transportError, type StatusError } from '../errors/status-error.js';
import { renderStatusAsJson } from './error-handler.js';

/** The methods kapi's routes (resource, discovery and non-resource) are registered for. */
export const ROUTED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

type AnyRequest = IncomingMessage | Http2ServerRequest;
type AnyResponse = ServerResponse | Http2ServerResponse;
type RequestListener = (req: AnyRequest, res: AnyResponse) => void;

interface ServerEvents {
  listeners(event: 'request'): RequestListener[];
  removeListener(event: 'request', listener: RequestListener): unknown;
  on(event: 'request' | 'checkExpectation', listener: RequestListener): unknown;
}

function answer(req: AnyRequest, res: AnyResponse, status: StatusError, close: boolean): void {
  const body = renderStatusAsJson(undefined as never, status.toStatus()).body;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(body.length) };
  // HTTP/2 has no Connection header; there the stream ends and the session stays.
  if (close && req.httpVersionMajor === 1) headers.connection = 'close';
  res.writeHead(status.code, headers);
  res.end(body);
  // The body of such a request is never read: drop it so the stream or connection can close.
  req.resume();
}

/** Puts these answers in front of the server's request listener (Fastify's). */
export function answerBeforeRouting(server: unknown): void {
  const events = server as ServerEvents;
  if (typeof events.listeners !== 'function') return;
  const inner = events.listeners('request');
  for (const listener of inner) events.removeListener('request', listener);
  const methodNotAllowed = genericServerResponse(405, '', '', '');
  events.on('request', (req, res) => {
    if (ROUTED_METHODS.has(req.method ?? '')) {
      for (const listener of inner) listener.call(server, req, res);
      return;
    }
    answer(req, res, methodNotAllowed, false);
  });
  events.on('checkExpectation', (req, res) => answer(req, res, transportError(417, 'Expectation Failed'), true));
}
