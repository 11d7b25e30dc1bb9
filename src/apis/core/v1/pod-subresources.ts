// The two pod subresources that change the spec of a pod that exists, as kube's
// EphemeralContainersREST and ResizeREST do (GET, PUT and PATCH, each answering the
// whole Pod):
// - pods/ephemeralcontainers (`kubectl debug <pod> --image=…`): a write changes
//   spec.ephemeralContainers only; containers may be added, never removed or changed.
// - pods/resize (`kubectl patch pod --subresource resize`): a write changes each
//   container's resources and resizePolicy (and the pod-level resources) only;
//   cpu and memory may move, the QoS class may not, nothing may be removed.
// Everything else a request carries is dropped, not refused, as in kube. Both move
// metadata.generation when the spec changes. The 1.36 feature gates these follow are
// on by default there: InPlacePodLevelResourcesVerticalScaling and
// InPlacePodVerticalScalingInitContainers (non-sidecar init containers resize too).
import type { SubresourceDefinition } from '../../../registry/define-resource.js';
import { type FieldError, type FieldPath, forbiddenField, invalidValue, path, unnamedPath } from '../../../schema/field-errors.js';
import { deepEqual } from '../../../registry/validation/common.js';
import { cloneJson, type KubeObject } from '../../../schema/object.js';
import { type Json, bumpGenerationIfChanged, describeChanges, ensureObject, itemsAt, objectAt, stringAt } from './helpers.js';
import { validatePodSpec } from './pod-spec-validation.js';
import { podQOSClass } from './pod-qos.js';

/** The annotation the kubelet puts on the mirror of a static pod. */
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const RESIZABLE = ['cpu', 'memory'] as const;
const CONTAINER_LISTS = ['containers', 'initContainers'] as const;

function isMirrorPod(pod: KubeObject): boolean {
  const annotations = pod.metadata.annotations;
  return annotations !== undefined && Object.hasOwn(annotations, MIRROR_POD_ANNOTATION);
}

/** The spec of a write through either subresource is checked whole, as validatePodMetadataAndSpec does. */
function specErrors(pod: KubeObject): FieldError[] {
  return validatePodSpec(objectAt(pod, 'spec') ?? {}, path('spec'), { isPod: true });
}

/** kube's ValidatePodEphemeralContainersUpdate. */
export function validateEphemeralContainersUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  const errs = specErrors(next);
  if (isMirrorPod(prev)) return [forbiddenField(unnamedPath(), 'static pods do not support ephemeral containers')];
  // Patches do not keep the order, so each stored container is looked up by name.
  const byName = new Map<string, Json>();
  for (const c of itemsAt(objectAt(next, 'spec'), 'ephemeralContainers')) byName.set(stringAt(c, 'name'), c);
  const p = path('spec', 'ephemeralContainers');
  for (const old of itemsAt(objectAt(prev, 'spec'), 'ephemeralContainers')) {
    const name = stringAt(old, 'name');
    const now = byName.get(name);
    if (now === undefined) errs.push(forbiddenField(p, `existing ephemeral containers ${JSON.stringify(name)} may not be removed\n`));
    else if (!deepEqual(old, now)) errs.push(forbiddenField(p.key(name), `existing ephemeral containers ${JSON.stringify(name)} may not be changed\n${describeChanges(now, old, '')}`));
  }
  return errs;
}

export const EPHEMERAL_CONTAINERS_SUBRESOURCE: SubresourceDefinition = {
  verbs: ['get', 'patch', 'update'],
  path: 'spec.ephemeralContainers',
  validateUpdate: validateEphemeralContainersUpdate,
  prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
};

/**
 * kube's dropNonResizeUpdates: the stored containers with the request's resources
 * and resizePolicy, when both lists name the same containers in the same order;
 * otherwise the request's lists, which validation then refuses. Pod-level
 * resources come from the request (InPlacePodLevelResourcesVerticalScaling).
 */
