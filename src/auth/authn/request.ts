// The bridge between the server's filter and the authenticators: builds the
// transport-neutral AuthnRequest from a Fastify request and turns a credential
// rejection into kube's 401 (whose body never says why; the reason goes to the log).
// Given the effective anonymous configuration (--anonymous-auth, or the
// `anonymous` section of --authentication-config), it also decides requests
// without credentials, as kube's anonymous authenticator does at the end of the
// chain: system:anonymous where allowed (every path, or only the listed ones), 401
// elsewhere.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { unauthorized } from '../../errors/status-error.js';
import type { UserInfo } from '../../schema/user.js';
import { AuthenticationError, SYSTEM_ANONYMOUS, SYSTEM_UNAUTHENTICATED, type Authenticator, type AuthnRequest } from './authenticator.js';
import type { AnonymousAuthConfig } from './authentication-config.js';
import { peerCertificateOf } from './peer-certificate.js';

/** The part of a FastifyRequest authentication reads. */
export interface RawRequestLike {
  readonly headers: IncomingHttpHeaders;
  readonly raw: IncomingMessage | Http2ServerRequest;
}

export function authnRequestOf(request: RawRequestLike): AuthnRequest {
  return { headers: request.headers, peerCertificateChain: peerCertificateOf(request.raw) };
}

export interface RequestAuthenticatorOptions<R extends RawRequestLike = RawRequestLike> {
  readonly authenticator: Authenticator;
  /** Receives the warnings an accepting authenticator answered (they become Warning headers). */
  readonly onWarnings?: (request: R, warnings: readonly string[]) => void;
  /** Called with the reason before a 401 (kube logs "Unable to authenticate the request"). */
  readonly onRejected?: (err: AuthenticationError) => void;
  /**
   * Requests without credentials: absent, they answer undefined (the caller
   * decides); present, they are system:anonymous where `enabled` and a condition
   * (if any) names the path, else 401.
   */
  readonly anonymous?: AnonymousAuthConfig;
}

const ANONYMOUS: UserInfo = { username: SYSTEM_ANONYMOUS, groups: [SYSTEM_UNAUTHENTICATED] };

/** The request's path as Go's URL.Path holds it: without the query, percent-decoded. */
function requestPath(request: RawRequestLike): string {
  const url = request.raw.url ?? '/';
  const raw = url.split('?', 1)[0]!;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** kube's anonymous.NewAuthenticator: every path without conditions, else exactly the listed ones. */
function anonymousAllowed(config: AnonymousAuthConfig, request: RawRequestLike): boolean {
  if (!config.enabled) return false;
  if (config.conditions.length === 0) return true;
  const p = requestPath(request);
  return config.conditions.some((c) => c.path === p);
}

/**
 * The user of a request; undefined when it carries no credentials (the caller
 * decides between anonymous and 401); throws a 401 StatusError for rejected ones.
 */
export function createRequestAuthenticator<R extends RawRequestLike = RawRequestLike>(
  opts: RequestAuthenticatorOptions<R>,
): (request: R) => Promise<UserInfo | undefined> {
  return async (request) => {
    let user: UserInfo | undefined;
    try {
      const result = await opts.authenticator(authnRequestOf(request));
      user = result?.user;
      if (result?.warnings !== undefined && result.warnings.length > 0) opts.onWarnings?.(request, result.warnings);
    } catch (err) {
      if (!(err instanceof AuthenticationError)) throw err;
      opts.onRejected?.(err);
      throw unauthorized();
    }
    if (user !== undefined || opts.anonymous === undefined) return user;
    if (anonymousAllowed(opts.anonymous, request)) return ANONYMOUS;
    throw unauthorized();
  };
}
