// Which node a request comes from (kube's pkg/auth/nodeidentifier, the default
// identifier): a user in the system:nodes group named system:node:<nodeName>. A
// user with the prefix but without the group is not a node; one in the group
// named exactly "system:node:" is a node whose name is unknown, which the node
// authorizer answers with "unknown node for user" and NodeRestriction refuses.
// admission/plugins/node-restriction keeps its own copy: admission may not import auth/.
import type { UserInfo } from '../../../schema/user.js';

export const NODES_GROUP = 'system:nodes';
export const NODE_USER_PREFIX = 'system:node:';

export interface NodeIdentity {
  readonly isNode: boolean;
  /** '' when the user is not a node, or is one whose name cannot be told. */
  readonly nodeName: string;
}

export function nodeIdentity(user: UserInfo | undefined): NodeIdentity {
  if (user === undefined || !user.username.startsWith(NODE_USER_PREFIX)) return { isNode: false, nodeName: '' };
  if (!user.groups.includes(NODES_GROUP)) return { isNode: false, nodeName: '' };
  return { isNode: true, nodeName: user.username.slice(NODE_USER_PREFIX.length) };
}
