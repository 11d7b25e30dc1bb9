// Pods a node may write (kube's admitPod, admitPodStatus, admitPodEviction): it
// creates only mirror pods of its own (bound to it, owned by its Node object,
// referencing no other API object), deletes, evicts and reports status only for
// pods bound to it, and may not change labels or claim statuses through status.
import { getField, ownField } from '../../../schema/field-path.js';
import type { KubeObject } from '../../../schema/object.js';
import { apiObjectReference } from './api-references.js';
import { forbid, list, mustGet, q, semanticEqual, str, type NodeRequest } from './request.js';

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

const nodeNameOf = (pod: KubeObject | undefined): string => str(getField(pod, 'spec.nodeName'));

function isMirrorPod(pod: KubeObject): boolean {
  const annotations = ownField(pod.metadata, 'annotations');
  return annotations !== null && typeof annotations === 'object' && Object.hasOwn(annotations, MIRROR_POD_ANNOTATION);
}

async function admitMirrorPodCreate(req: NodeRequest): Promise<void> {
  const { attrs, nodeName } = req;
  const pod = attrs.object;
  // Go's %T of a nil object; the registry always hands a create its object.
  if (pod === undefined) throw forbid(attrs, 'unexpected type <nil>');
  if (!isMirrorPod(pod)) throw forbid(attrs, `pod does not have ${q(MIRROR_POD_ANNOTATION)} annotation, node ${q(nodeName)} can only create mirror pods`);
  if (nodeNameOf(pod) !== nodeName) throw forbid(attrs, `node ${q(nodeName)} can only create pods with spec.nodeName set to itself`);
  const owners = list(ownField(pod.metadata, 'ownerReferences'));
  if (owners.length > 1) throw forbid(attrs, `node ${q(nodeName)} can only create pods with a single owner reference set to itself`);
  const owner = owners[0];
  if (owner === undefined || str(ownField(owner, 'apiVersion')) !== 'v1' || str(ownField(owner, 'kind')) !== 'Node' || str(ownField(owner, 'name')) !== nodeName) {
    throw forbid(attrs, `node ${q(nodeName)} can only create pods with an owner reference set to itself`);
  }
  if (ownField(owner, 'controller') !== true) throw forbid(attrs, `node ${q(nodeName)} can only create pods with a controller owner reference set to itself`);
  if (ownField(owner, 'blockOwnerDeletion') === true) throw forbid(attrs, `node ${q(nodeName)} must not set blockOwnerDeletion on an owner reference`);
  const node = await mustGet(req, { resource: 'node', name: nodeName, wrap: (err) => `error looking up node ${nodeName} to verify uid: ${err}` }, () =>
    req.options.lookup.getNode(nodeName),
  );
  const ownerUID = str(ownField(owner, 'uid'));
  const nodeUID = node.metadata.uid ?? '';
  if (ownerUID !== nodeUID) throw forbid(attrs, `node ${nodeName} UID mismatch: expected ${ownerUID} got ${nodeUID}`);

  const reference = apiObjectReference(pod);
  if (reference instanceof Error) throw forbid(attrs, `error checking mirror pod for API references: ${reference.message}`);
  if (reference !== undefined) throw forbid(attrs, `node ${q(nodeName)} can not create pods that reference ${reference}`);
}

/** The pod a delete, eviction or token names: the stored one the request carries, else a lookup. */
function existingPod(req: NodeRequest, name: string): Promise<KubeObject> {
  const { attrs, options } = req;
  if (attrs.oldObject !== undefined && attrs.oldObject.metadata.name === name) return Promise.resolve(attrs.oldObject);
  return mustGet(req, { resource: 'pod', name }, () => options.lookup.getPod(attrs.namespace, name));
}

export async function admitPod(req: NodeRequest): Promise<void> {
  const { attrs, nodeName } = req;
  switch (attrs.operation) {
    case 'CREATE':
      return admitMirrorPodCreate(req);
    case 'DELETE': {
      const pod = await existingPod(req, attrs.name);
      if (nodeNameOf(pod) !== nodeName) throw forbid(attrs, `node ${q(nodeName)} can only delete pods with spec.nodeName set to itself`);
      return;
    }
    default:
      throw forbid(attrs, `unexpected operation ${q(attrs.operation)}, node ${q(nodeName)} can only create and delete mirror pods`);
  }
}

/** labels.Equals: the same keys and values, an absent map equal to an empty one. */
function labelsEqual(a: unknown, b: unknown): boolean {
  const entries = (m: unknown): [string, unknown][] => (m !== null && typeof m === 'object' ? Object.entries(m) : []);
  const ea = entries(a);
  const eb = new Map(entries(b));
  return ea.length === eb.size && ea.every(([k, v]) => eb.has(k) && eb.get(k) === v);
}

/** kube's resourceClaimStatusesEqual: same order, names and claim names (absent differs from ""). */
function claimStatusesEqual(a: unknown, b: unknown): boolean {
  const la = list(a);
  const lb = list(b);
  return la.length === lb.length && la.every((s, i) => str(ownField(s, 'name')) === str(ownField(lb[i], 'name')) && (ownField(s, 'resourceClaimName') ?? null) === (ownField(lb[i], 'resourceClaimName') ?? null));
}

function extendedClaimStatusEqual(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  return str(ownField(a, 'resourceClaimName')) === str(ownField(b, 'resourceClaimName')) && semanticEqual(ownField(a, 'requestMappings'), ownField(b, 'requestMappings'));
}

export function admitPodStatus(req: NodeRequest): void {
  const { attrs, nodeName } = req;
  if (attrs.operation !== 'UPDATE') throw forbid(attrs, `unexpected operation ${q(attrs.operation)}`);
  const oldPod = attrs.oldObject;
  const newPod = attrs.object;
  if (nodeNameOf(oldPod) !== nodeName) throw forbid(attrs, `node ${q(nodeName)} can only update pod status for pods with spec.nodeName set to itself`);
  if (!labelsEqual(getField(oldPod, 'metadata.labels'), getField(newPod, 'metadata.labels'))) throw forbid(attrs, `node ${q(nodeName)} cannot update labels through pod status`);
  if (!claimStatusesEqual(getField(oldPod, 'status.resourceClaimStatuses'), getField(newPod, 'status.resourceClaimStatuses'))) {
    throw forbid(attrs, `node ${q(nodeName)} cannot update resource claim statues`);
  }
  if (!extendedClaimStatusEqual(getField(oldPod, 'status.extendedResourceClaimStatus'), getField(newPod, 'status.extendedResourceClaimStatus'))) {
    throw forbid(attrs, `node ${q(nodeName)} cannot update extended resource claim status`);
  }
}

export async function admitPodEviction(req: NodeRequest): Promise<void> {
  const { attrs, nodeName } = req;
  // Go formats these two with %s, unquoted.
  if (attrs.operation !== 'CREATE') throw forbid(attrs, `unexpected operation ${attrs.operation}`);
  // The URL's pod name wins over the one in the submitted Eviction.
  const podName = attrs.name !== '' ? attrs.name : str(getField(attrs.object, 'metadata.name'));
  if (podName === '') throw forbid(attrs, 'could not determine pod from request data');
  const pod = await mustGet(req, { resource: 'pod', name: podName }, () => req.options.lookup.getPod(attrs.namespace, podName));
  if (nodeNameOf(pod) !== nodeName) throw forbid(attrs, `node ${nodeName} can only evict pods with spec.nodeName set to itself`);
}
