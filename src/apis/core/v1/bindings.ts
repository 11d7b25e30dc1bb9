// Binding a pod to a node, as kube's BindingREST does (pkg/registry/core/pod/storage):
// POST a v1 Binding to pods/<name>/binding, or to the namespace's `bindings`
// collection (kube's LegacyBindingREST: the Binding's own name names the pod).
// The pod must have no node yet, not be being deleted and carry no scheduling
// gates; then spec.nodeName is the target's name, the Binding's annotations and
// labels are copied onto the pod (PodTopologyLabelsAdmission is on by default in
// 1.36), status.nominatedNodeName is cleared (ClearingNominatedNodeNameAfterBinding)
// and the PodScheduled condition is True. The pod is written through the registry's
// write pipeline as the pods/binding subresource (admission, ObjectMeta validation,
// the optimistic update loop); the answer is kube's Success Status with code 201.
//
// One departure: kube answers a Binding without target.name (or with a target kind
// other than Node) with a 500 (its validation error is not a StatusError); kapi
// answers 422 Invalid with the same causes, as a client mistake deserves.
import { badRequest, conflict, invalid } from '../../../errors/status-error.js';
import { notSupported, path, required, type FieldError } from '../../../schema/field-errors.js';
import { defineResource, type ResourceDefinition, type SubresourceCreateContext, type SubresourceDefinition } from '../../../registry/define-resource.js';
import type { ResourceStore } from '../../../registry/store/types.js';
import { rfc3339 } from '../../../registry/store/metadata.js';
import { setOwnField } from '../../../schema/field-path.js';
import { cloneJson, type KubeObject } from '../../../schema/object.js';
import { type Json, arrayAt, ensureObject, objectAt, stringAt } from './helpers.js';

const BINDING = { group: '', version: 'v1', kind: 'Binding' } as const;
/** Errors about the binding name this resource, as kube's NewConflict(Resource("pods/binding")) does. */
const PODS_BINDING = { group: '', resource: 'pods/binding' } as const;
const PODS = { group: '', resource: 'pods' } as const;

/** What a bind writes to the pod; the pipeline copies exactly these paths of the transformed pod. */
export const BINDING_PATHS: readonly string[] = ['spec.nodeName', 'metadata.annotations', 'metadata.labels', 'status'];

/** Reaches the pods store once the registry exists (main.ts builds the registry from the catalog these definitions join). */
export type PodStoreRef = () => ResourceStore;

/** kube's ValidatePodBinding: the target must be a Node (or name no kind) and be named. */
export function validateBinding(binding: KubeObject): FieldError[] {
  const target = objectAt(binding, 'target');
  const errs: FieldError[] = [];
  const kind = stringAt(target, 'kind');
  if (kind !== '' && kind !== 'Node') errs.push(notSupported(path('target', 'kind'), kind, ['Node', '<empty>']));
  if (stringAt(target, 'name') === '') errs.push(required(path('target', 'name'), ''));
  return errs;
}

/** String entries of a decoded map; keys stay data (`__proto__` is a key like any other). */
function stringEntries(value: unknown): Array<[string, string]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string');
}

/** Copies entries into the map at obj[field] (created when absent), as own properties. */
function mergeInto(obj: Json, field: string, entries: ReadonlyArray<[string, string]>): void {
  if (entries.length === 0) return;
  const into = ensureObject(obj, field);
  for (const [k, v] of entries) setOwnField(into, k, v);
}

/** podutil.UpdatePodCondition for PodScheduled=True: the transition time moves only when the status does. */
function markScheduled(status: Json, now: Date): void {
  const conditions = arrayAt(status, 'conditions');
  const at = conditions.findIndex((c) => c.type === 'PodScheduled');
  const old = at < 0 ? undefined : conditions[at]!;
  const lastTransitionTime = old !== undefined && old.status === 'True' && typeof old.lastTransitionTime === 'string' ? old.lastTransitionTime : rfc3339(now);
  const condition: Json = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime };
  // arrayAt answers a copy: the list is written back either way.
  status.conditions = at < 0 ? [...conditions, condition] : conditions.map((c, i) => (i === at ? condition : c));
}

interface BindRequest {
  readonly binding: KubeObject;
  readonly node: string;
  readonly now: Date;
}

/**
 * The pod as the bind leaves it, or the Conflict kube answers. The Binding's uid
 * and resourceVersion are preconditions on the pod (checked first, as storage
 * checks preconditions before it runs the update).
 */
