// The node authorizer's per-resource answers (kube's node_authorizer.go), each
// for a request already known to come from node `nodeName`. Reads of objects a
// pod uses go through the graph; writes to a node's own objects are allowed here
// by name or left to NodeRestriction (which sees the object) where the name is
// not known yet. Every refusal is NoOpinion with kube's reason, so a later mode
// (RBAC) may still allow; kube never answers Deny from this mode.
import { goQuote } from '../../../schema/go-quote.js';
import type { AuthorizationAttributes, AuthorizationResult } from '../authorizer.js';
import { requiresField } from './field-selector.js';
import type { VertexType } from './graph.js';
import type { NodeGraph } from './node-graph.js';

export const ALLOW: AuthorizationResult = { decision: 'Allow', reason: '' };

export function noOpinion(reason: string): AuthorizationResult {
  return { decision: 'NoOpinion', reason };
}

/** kube's NamespaceNodeLease. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

export interface NodeRequest {
  readonly graph: NodeGraph;
  readonly nodeName: string;
  readonly attrs: AuthorizationAttributes;
}

/** kube's authorize: allowed when the named object reaches the node in the graph. */
export function related(req: NodeRequest, type: VertexType): AuthorizationResult {
  const { attrs, nodeName } = req;
  if (attrs.name === '') return noOpinion('No Object name found');
  if (req.graph.hasPathFrom(nodeName, type, attrs.namespace, attrs.name)) return ALLOW;
  return noOpinion(`no relationship found between node '${nodeName}' and this object`);
}

/** Secrets and config maps: get, list and watch of one named object a pod of the node uses. */
export function readNamespacedObject(req: NodeRequest, type: VertexType): AuthorizationResult {
  const { attrs } = req;
  if (attrs.verb !== 'get' && attrs.verb !== 'list' && attrs.verb !== 'watch') return noOpinion('can only read resources of this type');
  if (attrs.subresource !== '') return noOpinion('cannot read subresource');
  if (attrs.namespace === '') return noOpinion('can only read namespaced object of this type');
  return related(req, type);
}

export function getRelated(req: NodeRequest, type: VertexType): AuthorizationResult {
  if (req.attrs.verb !== 'get') return noOpinion('can only get individual resources of this type');
  if (req.attrs.subresource !== '') return noOpinion('cannot get subresource');
  return related(req, type);
}

/** PVC status (volume expansion): update and patch of a claim a pod of the node uses. */
export function statusUpdate(req: NodeRequest, type: VertexType): AuthorizationResult {
  if (req.attrs.verb !== 'update' && req.attrs.verb !== 'patch') return noOpinion('can only get/update/patch this type');
  if (req.attrs.subresource !== 'status') return noOpinion('can only update status subresource');
  return related(req, type);
}

/**
 * Service accounts: get of one a pod of the node runs as (credential providers,
 * KubeletServiceAccountTokenForCredentialProviders, on by default since 1.34), and
 * tokens for it (NodeRestriction then checks the token is bound to such a pod).
 */
export function serviceAccount(req: NodeRequest): AuthorizationResult {
  const { attrs } = req;
  if (attrs.verb === 'get' && attrs.subresource === '') return readNamespacedObject(req, 'serviceAccount');
  if (attrs.verb !== 'create' || attrs.name === '') return noOpinion('can only create tokens for individual service accounts');
  if (attrs.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
  return req.graph.hasPathFrom(req.nodeName, 'serviceAccount', attrs.namespace, attrs.name) ? ALLOW : noOpinion(`no relationship found between node '${req.nodeName}' and this object`);
}

const OWN_OBJECT_VERBS: ReadonlySet<string> = new Set(['get', 'create', 'update', 'patch', 'delete']);

/** Its own Lease in kube-node-lease; on create the name is not known here, NodeRestriction checks it. */
export function lease(req: NodeRequest): AuthorizationResult {
  const { attrs } = req;
  if (!OWN_OBJECT_VERBS.has(attrs.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
  if (attrs.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the ${goQuote(NODE_LEASE_NAMESPACE)} system namespace`);
  if (attrs.verb !== 'create' && attrs.name !== req.nodeName) return noOpinion('can only access node lease with the same name as the requesting node');
  return ALLOW;
}

export function csiNode(req: NodeRequest): AuthorizationResult {
  const { attrs } = req;
  if (!OWN_OBJECT_VERBS.has(attrs.verb)) return noOpinion('can only get, create, update, patch, or delete a CSINode');
  if (attrs.subresource !== '') return noOpinion('cannot authorize CSINode subresources');
  if (attrs.verb !== 'create' && attrs.name !== req.nodeName) return noOpinion('can only access CSINode with the same name as the requesting node');
  return ALLOW;
}

/** Its own ResourceSlices: by graph edge once they exist, by a spec.nodeName selector for collections. */
export function resourceSlice(req: NodeRequest): AuthorizationResult {
  const { attrs } = req;
  if (attrs.subresource !== '') return noOpinion('cannot authorize ResourceSlice subresources');
  switch (attrs.verb) {
    case 'create':
      return ALLOW;
    case 'get':
    case 'update':
    case 'patch':
    case 'delete':
      return related(req, 'resourceslice');
    case 'watch':
    case 'list':
    case 'deletecollection':
      if (requiresField(attrs.fieldSelector, 'spec.nodeName', req.nodeName)) return ALLOW;
      return noOpinion('can only list/watch/deletecollection resourceslices with nodeName field selector');
    default:
      return noOpinion('only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection');
  }
}

/** Node objects (AuthorizeNodeWithSelectors, GA): read only its own; writes are NodeRestriction's to limit. */
export function node(req: NodeRequest): AuthorizationResult {
  const { attrs, nodeName } = req;
  if (attrs.subresource === '') {
    if (attrs.verb === 'create' || attrs.verb === 'update' || attrs.verb === 'patch') return ALLOW;
    if (attrs.verb === 'get' || attrs.verb === 'list' || attrs.verb === 'watch') {
      // By name, not by graph: a kubelet reads its Node before it has created it.
      if (attrs.name === nodeName) return ALLOW;
      if (attrs.name === '') return noOpinion(`node '${nodeName}' cannot read all nodes, only its own Node object`);
      return noOpinion(`node '${nodeName}' cannot read '${attrs.name}', only its own Node object`);
    }
  } else if (attrs.subresource === 'status' && (attrs.verb === 'update' || attrs.verb === 'patch')) {
    return ALLOW;
  }
  return noOpinion('');
}

/** Pods (AuthorizeNodeWithSelectors, GA): its own by graph or spec.nodeName selector; writes left to NodeRestriction. */
export function pod(req: NodeRequest): AuthorizationResult {
  const { attrs, nodeName } = req;
  switch (attrs.subresource) {
    case '':
      if (attrs.verb === 'get') return getRelated(req, 'pod');
      if (attrs.verb === 'list' || attrs.verb === 'watch') {
        if (requiresField(attrs.fieldSelector, 'spec.nodeName', nodeName)) return ALLOW;
        if (attrs.name !== '') return related(req, 'pod');
        return noOpinion('can only list/watch pods with spec.nodeName field selector');
      }
      // Mirror pods; NodeRestriction limits them to ones bound to this node.
      if (attrs.verb === 'create' || attrs.verb === 'delete') return ALLOW;
      break;
    case 'status':
      if (attrs.verb === 'update' || attrs.verb === 'patch') return ALLOW;
      break;
    case 'eviction':
      if (attrs.verb === 'create') return ALLOW;
      break;
  }
  return noOpinion('');
}
