// The Node authorization mode (kube's NodeAuthorizer, --authorization-mode=Node):
// it answers only for kubelets. Requests from other users get NoOpinion. For a
// node, resources it may touch only in relation to its own pods (secrets, config
// maps, claims, volumes, service accounts, pods) are decided from the graph
// (resource-checks.ts); everything else against the static system:node rules the
// caller passes. It never enumerates rules: kube reports nodes' as incomplete.
import { goQuote } from '../../../schema/go-quote.js';
import type { UserInfo } from '../../../schema/user.js';
import type { AuthorizationAttributes, AuthorizationResult, AuthorizerMode, RulesResult } from '../authorizer.js';
import { policyRuleOf, ruleAllows, type PolicyRule } from '../rbac/rules.js';
import type { NodeGraph } from './node-graph.js';
import { nodeIdentity } from './node-identity.js';
import * as check from './resource-checks.js';

/** An rbac/v1 PolicyRule as the bootstrap policy writes it (apis/rbac's system:node rules fit). */
export interface NodeRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

export interface NodeAuthorizerOptions {
  readonly graph: NodeGraph;
  /**
   * kube's bootstrappolicy.NodeRules(): what every node may do on resources the
   * graph does not decide (events, services, CSRs, ...). The system:node
   * ClusterRole's rules from apis/rbac/bootstrap-policy-cluster-roles.ts.
   */
  readonly nodeRules: readonly NodeRule[];
}

type Check = (req: check.NodeRequest) => AuthorizationResult;

/** `<group>/<resource>` -> the check kube's Authorize switches to. */
const CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ['/secrets', (req) => check.readNamespacedObject(req, 'secret')],
  ['/configmaps', (req) => check.readNamespacedObject(req, 'configmap')],
  ['/persistentvolumeclaims', (req) => (req.attrs.subresource === 'status' ? check.statusUpdate(req, 'pvc') : check.getRelated(req, 'pvc'))],
  ['/persistentvolumes', (req) => check.getRelated(req, 'pv')],
  ['resource.k8s.io/resourceclaims', (req) => check.getRelated(req, 'resourceclaim')],
  ['storage.k8s.io/volumeattachments', (req) => check.getRelated(req, 'volumeattachment')],
  ['/serviceaccounts', check.serviceAccount],
  ['coordination.k8s.io/leases', check.lease],
  ['storage.k8s.io/csinodes', check.csiNode],
  ['resource.k8s.io/resourceslices', check.resourceSlice],
  ['/nodes', check.node],
  ['/pods', check.pod],
]);

/** kube's RulesFor answer for nodes: SelfSubjectRulesReview shows it as the evaluation error. */
export const NODE_RULES_UNSUPPORTED = 'node authorizer does not support user rule resolution';

export function createNodeAuthorizer(opts: NodeAuthorizerOptions): AuthorizerMode {
  const rules: readonly PolicyRule[] = opts.nodeRules.map(policyRuleOf);

  const authorize = (attrs: AuthorizationAttributes): AuthorizationResult => {
    const { isNode, nodeName } = nodeIdentity(attrs.user);
    if (!isNode) return check.noOpinion('');
    if (nodeName === '') return check.noOpinion(`unknown node for user ${goQuote(attrs.user.username)}`);
    if (attrs.isResourceRequest) {
      const decide = CHECKS.get(`${attrs.apiGroup}/${attrs.resource}`);
      if (decide !== undefined) return decide({ graph: opts.graph, nodeName, attrs });
    }
    return rules.some((rule) => ruleAllows(attrs, rule)) ? check.ALLOW : check.noOpinion('');
  };

  const rulesFor = async (user: UserInfo): Promise<RulesResult> => {
    if (!nodeIdentity(user).isNode) return { resourceRules: [], nonResourceRules: [], incomplete: false };
    return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: NODE_RULES_UNSUPPORTED };
  };

  return { authorize, rulesFor };
}
