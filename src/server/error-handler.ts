// The one place errors become responses. A StatusError is rendered as a
// metav1.Status in the negotiated codec; Fastify's own client errors (body too
// large, bad content type, malformed body) are translated to their Kubernetes
// reasons; anything else is a bug: logged, and answered 500 InternalError.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  StatusError,
  badRequest,
  internal,
  isStatusError,
  requestEntityTooLarge,
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

/** Fastify raises these before our handlers run; they are the client's mistakes. */
function fromFastifyError(err: FastifyError): StatusError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return requestEntityTooLarge('limit is 3145728');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return unsupportedMediaType(String(err.message), ACCEPTED_BODY_TYPES);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return badRequest(err.message);
    default:
      return err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 ? badRequest(err.message) : undefined;
  }
}

export function toStatusError(err: unknown): { status: StatusError; bug: boolean } {
  if (isStatusError(err)) return { status: err, bug: false };
  const fromFastify = typeof (err as FastifyError)?.code === 'string' ? fromFastifyError(err as FastifyError) : undefined;
  if (fromFastify !== undefined) return { status: fromFastify, bug: false };
  return { status: internal(err), bug: true };
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

export function installErrorHandling(app: FastifyInstance, render: RenderStatus): void {
  app.setErrorHandler((err, request, reply) => {
    const { status, bug } = toStatusError(err);
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
