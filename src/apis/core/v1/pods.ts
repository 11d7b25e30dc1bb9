// Pods: defaults of the pod spec, status Pending with a computed QoS class on
// create, and kube's rule that a running pod's spec is frozen except for images,
// a shorter activeDeadlineSeconds, added tolerations and a negative grace period
// raised to 1. Status, binding, ephemeral containers and resources are written
// through subresources (pod-subresources.ts).
import { defineResource } from '../../../registry/define-resource.js';
import { podTable } from './pods-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, forbiddenField, invalidValue, path, required } from '../../../schema/field-errors.js';
import { deepEqual } from '../../../registry/validation/common.js';
import { type Json, arrayAt, bumpGenerationIfChanged, describeChanges, ensureObject, objectAt, setDefault, stringAt } from './helpers.js';
import { defaultPodRequests, defaultPodSpec } from './pod-spec-defaults.js';
import { validatePodSpec } from './pod-spec-validation.js';
import { podQOSClass } from './pod-qos.js';
import { podWarnings } from './pod-warnings.js';
import { EPHEMERAL_CONTAINERS_SUBRESOURCE, RESIZE_SUBRESOURCE } from './pod-subresources.js';

export const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function applyDefaults(pod: KubeObject): Json {
  const spec = ensureObject(pod, 'spec');
  defaultPodSpec(spec);
  defaultPodRequests(spec);
  setDefault(spec, 'enableServiceLinks', true);
  // What the Priority admission plugin sets when no PriorityClass applies.
  if (stringAt(spec, 'priorityClassName') === '') setDefault(spec, 'priority', 0);
  setDefault(spec, 'preemptionPolicy', 'PreemptLowerPriority');
  return spec;
}

function prepareForCreate(pod: KubeObject): void {
  // Kube tracks metadata.generation for pods since 1.33 (pod generation KEP).
  pod.metadata.generation = 1;
  pod.status = { phase: 'Pending', qosClass: podQOSClass(objectAt(pod, 'spec') ?? {}) };
}

export function validatePod(pod: KubeObject): FieldError[] {
  const spec = objectAt(pod, 'spec') ?? {};
  const errs = validatePodSpec(spec, path('spec'), { isPod: true });
  // ValidatePodCreate: ephemeral containers come only through pods/ephemeralcontainers.
  if (arrayAt(spec, 'ephemeralContainers').length > 0) errs.push(forbiddenField(path('spec', 'ephemeralContainers'), 'cannot be set on create'));
  return errs;
}

/** Copies what a pod update may change from next onto a copy of prev's spec and compares. */
function validatePodSpecUpdate(next: Json, prev: Json): FieldError[] {
  const errs: FieldError[] = [];
  const munged = structuredClone(next);
  for (const list of ['containers', 'initContainers'] as const) {
    const n = arrayAt(munged, list);
    const o = arrayAt(prev, list);
    if (n.length !== o.length) {
      errs.push(forbiddenField(path('spec', list), 'pod updates may not add or remove containers'));
      return errs;
    }
    n.forEach((c, i) => {
      if (stringAt(c, 'image') === '') errs.push(required(path('spec', list).index(i).child('image')));
      c.image = o[i]!.image;
    });
  }
  const oldDeadline = prev.activeDeadlineSeconds;
  const newDeadline = munged.activeDeadlineSeconds;
  if (typeof oldDeadline === 'number' && (typeof newDeadline !== 'number' || newDeadline > oldDeadline)) {
    errs.push(invalidValue(path('spec', 'activeDeadlineSeconds'), newDeadline ?? null, 'must be less than or equal to previous value'));
  }
  munged.activeDeadlineSeconds = prev.activeDeadlineSeconds;
  const oldTolerations = arrayAt(prev, 'tolerations');
  const newTolerations = arrayAt(munged, 'tolerations');
  if (oldTolerations.every((t) => newTolerations.some((nt) => deepEqual(nt, t)))) munged.tolerations = prev.tolerations;
  const oldGrace = prev.terminationGracePeriodSeconds;
  if (typeof oldGrace === 'number' && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (!deepEqual(munged, prev)) errs.push(forbiddenField(path('spec'), `${POD_UPDATE_FORBIDDEN}\n${describeChanges(munged, prev, 'spec.')}`));
  return errs;
}

function selectableFields(pod: KubeObject): Record<string, string> {
  const spec = objectAt(pod, 'spec');
  const status = objectAt(pod, 'status');
  const podIPs = arrayAt(status, 'podIPs');
  return {
    'spec.nodeName': stringAt(spec, 'nodeName'),
    'spec.restartPolicy': stringAt(spec, 'restartPolicy'),
    'spec.schedulerName': stringAt(spec, 'schedulerName'),
    'spec.serviceAccountName': stringAt(spec, 'serviceAccountName'),
    'spec.hostNetwork': String(spec?.hostNetwork === true),
    'status.phase': stringAt(status, 'phase'),
    'status.podIP': podIPs.length > 0 ? stringAt(podIPs[0], 'ip') : stringAt(status, 'podIP'),
    // Accepted by kube's field label conversion but never filled, so it only matches "".
    'status.podIPs': '',
    'status.nominatedNodeName': stringAt(status, 'nominatedNodeName'),
  };
}

export const pods = defineResource({
  group: '',
  version: 'v1',
  kind: 'Pod',
  plural: 'pods',
  scope: 'Namespaced',
  table: podTable,
  shortNames: ['po'],
  categories: ['all'],
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: (pod) => void applyDefaults(pod),
    prepareForCreate,
    prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
    validate: validatePod,
    validateUpdate: (next, prev) => validatePodSpecUpdate(objectAt(next, 'spec') ?? {}, objectAt(prev, 'spec') ?? {}),
    // GetWarningsForPod on create and on every update; the status strategy has none.
    warnings: (pod, _prev, ctx) => (ctx.subresource === '' ? podWarnings(pod) : []),
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    returnDeletedObject: true,
    selectableFields,
  },
  // Log (kubelets), binding and eviction (the registry) are added with their
  // dependencies (index.ts). Not served: exec, attach, portforward, proxy.
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status' },
    ephemeralcontainers: EPHEMERAL_CONTAINERS_SUBRESOURCE,
    resize: RESIZE_SUBRESOURCE,
  },
});
