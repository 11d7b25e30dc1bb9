// The filter chain: every request, resource or not (404s, /healthz, /openapi/v3
// included), passes these in order in Fastify's onRequest phase, so nothing reads
// a body before authentication and authorization have passed. A filter throws a
// StatusError to stop the request; the error handler renders it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createAuthenticateFilter, type AuthenticateRequest } from './filters/authenticate.js';
import type { Authorizer } from '../auth/authz/authorizer.js';
import { createAuthorizeFilter, type AuthorizeRequest } from './filters/authorize.js';
import { createImpersonateFilter } from './filters/impersonate.js';
import { requestInfoFilter } from './filters/request-info.js';
import { createTimeoutFilter } from './filters/timeout.js';
import type { RenderStatus } from './error-handler.js';

export type Filter = (request: FastifyRequest, reply: FastifyReply) => Promise<void> | void;

export interface ChainOptions {
  readonly authenticate: AuthenticateRequest;
  readonly authorize: AuthorizeRequest;
  /** What impersonation asks whether the caller may act as someone else (the same authorizer). */
  readonly authorizer: Authorizer;
  /** --anonymous-auth: requests without credentials run as system:anonymous. */
  readonly anonymous: boolean;
  /** --request-timeout in milliseconds; 0 disables. */
  readonly requestTimeoutMs: number;
  readonly renderStatus: RenderStatus;
}

export function createChain(opts: ChainOptions): readonly Filter[] {
  return [
    requestInfoFilter, // everything below needs verb, resource and namespace
    createAuthenticateFilter(opts), // 401 before any other work; everything below needs a user
    // TODO(#3) audit slots in here.
    createImpersonateFilter(opts), // the request runs as the impersonated user from here on
    // TODO(#3) flow control (APF) slots in here.
    createAuthorizeFilter(opts), // last gate before the body is decoded
    createTimeoutFilter({ requestTimeoutMs: opts.requestTimeoutMs, render: opts.renderStatus }), // skips long-running requests
  ];
}