function bound(current: KubeObject, req: BindRequest): KubeObject {
  const name = current.metadata.name ?? '';
  const { uid, resourceVersion } = req.binding.metadata;
  if (uid !== undefined && uid !== '' && uid !== current.metadata.uid) {
    throw conflict(PODS, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
  }
  if (resourceVersion !== undefined && resourceVersion !== '' && resourceVersion !== current.metadata.resourceVersion) {
    throw conflict(PODS, name, `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`);
  }
  if (current.metadata.deletionTimestamp !== undefined && current.metadata.deletionTimestamp !== null) {
    throw conflict(PODS_BINDING, name, `pod ${name} is being deleted, cannot be assigned to a host`);
  }
  const pod = cloneJson(current) as KubeObject;
  const spec = ensureObject(pod as unknown as Json, 'spec');
  const nodeName = stringAt(spec, 'nodeName');
  if (nodeName !== '') throw conflict(PODS_BINDING, name, `pod ${name} is already assigned to node ${JSON.stringify(nodeName)}`);
  if (arrayAt(spec, 'schedulingGates').length > 0) throw conflict(PODS_BINDING, name, `pod ${name} has non-empty .spec.schedulingGates`);
  spec.nodeName = req.node;
  const meta = pod.metadata as unknown as Json;
  mergeInto(meta, 'annotations', stringEntries(req.binding.metadata.annotations));
  mergeInto(meta, 'labels', stringEntries(req.binding.metadata.labels));
  const status = ensureObject(pod as unknown as Json, 'status');
  delete status.nominatedNodeName;
  markScheduled(status, req.now);
  return pod;
}

/** What kube's BindingREST.Create answers: a Success Status (the create handler fills code 201). */
function success(): KubeObject {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as unknown as KubeObject;
}

/** The checks kube's create handler and BindingREST.Create make before touching the pod. */
function checkBinding(binding: KubeObject, pod: { name: string; namespace: string }): void {
  if ((binding.metadata.name ?? '') !== pod.name) throw badRequest('name in URL does not match name in Binding object');
  const ns = binding.metadata.namespace ?? '';
  if (ns !== '' && ns !== pod.namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const errs = validateBinding(binding);
  if (errs.length > 0) throw invalid(BINDING, binding.metadata.name ?? '', errs);
}

/** pods/<name>/binding: POST a Binding for the stored pod `parent` (404 already answered when absent). */
function bindingSubresource(pods: PodStoreRef): SubresourceDefinition {
  return {
    verbs: ['create'],
    responseKind: BINDING,
    paths: BINDING_PATHS,
    // The pod's own rules forbid spec changes on update; a bind checks what kube checks (above) and
    // ObjectMeta (the pipeline always does), so the annotations and labels it copies are valid ones.
    validateUpdate: () => [],
    create: async (parent: KubeObject, binding: KubeObject, ctx: SubresourceCreateContext): Promise<KubeObject> => {
      const name = parent.metadata.name ?? '';
      const namespace = parent.metadata.namespace ?? '';
      checkBinding(binding, { name, namespace });
      const req: BindRequest = { binding, node: stringAt(objectAt(binding, 'target'), 'name'), now: ctx.now };
      await pods().write({
        verb: 'update',
        subresource: 'binding',
        name,
        namespace,
        ...(ctx.user === undefined ? {} : { user: ctx.user }),
        dryRun: ctx.dryRun,
        transform: (current) => ({ object: bound(current!, req) }),
      });
      return success();
    },
  };
}

/** Pods with their binding subresource. */
export function withBinding(pods: ResourceDefinition, store: PodStoreRef): ResourceDefinition {
  return { ...pods, subresources: { ...pods.subresources, binding: bindingSubresource(store) } };
}

/**
 * The namespace's `bindings` collection (kube's LegacyBindingREST): create only,
 * stores nothing; the Binding's own name names the pod, then it is the same bind
 * as pods/<name>/binding.
 */
export function bindings(pods: PodStoreRef): ResourceDefinition {
  return defineResource({
    ...BINDING,
    plural: 'bindings',
    scope: 'Namespaced',
    virtualCreate: async (binding, ctx) => {
      const sub = pods().subresource('binding');
      if (sub?.create === undefined) throw new Error('pods/binding is not served');
      const name = binding.metadata.name ?? '';
      const ns = binding.metadata.namespace ?? '';
      if (ns !== '' && ns !== (ctx.namespace ?? '')) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      // kube validates the Binding, then its store's key function refuses an empty name.
      const errs = validateBinding(binding);
      if (errs.length > 0) throw invalid(BINDING, name, errs);
      if (name === '') throw badRequest('Name parameter required.');
      const result = await sub.create(binding, { name, namespace: ctx.namespace ?? '', user: ctx.user, dryRun: ctx.dryRun });
      return result.object;
    },
  });
}
