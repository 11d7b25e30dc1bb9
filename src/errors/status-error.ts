// The one error type that reaches the wire. Everything that fails a request throws
// a StatusError built by a constructor named after its reason (below); the error
// handler renders it as a metav1.Status in the negotiated codec. Messages follow
// apimachinery's pkg/api/errors so clients that compare them keep working.
import type { GroupResource } from '../schema/object.js';
import type { FieldError } from '../schema/field-errors.js';

export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'UnsupportedMediaType'
  | 'RequestEntityTooLarge'
  | 'Gone'
  | 'Expired'
  | 'TooManyRequests'
  | 'InternalError'
  | 'ServerTimeout'
  | 'Timeout'
  | 'ServiceUnavailable'
  // StatusReasonUnknown: an error that is no API error (a kubelet that cannot be dialled); the body has no reason.
  | '';

export interface StatusCause {
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

export interface StatusDetails {
  readonly name?: string;
  readonly group?: string;
  readonly kind?: string;
  readonly uid?: string;
  readonly causes?: readonly StatusCause[];
  readonly retryAfterSeconds?: number;
}

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

export class StatusError extends Error {
  readonly code: number;
  readonly reason: StatusReason;
  readonly details: StatusDetails | undefined;
  /** Extra response headers (Retry-After). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    opts: { code: number; reason: StatusReason; message: string; details?: StatusDetails; headers?: Record<string, string> },
    cause?: unknown,
  ) {
    super(opts.message, cause === undefined ? undefined : { cause });
    this.name = 'StatusError';
    this.code = opts.code;
    this.reason = opts.reason;
    this.details = opts.details;
    this.headers = opts.headers ?? {};
  }

  /** The Status object, key order as kube-apiserver writes it. */
  toStatus(): StatusBody {
    const body: StatusBody = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: this.code };
    const ordered: StatusBody = { kind: body.kind, apiVersion: body.apiVersion, metadata: body.metadata, status: body.status } as StatusBody;
    if (this.message !== '') ordered.message = this.message;
    if (this.reason !== '') ordered.reason = this.reason;
    if (this.details !== undefined) ordered.details = this.details;
    ordered.code = this.code;
    return ordered;
  }
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}

