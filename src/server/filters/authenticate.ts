// Authentication: establishes the user or answers 401. A request without
// credentials runs as system:anonymous (group system:unauthenticated) when
// --anonymous-auth is on, as kube-apiserver's anonymous authenticator does; what
// it may reach is the authorizer's decision. With it off, such a request is 401.
// Credentials that are presented and refused are 401 either way.
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../errors/status-error.js';
import { bearerHeaderWarning } from '../../auth/authn/authenticator.js';
import type { UserInfo } from '../../schema/user.js';

/** Resolves the user of a request, undefined without credentials; throws 401 for bad ones. */
export type AuthenticateRequest = (request: FastifyRequest) => Promise<UserInfo | undefined>;

const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

export function createAuthenticateFilter(opts: {
  readonly authenticate: AuthenticateRequest;
  /** --anonymous-auth. */
  readonly anonymous: boolean;
}) {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    // kube's bearertoken authenticator warns when it ignores a header for a space before the token.
    const warning = bearerHeaderWarning(request.headers);
    if (warning !== undefined) request.kapi.warnings.push(warning);
    const user = await opts.authenticate(request);
    if (user !== undefined) {
      request.kapi.user = user;
      return;
    }
    if (opts.anonymous) {
      request.kapi.user = ANONYMOUS;
      return;
    }
    throw unauthorized();
  };
}
