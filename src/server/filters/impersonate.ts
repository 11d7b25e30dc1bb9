// Impersonation, after authentication and before authorization (kube's order):
// a request carrying Impersonate-* headers runs as the user they name once the
// caller may impersonate each part (auth/impersonation.ts); otherwise 400 or 403.
import type { FastifyRequest } from 'fastify';
import type { Authorizer } from '../../auth/authz/authorizer.js';
import { impersonate, impersonationHeaders } from '../../auth/impersonation.js';

export function createImpersonateFilter(opts: { readonly authorizer: Authorizer }) {
  return async function impersonateFilter(request: FastifyRequest): Promise<void> {
    const headers = impersonationHeaders(request.raw.rawHeaders);
    if (headers === undefined) return;
    const caller = request.kapi.user;
    if (caller === undefined) throw new Error('impersonation ran before authentication');
    request.kapi.user = await impersonate({ caller, headers, authorizer: opts.authorizer });
  };
}
