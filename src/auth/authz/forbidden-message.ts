// kube-apiserver's 403 wording (endpoints/handlers/responsewriters/errors.go):
// the message says who could not do what where, then the authorizers' reason.
// The chain's authorize filter wraps it with forbidden()/forbiddenPath() from
// errors/status-error.ts, whose GroupResource is the resource alone (details.kind
// = "pods" even for pods/log), as kube's is.
import type { AuthorizationAttributes } from './authorizer.js';
import { goQuote } from '../../schema/go-quote.js';

/**
 * `User "bob" cannot list resource "pods" in API group "" in the namespace "default"`,
 * `... at the cluster scope`, `User "bob" cannot get path "/foo"`.
 */
export function forbiddenMessage(attrs: AuthorizationAttributes): string {
  const user = goQuote(attrs.user.username);
  if (!attrs.isResourceRequest) return `User ${user} cannot ${attrs.verb} path ${goQuote(attrs.path)}`;
  const resource = attrs.subresource === '' ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
  const what = `User ${user} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(attrs.apiGroup)}`;
  return attrs.namespace === '' ? `${what} at the cluster scope` : `${what} in the namespace ${goQuote(attrs.namespace)}`;
}

/** The message plus the authorizers' reason, as kube joins them (`msg: reason`). */
export function forbiddenMessageWithReason(attrs: AuthorizationAttributes, reason: string): string {
  const message = forbiddenMessage(attrs);
  return reason === '' ? message : `${message}: ${reason}`;
}
