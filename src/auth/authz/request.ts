// The bridge between the server's authorize filter and the authorizers: the
// filter hands over the user and the request info, and gets back whether to
// proceed and, if not, kube's 403 message (which the filter wraps in a Status).
import type { UserInfo } from '../../schema/user.js';
import { isPending, type AuthorizationAttributes, type AuthorizationResult, type Authorizer } from './authorizer.js';
import { forbiddenMessageWithReason } from './forbidden-message.js';

/** What authorization reads of endpoints/context.ts's RequestInfo. */
export type RequestAttributes = Omit<AuthorizationAttributes, 'user'>;

export interface RequestAuthorization {
  readonly allowed: boolean;
  /** Empty when allowed. */
  readonly message: string;
}

export function createRequestAuthorizer(
  authorizer: Authorizer,
): (user: UserInfo, info: RequestAttributes) => RequestAuthorization | Promise<RequestAuthorization> {
  return (user, info) => {
    const attrs: AuthorizationAttributes = {
      user,
      verb: info.verb,
      isResourceRequest: info.isResourceRequest,
      path: info.path,
      namespace: info.namespace,
      apiGroup: info.apiGroup,
      apiVersion: info.apiVersion,
      resource: info.resource,
      subresource: info.subresource,
      name: info.name,
      ...(info.labelSelector === undefined ? {} : { labelSelector: info.labelSelector }),
      ...(info.fieldSelector === undefined ? {} : { fieldSelector: info.fieldSelector }),
    };
    const decided = ({ decision, reason }: AuthorizationResult): RequestAuthorization =>
      decision === 'Allow' ? { allowed: true, message: '' } : { allowed: false, message: forbiddenMessageWithReason(attrs, reason) };
    const answer = authorizer(attrs);
    return isPending(answer) ? answer.then(decided) : decided(answer);
  };
}
