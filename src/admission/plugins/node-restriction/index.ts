// NodeRestriction (kube's plugin/pkg/admission/noderestriction): limits what a
// kubelet (a user in system:nodes named system:node:<name>) may write to objects
// of its own node, its pods, and what those pods use; other users pass. The Node
// authorizer lets nodes create and update what they might own, and this plugin,
// which sees the objects, checks that they do. kube runs it as mutating admission
// for create, update and delete; here deletes come through `validate` (below).
import type { UserInfo } from '../../../schema/user.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../plugin.js';
import { admitCSINode, admitCSR, admitLease, admitPVCStatus, admitResourceSlice } from './node-owned.js';
import { admitNode } from './nodes.js';
import { admitPod, admitPodEviction, admitPodStatus } from './pods.js';
import { forbid, q, type NodeRequest, type NodeRestrictionOptions } from './request.js';
import { admitServiceAccount } from './service-accounts.js';

export type { AudienceRequest, NodeRestrictionLookup, NodeRestrictionOptions } from './request.js';

export const NODE_RESTRICTION = 'NodeRestriction';

/** kube's default node identifier; auth/authz/node/node-identity.ts is the same rule (admission may not import auth/). */
function nodeIdentity(user: UserInfo | undefined): { isNode: boolean; nodeName: string } {
  const prefix = 'system:node:';
  if (user === undefined || !user.username.startsWith(prefix) || !user.groups.includes('system:nodes')) return { isNode: false, nodeName: '' };
  return { isNode: true, nodeName: user.username.slice(prefix.length) };
}

type Check = (req: NodeRequest) => void | Promise<void>;

function podCheck(req: NodeRequest): void | Promise<void> {
  switch (req.attrs.subresource) {
    case '':
      return admitPod(req);
    case 'status':
      return admitPodStatus(req);
    case 'eviction':
      return admitPodEviction(req);
    default:
      throw forbid(req.attrs, `unexpected pod subresource ${q(req.attrs.subresource)}, only 'status' and 'eviction' are allowed`);
  }
}

function forbidPVC(req: NodeRequest): never {
  throw forbid(req.attrs, 'may only update PVC status');
}

/** `<group>/<resource>` -> kube's Admit switch; other resources pass. */
const CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ['/pods', podCheck],
  ['/nodes', admitNode],
  ['/persistentvolumeclaims', (req) => (req.attrs.subresource === 'status' ? admitPVCStatus(req) : forbidPVC(req))],
  ['/serviceaccounts', admitServiceAccount],
  ['coordination.k8s.io/leases', admitLease],
  ['storage.k8s.io/csinodes', admitCSINode],
  ['resource.k8s.io/resourceslices', admitResourceSlice],
  ['certificates.k8s.io/certificatesigningrequests', admitCSR],
]);

async function check(attrs: AdmissionAttributes, options: NodeRestrictionOptions): Promise<void> {
  // kube's handler covers create, update and delete; connect (exec, attach, ...) is not its business.
  if (attrs.operation === 'CONNECT') return;
  const { isNode, nodeName } = nodeIdentity(attrs.user);
  if (!isNode) return;
  if (nodeName === '') throw forbid(attrs, `could not determine node from user ${q(attrs.user!.username)}`);
  await CHECKS.get(`${attrs.resource.group}/${attrs.resource.resource}`)?.({ attrs, nodeName, options });
}

/**
 * The plugin. It only refuses, yet runs in the mutating phase as kube's does, so
 * it sees an update before the status strategy resets spec and labels (a spec
 * change sent through status is refused, not silently dropped). The registry runs
 * no mutating admission for deletes (registry/store/delete.ts), so deletes are
 * checked in the validating phase, on the object about to be deleted.
 */
export function nodeRestriction(options: NodeRestrictionOptions): AdmissionPlugin {
  return {
    name: NODE_RESTRICTION,
    admit: (attrs) => (attrs.operation === 'DELETE' ? undefined : check(attrs, options)),
    validate: (attrs) => (attrs.operation === 'DELETE' ? check(attrs, options) : undefined),
  };
}
