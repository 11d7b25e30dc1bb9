// CustomResourceDefinition: stored, defaulted and validated (crd-validation.ts).
// The custom resources a CRD defines are not served yet (TODO(#10): CRD
// serving). kube's naming and establishing controllers would accept the names
// and mark the CRD Established moments after a create when nothing conflicts;
// kapi has no such controllers yet, so the strategy writes their outcome on
// create and on spec updates directly: status.acceptedNames = spec.names, and
// NamesAccepted and Established conditions True. Name conflicts between CRDs are
// not detected.
import { defineResource } from '../../../registry/define-resource.js';
import type { WriteContext } from '../../../registry/strategy.js';
import { rfc3339 } from '../../../registry/store/metadata.js';
import type { KubeObject } from '../../../schema/object.js';
import { arrayAt, bumpGenerationIfChanged, objectAt, stringAt, type Json } from '../../core/v1/helpers.js';
import { defaultCustomResourceDefinition, validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from './crd-validation.js';

function storageVersion(obj: KubeObject): string | undefined {
  const version = arrayAt(obj.spec, 'versions').find((v) => v.storage === true);
  return version === undefined ? undefined : stringAt(version, 'name');
}

function condition(type: string, reason: string, message: string, now: Date, previous: Json[]): Json {
  const before = previous.find((c) => c.type === type);
  // lastTransitionTime moves only when the status does.
  const time = before !== undefined && before.status === 'True' && typeof before.lastTransitionTime === 'string' ? before.lastTransitionTime : rfc3339(now);
  return { type, status: 'True', lastTransitionTime: time, reason, message };
}

/** What the naming and establishing controllers would write once the names are accepted. */
function acceptNames(obj: KubeObject, ctx: WriteContext): void {
  const status: Json = objectAt(obj, 'status') ?? {};
  const previous = arrayAt(status, 'conditions');
  const others = previous.filter((c) => c.type !== 'NamesAccepted' && c.type !== 'Established');
  status.acceptedNames = structuredClone(objectAt(obj.spec, 'names') ?? {});
  status.conditions = [
    ...others,
    condition('NamesAccepted', 'NoConflicts', 'no conflicts found', ctx.now, previous),
    condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted', ctx.now, previous),
  ];
  obj.status = status;
}

/** kube's strategy: storedVersions starts with the storage version and gains each new one. */
function recordStorageVersion(obj: KubeObject): void {
  const version = storageVersion(obj);
  if (version === undefined) return;
  const status: Json = objectAt(obj, 'status') ?? {};
  const stored = Array.isArray(status.storedVersions) ? (status.storedVersions as unknown[]).map(String) : [];
  if (!stored.includes(version)) stored.push(version);
  status.storedVersions = stored;
  obj.status = status;
}

export const customResourceDefinitions = defineResource({
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  scope: 'Cluster',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  subresources: { status: { verbs: ['get', 'patch', 'update'], path: 'status' } },
  strategy: {
    defaults: defaultCustomResourceDefinition,
    resetFields: { create: ['status'], update: ['status'] },
    prepareForCreate: (obj, ctx) => {
      obj.metadata.generation = 1;
      recordStorageVersion(obj);
      acceptNames(obj, ctx);
    },
    prepareForUpdate: (next, prev, ctx) => {
      bumpGenerationIfChanged(next, prev);
      if (ctx.subresource !== '') return;
      recordStorageVersion(next);
      acceptNames(next, ctx);
    },
    validate: validateCustomResourceDefinition,
    validateUpdate: validateCustomResourceDefinitionUpdate,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
  },
});
