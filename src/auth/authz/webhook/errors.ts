// How a webhook call fails, in apimachinery's terms: a non-2xx answer becomes the
// StatusError client-go makes of it (the body's own Status when it sends one,
// else NewGenericServerResponse's text for the code), and whether the retry loop
// tries again is apiserver's DefaultShouldRetry: an internal error (500 and other
// 5xx but 503), a timeout (504), too many requests (429), a Retry-After, or a
// connection reset. A 503 without Retry-After and every 4xx fail at once.

export interface WebhookCallErrorOptions {
  readonly retryable: boolean;
  /** The exchange ran out of time, or the server said so (504): the metrics' "timeout". */
  readonly timeout?: boolean;
  /** The HTTP status, when there was an answer. */
  readonly statusCode?: number;
}

export class WebhookCallError extends Error {
  override readonly name = 'WebhookCallError';
  readonly retryable: boolean;
  readonly timeout: boolean;
  readonly statusCode: number | undefined;
  constructor(message: string, opts: WebhookCallErrorOptions) {
    super(message);
    this.retryable = opts.retryable;
    this.timeout = opts.timeout ?? false;
    this.statusCode = opts.statusCode;
  }
}

/** metav1.StatusReason values apimachinery knows (errors.go knownReasons); others count as unknown. */
const KNOWN_REASONS: ReadonlySet<string> = new Set([
  'Unauthorized', 'Forbidden', 'NotFound', 'AlreadyExists', 'Conflict', 'Gone', 'Invalid', 'ServerTimeout', 'StoreReadError', 'Timeout',
  'TooManyRequests', 'BadRequest', 'MethodNotAllowed', 'NotAcceptable', 'RequestEntityTooLarge', 'UnsupportedMediaType', 'InternalError',
  'Expired', 'ServiceUnavailable',
]);

/** client-go caps the body quoted in an unstructured error (maxUnstructuredResponseTextBytes). */
const MAX_QUOTED_BODY = 2048;

/** NewGenericServerResponse's reason and message for a POST without a named resource. */
function generic(code: number, serverMessage: string): { reason: string; message: string } {
  switch (code) {
    case 409: return { reason: 'AlreadyExists', message: 'the server reported a conflict' };
    case 404: return { reason: 'NotFound', message: 'the server could not find the requested resource' };
    case 400: return { reason: 'BadRequest', message: 'the server rejected our request for an unknown reason' };
    case 401: return { reason: 'Unauthorized', message: 'the server has asked for the client to provide credentials' };
    case 403: return { reason: 'Forbidden', message: serverMessage };
    case 406: return { reason: 'NotAcceptable', message: serverMessage === '' || serverMessage === 'unknown' ? 'the server was unable to respond with a content type that the client supports' : serverMessage };
    case 415: return { reason: 'UnsupportedMediaType', message: serverMessage };
    case 405: return { reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' };
    case 422: return { reason: 'Invalid', message: 'the server rejected our request due to an error in our request' };
    case 503: return { reason: 'ServiceUnavailable', message: 'the server is currently unable to handle the request' };
    case 504: return { reason: 'Timeout', message: 'the server was unable to return a response in the time allotted, but may still be processing the request' };
    case 429: return { reason: 'TooManyRequests', message: 'the server has received too many requests and has asked us to try again later' };
    default:
      return code >= 500
        ? { reason: 'InternalError', message: `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding` }
        : { reason: '', message: `the server responded with the status code ${code} but did not return more information` };
  }
}

/** A `kind: Status` body that is not a success (client-go's Result.Error), or undefined. */
function statusOf(body: Buffer): { reason: string; message: string; code: number; retryAfterSeconds: number } | undefined {
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const s = v as Record<string, unknown>;
  const field = (k: string) => (Object.hasOwn(s, k) ? s[k] : undefined);
  if (field('kind') !== 'Status' || field('status') === 'Success') return undefined;
  const details = field('details');
  const retry = typeof details === 'object' && details !== null && Object.hasOwn(details, 'retryAfterSeconds') ? (details as Record<string, unknown>).retryAfterSeconds : 0;
  return {
    reason: typeof field('reason') === 'string' ? (field('reason') as string) : '',
    message: typeof field('message') === 'string' ? (field('message') as string) : '',
    code: typeof field('code') === 'number' ? (field('code') as number) : 0,
    retryAfterSeconds: typeof retry === 'number' ? retry : 0,
  };
}

/** DefaultShouldRetry over a StatusError's reason, code and Retry-After. */
function shouldRetry(reason: string, code: number, retryAfterSeconds: number): boolean {
  const unknown = !KNOWN_REASONS.has(reason);
  const internal = reason === 'InternalError' || (unknown && code === 500);
  const timeout = reason === 'Timeout' || (unknown && code === 504);
  const tooMany = reason === 'TooManyRequests' || code === 429;
  return internal || timeout || tooMany || reason === 'ServerTimeout' || retryAfterSeconds > 0;
}

/** The error for a non-2xx answer (or a 2xx one carrying a failed Status). */
export function serverResponseError(res: { statusCode: number; body: Buffer; contentType?: string | undefined; retryAfter?: string | undefined }): WebhookCallError {
  const fromBody = statusOf(res.body);
  if (fromBody !== undefined) {
    const code = fromBody.code !== 0 ? fromBody.code : res.statusCode;
    return new WebhookCallError(fromBody.message, { retryable: shouldRetry(fromBody.reason, code, fromBody.retryAfterSeconds), timeout: res.statusCode === 504, statusCode: res.statusCode });
  }
  // isTextResponse: no content type, or text/*; anything else is quoted as "unknown".
  const media = (res.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const serverMessage = media === '' || media.startsWith('text/') ? res.body.subarray(0, MAX_QUOTED_BODY).toString('utf8').trim() : 'unknown';
  const retryAfter = /^\d+$/.test(res.retryAfter ?? '') ? Number(res.retryAfter) : 0;
  const { reason, message } = generic(res.statusCode, serverMessage);
  return new WebhookCallError(message, { retryable: shouldRetry(reason, res.statusCode, retryAfter), timeout: res.statusCode === 504, statusCode: res.statusCode });
}

/** A 2xx body that is a failed Status is an error too (client-go's Result.Into). */
export function failedStatusIn(body: Buffer, statusCode: number): WebhookCallError | undefined {
  return statusOf(body) === undefined ? undefined : serverResponseError({ statusCode, body });
}

export function isRetryable(err: unknown): boolean {
  return err instanceof WebhookCallError && err.retryable;
}

/** field.ErrorList.ToAggregate's text (errors/aggregate.ts). */
export { aggregateUnique as aggregateMessage } from '../../../errors/aggregate.js';
