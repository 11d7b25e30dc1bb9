// The one place errors become responses. A StatusError is rendered as a
// metav1.Status in the negotiated codec; Fastify's own client errors (body too
// large, bad content type, malformed body) are translated to their Kubernetes
// reasons; anything else is a bug: logged, and answered 500 InternalError.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  StatusError,
  badRequest,
  genericServerResponse,
  internal,
  isStatusError,
  requestEntityTooLarge,
  requestHeaderFieldsTooLarge,
  timeout,
  transportError,
  unsupportedMediaType,
  type StatusBody,
} from '../errors/status-error.js';

/** Encodes a Status for this request (JSON, YAML or protobuf by Accept). */
export type RenderStatus = (request: FastifyRequest, status: StatusBody) => { contentType: string; body: Buffer };

export const renderStatusAsJson: RenderStatus = (_request, status) => ({
  contentType: 'application/json',
  body: Buffer.from(`${JSON.stringify(status)}\n`),
});

const ACCEPTED_BODY_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/** kube-apiserver's --max-request-bytes default; the message names the limit as kube's does. */
const DEFAULT_BODY_LIMIT = 3 * 1024 * 1024;

/** Fastify raises these before our handlers run; they are the client's mistakes. */
function fromFastifyError(err: FastifyError, bodyLimit: number): StatusError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return requestEntityTooLarge(`limit is ${bodyLimit}`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType(String(err.message), ACCEPTED_BODY_TYPES);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return badRequest(err.message);
    case 'FST_ERR_BAD_URL':
      return badRequest('the request URL is not valid: it holds a malformed percent-escape');
    default:
      return err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500
        ? transportError(err.statusCode, err.message)
        : undefined;
  }
}

export function toStatusError(err: unknown, bodyLimit: number = DEFAULT_BODY_LIMIT): { status: StatusError; bug: boolean } {
  if (isStatusError(err)) return { status: err, bug: false };
  const fromFastify = typeof (err as FastifyError)?.code === 'string' ? fromFastifyError(err as FastifyError, bodyLimit) : undefined;
  if (fromFastify !== undefined) return { status: fromFastify, bug: false };
  // The client went away mid-request: nobody is left to answer, and it is no bug of ours.
  if (isClientGone(err)) return { status: badRequest('the client closed the connection before the request was read'), bug: false };
  return { status: internal(err), bug: true };
}

const CLIENT_GONE_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNABORTED', 'EPIPE']);

function isClientGone(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (typeof e !== 'object' || e === null) return false;
  return (typeof e.code === 'string' && CLIENT_GONE_CODES.has(e.code)) || e.message === 'request body closed before its end';
}

export function sendStatus(request: FastifyRequest, reply: FastifyReply, err: StatusError, render: RenderStatus): FastifyReply {
  let encoded: { contentType: string; body: Buffer };
  try {
    encoded = render(request, err.toStatus());
  } catch {
    // The negotiated codec could not encode a Status (e.g. a 406 itself): JSON always can.
    encoded = renderStatusAsJson(request, err.toStatus());
  }
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply.code(err.code).header('Content-Type', encoded.contentType).send(encoded.body);
}

export function installErrorHandling(app: FastifyInstance, render: RenderStatus, bodyLimit: number = DEFAULT_BODY_LIMIT): void {
  app.setErrorHandler((err, request, reply) => {
    const { status, bug } = toStatusError(err, bodyLimit);
    if (bug) request.log.error({ err }, 'unhandled error while serving request');
    if (reply.sent || reply.raw.headersSent) return;
    return sendStatus(request, reply, status, render);
  });
  app.setNotFoundHandler((request, reply) =>
    sendStatus(
      request,
      reply,
      new StatusError({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} }),
      render,
    ),
  );
}

/**
 * Node's HTTP/1.1 parser refuses a request before Fastify sees it (bad request line,
 * header block over the limit, body not received within the request timeout). Go's
 * server answers these in plain text; the answer here is the same status with a
 * Status body, written on the raw socket, and the connection closed: after a parse
 * error nothing more on it can be trusted.
 */
export function clientErrorStatus(err: NodeJS.ErrnoException): StatusError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestHeaderFieldsTooLarge();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return timeout('request did not complete within requested timeout - context deadline exceeded');
    case 'HPE_INVALID_METHOD':
      // Go reads any token as a method (the router then answers 405); anything else
      // on the request line is a malformed request.
      return isTokenMethod((err as { rawPacket?: unknown }).rawPacket)
        ? genericServerResponse(405, '', '', '')
        : badRequest('malformed HTTP request (HPE_INVALID_METHOD)');
    default:
      return badRequest(`malformed HTTP request${err.code === undefined ? '' : ` (${err.code})`}`);
  }
}

/** RFC 9110 tchar: what a method may be made of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z]+$/;

/** Whether the request line the parser refused starts with a well-formed method token. */
function isTokenMethod(rawPacket: unknown): boolean {
  if (!Buffer.isBuffer(rawPacket)) return false;
  const space = rawPacket.indexOf(0x20);
  return space > 0 && TOKEN.test(rawPacket.subarray(0, space).toString('latin1'));
}

/** Writes `status` as a complete HTTP/1.1 response on a socket no request object owns, then closes it. */
/**
 * How long a connection refused by the parser is still read (and what comes is
 * dropped) after its answer: closing a socket with unread bytes makes the kernel
 * send a reset, which can overtake the answer at the client (a 1 MiB header block
 * still arriving). Go's server lingers 500 ms the same way (rstAvoidanceDelay).
 */
const LINGER_MS = 500;

export function writeRawStatus(
  socket: { writable: boolean; write(data: string | Buffer): boolean; end(): void; destroy(): void; on?(event: 'data', listener: () => void): unknown; resume?(): unknown },
  status: StatusError,
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = renderStatusAsJson(undefined as never, status.toStatus()).body;
  const head =
    `HTTP/1.1 ${status.code} ${STATUS_CODES[status.code] ?? 'Error'}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  if (socket.on === undefined || socket.resume === undefined) {
    // end(), not destroy(): the answer must leave before the socket closes.
    socket.end();
    return;
  }
  // Read and drop what still comes for a while, then close: ending at once (TLS's
  // close_notify with request bytes still arriving) resets the connection.
  socket.on('data', () => {});
  socket.resume();
  setTimeout(() => socket.end(), LINGER_MS).unref();
  setTimeout(() => socket.destroy(), 2 * LINGER_MS).unref();
}