export function copyResizeFields(next: KubeObject, view: KubeObject): void {
  const spec = ensureObject(next, 'spec');
  const asked = objectAt(view, 'spec') ?? {};
  if (CONTAINER_LISTS.some((l) => itemsAt(asked, l).length !== itemsAt(spec, l).length)) {
    next.spec = cloneJson(asked);
    return;
  }
  for (const list of CONTAINER_LISTS) {
    const stored = itemsAt(spec, list);
    const sent = itemsAt(asked, list);
    if (sent.some((c, i) => stringAt(c, 'name') !== stringAt(stored[i], 'name'))) {
      spec[list] = cloneJson(asked[list]);
      continue;
    }
    stored.forEach((c, i) => {
      for (const field of ['resources', 'resizePolicy']) copyMember(c, sent[i]!, field);
    });
  }
  copyMember(spec, asked, 'resources');
}

function copyMember(into: Json, from: Json, field: string): void {
  if (Object.hasOwn(from, field) && from[field] !== undefined) into[field] = cloneJson(from[field]);
  else delete into[field];
}

/**
 * A copy of `c` (a container, or `{resources}` of the pod) with its cpu and memory
 * requests and limits as `prev` has them, and empty request or limit lists dropped:
 * Go's semantic equality takes an empty map for an absent one.
 */
function withResizableMasked(c: Json, prev: Json | undefined): Json {
  const masked = cloneJson(c);
  const resources = objectAt(masked, 'resources');
  if (resources === undefined) return masked;
  const old = objectAt(prev, 'resources');
  for (const kind of ['requests', 'limits'] as const) {
    const list = ensureObject(resources, kind);
    const oldList = objectAt(old, kind);
    for (const name of RESIZABLE) {
      if (oldList !== undefined && Object.hasOwn(oldList, name)) list[name] = oldList[name];
      else delete list[name];
    }
    if (Object.keys(list).length === 0) delete resources[kind];
  }
  return masked;
}

/** `c` as Go's semantic equality sees it: empty request and limit lists are absent ones. */
function semantic(c: Json | undefined): Json | undefined {
  const resources = objectAt(c, 'resources');
  if (resources === undefined) return c;
  const copy = cloneJson(c!);
  const r = objectAt(copy, 'resources')!;
  for (const kind of ['requests', 'limits']) {
    const list = objectAt(r, kind);
    if (list !== undefined && Object.keys(list).length === 0) delete r[kind];
  }
  return copy;
}

/** Keys of `kind` (requests or limits) the stored resources had and `next` lacks: kube refuses removals. */
function addRemovalErrors(errs: FieldError[], next: Json, prev: Json | undefined, rp: FieldPath, prefix: string): void {
  for (const [kind, what] of [
    ['requests', 'resource requests'],
    ['limits', 'resource limits'],
  ] as const) {
    const old = objectAt(prev, kind);
    const now = objectAt(next, kind) ?? {};
    if (old !== undefined && Object.keys(old).some((k) => !Object.hasOwn(now, k))) errs.push(forbiddenField(rp.child(kind), `${prefix}${what} cannot be removed`));
  }
}

function hasResourceEntries(resources: Json | undefined): boolean {
  return Object.keys(objectAt(resources, 'requests') ?? {}).length > 0 || Object.keys(objectAt(resources, 'limits') ?? {}).length > 0;
}

/** kube's validatePodLevelResourcesResize. */
function addPodLevelErrors(errs: FieldError[], next: Json, prev: Json): void {
  const now = objectAt(next, 'resources');
  const old = objectAt(prev, 'resources');
  const rp = path('spec', 'resources');
  if (old !== undefined && now === undefined) {
    errs.push(forbiddenField(rp, 'pod-level resources cannot be removed'));
    return;
  }
  addRemovalErrors(errs, now ?? {}, old, rp, 'pod-level ');
  if (!deepEqual(withResizableMasked({ resources: now }, { resources: old }), semantic({ resources: old }))) errs.push(forbiddenField(path('spec'), 'only cpu and memory resources are mutable at pod-level'));
}

/** kube's isPodResizeRequestSupported: a running container whose status reports no resources is on a node that cannot resize. */
function nodeSupportsResize(pod: KubeObject): boolean {
  const running = itemsAt(objectAt(pod, 'status'), 'containerStatuses').find((s) => objectAt(objectAt(s, 'state'), 'running') !== undefined);
  return running === undefined || (running.resources !== undefined && running.resources !== null);
}

