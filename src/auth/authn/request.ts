// The bridge between the server's filter and the authenticators: builds the
// transport-neutral AuthnRequest from a Fastify request and turns a credential
// rejection into kube's 401 (whose body never says why; the reason goes to the log).
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { unauthorized } from '../../errors/status-error.js';
import type { UserInfo } from '../../schema/user.js';
import { AuthenticationError, type Authenticator, type AuthnRequest } from './authenticator.js';
import { peerCertificateOf } from './peer-certificate.js';

/** The part of a FastifyRequest authentication reads. */
export interface RawRequestLike {
  readonly headers: IncomingHttpHeaders;
  readonly raw: IncomingMessage | Http2ServerRequest;
}

export function authnRequestOf(request: RawRequestLike): AuthnRequest {
  return { headers: request.headers, peerCertificateChain: peerCertificateOf(request.raw) };
}

export interface RequestAuthenticatorOptions {
  readonly authenticator: Authenticator;
  /** Called with the reason before a 401 (kube logs "Unable to authenticate the request"). */
  readonly onRejected?: (err: AuthenticationError) => void;
}

/**
 * The user of a request; undefined when it carries no credentials (the caller
 * decides between anonymous and 401); throws a 401 StatusError for rejected ones.
 */
export function createRequestAuthenticator(
  opts: RequestAuthenticatorOptions,
): (request: RawRequestLike) => Promise<UserInfo | undefined> {
  return async (request) => {
    try {
      return (await opts.authenticator(authnRequestOf(request)))?.user;
    } catch (err) {
      if (!(err instanceof AuthenticationError)) throw err;
      opts.onRejected?.(err);
      throw unauthorized();
    }
  };
}
