// Authorization: the last gate before a body is read. Resource requests are
// denied as `<resource> "<name>" is forbidden: User "u" cannot <verb> ...`,
// non-resource ones as `forbidden: User "u" cannot get path "/x"`, the texts
// kube-apiserver writes.
import type { FastifyRequest } from 'fastify';
import { forbidden, forbiddenPath } from '../../errors/status-error.js';
import type { RequestInfo } from '../../endpoints/context.js';
import type { UserInfo } from '../../schema/user.js';

export interface AuthorizeDecision {
  readonly allowed: boolean;
  /** Why, in kube's words: `User "bob" cannot list resource "pods" ...` (+ an authorizer reason). */
  readonly message: string;
}

/** Answers at once when every mode asked does (the chain then needs no promise for this filter). */
export type AuthorizeRequest = (user: UserInfo, info: RequestInfo) => AuthorizeDecision | Promise<AuthorizeDecision>;

export function createAuthorizeFilter(opts: { readonly authorize: AuthorizeRequest }) {
  const enforce = (info: RequestInfo, decision: AuthorizeDecision): void => {
    if (decision.allowed) return;
    if (!info.isResourceRequest) throw forbiddenPath(decision.message);
    // details.kind is the resource alone; the message already names any subresource.
    throw forbidden({ group: info.apiGroup, resource: info.resource }, info.name, decision.message);
  };
  // The chain awaits only filters that return a promise (server/app.ts).
  return function authorize(request: FastifyRequest): Promise<void> | undefined {
    const { info, user } = request.kapi;
    if (user === undefined) throw new Error('authorization ran before authentication');
    const decision = opts.authorize(user, info);
    if (typeof (decision as { then?: unknown }).then === 'function') return (decision as Promise<AuthorizeDecision>).then((d) => enforce(info, d));
    enforce(info, decision as AuthorizeDecision);
    return undefined;
  };
}