/** `pods` for core, `deployments.apps` otherwise: how apimachinery names a GroupResource. */
export function qualifiedResource(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

function detailsFor(gr: GroupResource, name: string | undefined, extra: Partial<StatusDetails> = {}): StatusDetails {
  const details: { name?: string; group?: string; kind?: string } = {};
  if (name !== undefined && name !== '') details.name = name;
  if (gr.group !== '') details.group = gr.group;
  if (gr.resource !== '') details.kind = gr.resource;
  return { ...details, ...extra };
}

export function notFound(gr: GroupResource, name: string): StatusError {
  return new StatusError({
    code: 404,
    reason: 'NotFound',
    message: `${qualifiedResource(gr)} "${name}" not found`,
    details: detailsFor(gr, name),
  });
}

export function alreadyExists(gr: GroupResource, name: string): StatusError {
  return new StatusError({
    code: 409,
    reason: 'AlreadyExists',
    message: `${qualifiedResource(gr)} "${name}" already exists`,
    details: detailsFor(gr, name),
  });
}

/** generateName ran out of tries: AlreadyExists with a retry hint, as kube-apiserver does. */
export function generateNameConflict(gr: GroupResource, name: string, retryAfterSeconds: number): StatusError {
  return new StatusError({
    code: 409,
    reason: 'AlreadyExists',
    message: `${qualifiedResource(gr)} "${name}" already exists, the server was not able to generate a unique name for the object`,
    details: detailsFor(gr, name, { retryAfterSeconds }),
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

export const CONFLICT_MODIFIED =
  'the object has been modified; please apply your changes to the latest version and try again';

export function conflict(gr: GroupResource, name: string, why: string = CONFLICT_MODIFIED): StatusError {
  return new StatusError({
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`,
    details: detailsFor(gr, name),
  });
}

/** 422 Invalid; `details.kind` is the Kind (not the resource), as apimachinery does. */
export function invalid(gk: { group: string; kind: string }, name: string, errors: readonly FieldError[]): StatusError {
  const qualifiedKind = gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;
  // A cause carries the error's body without its field, which is the cause's own field (apimachinery's ErrorBody).
  const causes = errors.map((e) => ({ reason: e.type, message: e.field !== '' && e.message.startsWith(`${e.field}: `) ? e.message.slice(e.field.length + 2) : e.message, field: e.field }));
  // apimachinery's ToAggregate names a repeated text once; the causes keep every error.
  const texts = [...new Set(errors.map((e) => e.message))];
  const summary = texts.length === 0 ? '' : texts.length === 1 ? `: ${texts[0]!}` : `: [${texts.join(', ')}]`;
  const details: { name?: string; group?: string; kind: string; causes: StatusCause[] } = { kind: gk.kind, causes };
  if (name !== '') details.name = name;
  if (gk.group !== '') details.group = gk.group;
  return new StatusError({
    code: 422,
    reason: 'Invalid',
    message: `${qualifiedKind} "${name}" is invalid${summary}`,
    details: { name: details.name, group: details.group, kind: details.kind, causes } as StatusDetails,
  });
}

/**
 * 422 Invalid without a kind: apimachinery's NewGenericServerResponse(422), which the
 * patch handler uses for a patch that parses but cannot apply. Its message is fixed;
 * the detail travels as an UnexpectedServerResponse cause.
 */
export function rejected(detail: string): StatusError {
  return new StatusError({
    code: 422,
    reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request',
    details: { causes: [{ reason: 'UnexpectedServerResponse', message: detail }] },
  });
}

export function badRequest(message: string, causes?: readonly StatusCause[]): StatusError {
  return new StatusError({
    code: 400,
    reason: 'BadRequest',
    message,
    ...(causes === undefined ? {} : { details: { causes } }),
  });
}

export function unauthorized(message = 'Unauthorized'): StatusError {
  return new StatusError({ code: 401, reason: 'Unauthorized', message });
}

/** Forbidden for an authorization denial or a policy refusal of a named object. */
/** 403 Forbidden naming the object; `causes` only where kube adds them (PodResizeValidator's reason). */
export function forbidden(gr: GroupResource, name: string, why: string, causes?: StatusCause[]): StatusError {
  const subject = name === '' ? qualifiedResource(gr) : `${qualifiedResource(gr)} "${name}"`;
  return new StatusError({
    code: 403,
    reason: 'Forbidden',
    message: `${subject} is forbidden: ${why}`,
    details: detailsFor(gr, name, causes === undefined ? {} : { causes }),
  });
}

/** Forbidden on a non-resource URL: `forbidden: User "x" cannot get path "/foo"`. */
export function forbiddenPath(why: string): StatusError {
  return new StatusError({ code: 403, reason: 'Forbidden', message: `forbidden: ${why}`, details: {} });
}

export function methodNotSupported(gr: GroupResource, verb: string): StatusError {
  return new StatusError({
    code: 405,
    reason: 'MethodNotAllowed',
    message: `${verb} is not supported on resources of kind "${qualifiedResource(gr)}"`,
    details: detailsFor(gr, undefined),
  });
}

export function notAcceptable(accepted: readonly string[]): StatusError {
  return new StatusError({
    code: 406,
    reason: 'NotAcceptable',
    message: `only the following media types are accepted: ${accepted.join(', ')}`,
  });
}

/**
 * 415, with no details: kube-apiserver's body names only the accepted types. The
 * refused Content-Type is taken so call sites read naturally; it goes nowhere.
 */
export function unsupportedMediaType(_contentType: string, accepted: readonly string[]): StatusError {
  return new StatusError({
    code: 415,
    reason: 'UnsupportedMediaType',
    message: `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  });
}

export function requestEntityTooLarge(message: string): StatusError {
  return new StatusError({ code: 413, reason: 'RequestEntityTooLarge', message: `Request entity too large: ${message}` });
}

/**
 * 431: the request's header block is larger than the server reads. apimachinery has no
 * reason for 431 (Go's server answers it in plain text before any handler); BadRequest
 * is the reason a client that only reads `reason` acts on correctly.
 */
export function requestHeaderFieldsTooLarge(): StatusError {
  return new StatusError({ code: 431, reason: 'BadRequest', message: 'Request Header Fields Too Large' });
}

/**
 * A 4xx the transport raises before any handler (bad request line, bad URL escape,
 * unsupported method, body shorter than Content-Length): the reason apimachinery's
 * NewGenericServerResponse gives that code, BadRequest where it has none.
 */
export function transportError(code: number, message: string): StatusError {
  const reason: StatusReason =
    code === 405 ? 'MethodNotAllowed' : code === 413 ? 'RequestEntityTooLarge' : code === 415 ? 'UnsupportedMediaType' : 'BadRequest';
  return new StatusError({ code, reason, message });
}

/** 410 Expired: a resourceVersion or continue token older than the kept history. */
export function expired(message: string): StatusError {
  return new StatusError({ code: 410, reason: 'Expired', message });
}

/** 504 Timeout, e.g. "Too large resource version" (clients retry it). */
export function timeout(message: string, causes?: readonly StatusCause[], retryAfterSeconds?: number): StatusError {
  const details: StatusDetails = {
    ...(causes === undefined ? {} : { causes }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
  return new StatusError({
    code: 504,
    reason: 'Timeout',
    message: `Timeout: ${message}`,
    ...(Object.keys(details).length === 0 ? {} : { details }),
    ...(retryAfterSeconds === undefined ? {} : { headers: { 'Retry-After': String(retryAfterSeconds) } }),
  });
}

/**
 * 429 TooManyRequests (kube's NewTooManyRequests): retryAfterSeconds in the
 * details and as Retry-After when above 0, and the causes given.
 */
export function tooManyRequests(message: string, retryAfterSeconds: number, causes?: readonly StatusCause[]): StatusError {
  // StatusDetails' field order: causes, then retryAfterSeconds.
  const details: StatusDetails = {
    ...(causes === undefined ? {} : { causes }),
    ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
  };
  return new StatusError({
    code: 429,
    reason: 'TooManyRequests',
    message,
    ...(Object.keys(details).length === 0 ? {} : { details }),
    ...(retryAfterSeconds > 0 ? { headers: { 'Retry-After': String(retryAfterSeconds) } } : {}),
  });
}

export function serviceUnavailable(message: string): StatusError {
  return new StatusError({ code: 503, reason: 'ServiceUnavailable', message });
}

/**
 * An error that is no API error, as kube answers one (ErrorToAPIStatus): 500, no
 * reason, its own text. What a backend kapi reaches for a client answers when it
 * cannot be reached (a pod's kubelet): the client's doing, not a bug of kapi's.
 */
export function backendError(message: string): StatusError {
  return new StatusError({ code: 500, reason: '', message });
}

/** A backend's own 500, passed on as kube passes it (NewInternalError of its text); no bug of kapi's. */
export function backendInternalError(text: string): StatusError {
  return new StatusError({ code: 500, reason: 'InternalError', message: `Internal error occurred: ${text}`, details: { causes: [{ message: text }] } });
}

/**
 * What kube makes of a backend's answer outside 2xx (NewGenericServerResponse, with
 * no verb): the code kept, reason and text by code, ` ( <resource> <name>)` after
 * the fixed texts. `body` is what the backend said (its first 50,000 bytes).
 */
export function genericServerResponse(code: number, resource: string, name: string, body: string): StatusError {
  // kube appends the resource only when it has one (go-restful's own refusals have none).
  const suffix = resource === '' ? '' : ` ( ${resource} ${name})`;
  const fixed: Partial<Record<number, [StatusReason, string]>> = {
    400: ['BadRequest', 'the server rejected our request for an unknown reason'],
    401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
    404: ['NotFound', 'the server could not find the requested resource'],
    405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    409: ['Conflict', 'the server reported a conflict'],
    422: ['Invalid', 'the server rejected our request due to an error in our request'],
    429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
    503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
    504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
  };
  const known = fixed[code];
  let reason: StatusReason;
  let message: string;
  if (known !== undefined) [reason, message] = known;
  else if (code === 403) [reason, message] = ['Forbidden', body];
  else if (code === 406) [reason, message] = ['NotAcceptable', body === '' || body === 'unknown' ? 'the server was unable to respond with a content type that the client supports' : body];
  else if (code === 415) [reason, message] = ['UnsupportedMediaType', body];
  else if (code >= 500) [reason, message] = ['InternalError', `an error on the server (${JSON.stringify(body)}) has prevented the request from succeeding`];
  else [reason, message] = ['', `the server responded with the status code ${code} but did not return more information`];
  return new StatusError({ code, reason, message: `${message}${suffix}`, details: detailsFor({ group: '', resource }, name) });
}

/** Anything unexpected: logged as a bug by the error handler. */
export function internal(cause: unknown): StatusError {
  const text = cause instanceof Error ? cause.message : String(cause);
  return new StatusError(
    {
      code: 500,
      reason: 'InternalError',
      message: `Internal error occurred: ${text}`,
      details: { causes: [{ message: text }] },
    },
    cause,
  );
}