/** The order checks: a resize neither adds, removes, renames nor reorders containers. */
function addOrderErrors(errs: FieldError[], next: Json, prev: Json): void {
  for (const list of CONTAINER_LISTS) {
    const now = itemsAt(next, list);
    const old = itemsAt(prev, list);
    const lp = path('spec', list);
    if (now.length !== old.length) {
      errs.push(forbiddenField(lp, `${list} may not be added or removed on resize`));
      continue;
    }
    now.forEach((c, i) => {
      if (stringAt(c, 'name') !== stringAt(old[i], 'name')) errs.push(forbiddenField(lp.index(i).child('name'), `${list} may not be renamed or reordered on resize`));
    });
  }
}

/** kube's ValidatePodResize (1.36, with the gates named at the top of this file). */
export function validatePodResize(next: KubeObject, prev: KubeObject): FieldError[] {
  const errs = specErrors(next);
  if (isMirrorPod(prev)) return [forbiddenField(unnamedPath(), 'static pods cannot be resized')];
  const prevSpec = objectAt(prev, 'spec') ?? {};
  const nextSpec = objectAt(next, 'spec') ?? {};
  if (stringAt(objectAt(prevSpec, 'os'), 'name') === 'windows') return [forbiddenField(unnamedPath(), 'windows pods cannot be resized')];
  const storedClass = stringAt(objectAt(prev, 'status'), 'qosClass');
  if ((storedClass === '' ? podQOSClass(prevSpec) : storedClass) !== podQOSClass(nextSpec)) {
    // kube reports the class the write carries, which is the stored status's.
    errs.push(invalidValue(path('spec'), stringAt(objectAt(next, 'status'), 'qosClass'), 'Pod QOS Class may not change as a result of resizing'));
  }
  if (!nodeSupportsResize(prev)) errs.push(forbiddenField(path('spec'), 'Pod running on node without support for resize'));
  if (hasResourceEntries(objectAt(prevSpec, 'resources')) || hasResourceEntries(objectAt(nextSpec, 'resources'))) addPodLevelErrors(errs, nextSpec, prevSpec);
  const before = errs.length;
  addOrderErrors(errs, nextSpec, prevSpec);
  if (errs.length > before) return errs;

  const initNow = itemsAt(nextSpec, 'initContainers');
  const initOld = itemsAt(prevSpec, 'initContainers');
  initNow.forEach((c, i) => addRemovalErrors(errs, objectAt(c, 'resources') ?? {}, objectAt(initOld[i], 'resources'), path('spec', 'initContainers').index(i).child('resources'), ''));
  const now = itemsAt(nextSpec, 'containers');
  const old = itemsAt(prevSpec, 'containers');
  now.forEach((c, i) => addRemovalErrors(errs, objectAt(c, 'resources') ?? {}, objectAt(old[i], 'resources'), path('spec', 'containers').index(i).child('resources'), ''));

  // Past cpu and memory, a container (its resizePolicy too) must be as stored.
  const masked = cloneJson(nextSpec);
  for (const list of CONTAINER_LISTS) {
    const stored = itemsAt(prevSpec, list);
    const containers = masked[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((c: Json, i: number) => {
      const m = withResizableMasked(c, stored[i]);
      if (!deepEqual(m, semantic(stored[i]))) {
        const sidecar = list === 'initContainers' && stringAt(stored[i], 'restartPolicy') === 'Always';
        errs.push(forbiddenField(path('spec'), sidecar ? 'only cpu and memory resources for sidecar containers are mutable' : 'only cpu and memory resources are mutable'));
      }
      containers[i] = m;
    });
  }
  if (errs.length > 0) return errs;
  // Pod-level resources were judged above.
  copyMember(masked, prevSpec, 'resources');
  const storedSpec = cloneJson(prevSpec);
  for (const list of CONTAINER_LISTS) if (Array.isArray(storedSpec[list])) storedSpec[list] = (storedSpec[list] as Json[]).map((c) => semantic(c));
  if (!deepEqual(masked, storedSpec)) errs.push(forbiddenField(path('spec'), 'only cpu and memory resources are mutable'));
  return errs;
}

export const RESIZE_SUBRESOURCE: SubresourceDefinition = {
  verbs: ['get', 'patch', 'update'],
  copyFromRequest: copyResizeFields,
  validateUpdate: validatePodResize,
  prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
};
