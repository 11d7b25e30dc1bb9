// A test-only API group, example.test/v1 (STYLE §9): generic machinery (handlers,
// store, admission) is tested against these kinds, never against built-ins, so a
// change to a built-in strategy cannot hide or fake a generic bug.
//   Widget       namespaced; status reset; generation tracks spec; validates spec.size; warns on spec.legacy
//   Gadget       cluster-scoped; PUT creates; DELETE answers the object
//   WidgetReview cluster-scoped virtual kind (only create, nothing stored)
//   Namespace    a stand-in for core/v1 namespaces so NamespaceLifecycle has something to read
import { invalidValue, path, type FieldError } from '../../src/schema/field-errors.js';
import { defineResource, type ResourceDefinition } from '../../src/registry/define-resource.js';
import { builtinDefinitions, builtinSchema, type Definitions, type ResourceSchema } from '../../src/schema/definitions.js';
import { checkTyped, type TypedCheck } from '../../src/schema/typed.js';
import type { KubeObject } from '../../src/schema/object.js';

const GROUP = 'example.test';

const meta = { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' };
const typeMeta = { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: meta };

/** Schemas for fieldValidation tests: the built-in table plus the example kinds. */
export const exampleDefinitions: Definitions = {
  ...builtinDefinitions,
  'test.example.v1.Widget': {
    type: 'object',
    properties: {
      ...typeMeta,
      spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' }, legacy: { type: 'boolean' } } },
      status: { type: 'object', properties: { ready: { type: 'boolean' } } },
    },
  },
  'test.example.v1.Gadget': { type: 'object', properties: { ...typeMeta, data: { type: 'object', additionalProperties: { type: 'string' } } } },
};

/** Where the example kinds' schemas live: their names resolve in exampleDefinitions. */
function exampleSchema(name: string): ResourceSchema {
  return { name, definitions: exampleDefinitions };
}

function spec(obj: KubeObject): Record<string, unknown> | undefined {
  return obj.spec as Record<string, unknown> | undefined;
}

function validateWidget(obj: KubeObject): FieldError[] {
  const size = spec(obj)?.size;
  if (size === undefined) return [];
  return typeof size === 'number' && Number.isInteger(size) && size >= 0
    ? []
    : [invalidValue(path('spec', 'size'), size, 'must be a non-negative integer')];
}

export const widgets: ResourceDefinition = defineResource({
  group: GROUP,
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced',
  shortNames: ['wd'],
  schema: exampleSchema('test.example.v1.Widget'),
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    prepareForCreate: (obj) => {
      obj.metadata.generation = 1;
    },
    prepareForUpdate: (next, prev) => {
      if (JSON.stringify(next.spec) !== JSON.stringify(prev.spec)) next.metadata.generation = (prev.metadata.generation ?? 0) + 1;
    },
    validate: validateWidget,
    warnings: (obj) => (spec(obj)?.legacy === true ? ['spec.legacy is deprecated'] : []),
    allowUnconditionalUpdate: true,
  },
});

export const gadgets: ResourceDefinition = defineResource({
  group: GROUP,
  version: 'v1',
  kind: 'Gadget',
  plural: 'gadgets',
  scope: 'Cluster',
  schema: exampleSchema('test.example.v1.Gadget'),
  strategy: { allowCreateOnUpdate: true, returnDeletedObject: true, allowUnconditionalUpdate: false },
});

export const widgetReviews: ResourceDefinition = defineResource({
  group: GROUP,
  version: 'v1',
  kind: 'WidgetReview',
  plural: 'widgetreviews',
  scope: 'Cluster',
  schema: exampleSchema('test.example.v1.WidgetReview'),
  virtualCreate: (obj, ctx) => ({ ...obj, status: { username: ctx.user.username, dryRun: ctx.dryRun } }),
});

export const testNamespaces: ResourceDefinition = defineResource({
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  scope: 'Cluster',
  nameValidation: 'label',
  schema: builtinSchema('io.k8s.api.core.v1.Namespace'),
});

export const exampleResources: readonly ResourceDefinition[] = [widgets, gadgets, widgetReviews, testNamespaces];

/** The typed check against exampleDefinitions, whatever table a definition carries. */
export function exampleCheckSchema(def: ResourceDefinition, obj: unknown): TypedCheck {
  return checkTyped(def.schema.name, obj, exampleDefinitions);
}
