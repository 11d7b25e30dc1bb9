// Authentication: establishes the user or answers 401. An unauthenticated caller
// is let through only to the public-info paths (/healthz, /livez, /readyz,
// /version), as kube-apiserver's anonymous authenticator restricted by path
// conditions does; full anonymous access comes with --anonymous-auth.
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../errors/status-error.js';
import type { UserInfo } from '../../schema/user.js';

/** Resolves the user of a request, undefined without credentials; throws 401 for bad ones. */
export type AuthenticateRequest = (request: FastifyRequest) => Promise<UserInfo | undefined>;

const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

export function createAuthenticateFilter(opts: {
  readonly authenticate: AuthenticateRequest;
  readonly anonymousPaths: ReadonlySet<string>;
  readonly anonymousUser?: UserInfo;
}) {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const user = await opts.authenticate(request);
    if (user !== undefined) {
      request.kapi.user = user;
      return;
    }
    if (opts.anonymousPaths.has(request.kapi.info.path)) {
      request.kapi.user = opts.anonymousUser ?? ANONYMOUS;
      return;
    }
    throw unauthorized();
  };
}
