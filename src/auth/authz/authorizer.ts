// Authorization: the last filter before a handler reads the body. An Authorizer
// looks at who asks (UserInfo) and what the request means (RequestInfo's
// attributes) and answers Allow, Deny or NoOpinion with a reason; the union
// (union.ts) decides, and anything but Allow becomes kube's 403 text
// (forbidden-message.ts).
import type { UserInfo } from '../../schema/user.js';

/** NoOpinion lets the next authorizer decide; the chain treats "nobody allowed" as Deny. */
export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

/** k8s.io/apiserver/pkg/authorization/authorizer.Attributes. */
export interface AuthorizationAttributes {
  readonly user: UserInfo;
  /** Resource verb (get, list, watch, create, ...) or, for non-resource URLs, the lower-case HTTP method. */
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

export interface AuthorizationResult {
  readonly decision: Decision;
  /** Why, for the 403 message and audit; '' when there is nothing to say. */
  readonly reason: string;
}

/** May be called concurrently; must not mutate the attributes. Throws only on failure to decide (a 500). */
export type Authorizer = (attrs: AuthorizationAttributes) => Promise<AuthorizationResult>;

/** Members may do everything, whatever the configured modes say. */
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';
