// CustomResourceDefinitions through the real store (v1 defaults, the status the
// naming and establishing controllers would write, one row per validation rule)
// and over HTTP.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { customResourceDefinitions } from '../../../src/apis/apiextensions/v1/index.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { NOW } from '../../endpoints/harness.js';
import type { Harness } from '../../endpoints/harness.js';
import { createBuiltinHttpHarness, createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

/** A response body as an object to spread into the next request. */
const objectOf = (res: { json: () => unknown }): Record<string, unknown> => res.json() as Record<string, unknown>;
const specOf = (res: { json: () => unknown }): Record<string, unknown> => objectOf(res).spec as Record<string, unknown>;

let h: StoreHarness;
beforeAll(async () => {
  h = await createStoreHarness();
});
afterAll(() => h.close());

const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object' } } } };
const version = (name: string, extra: Record<string, unknown> = {}) => ({ name, served: true, storage: true, schema, ...extra });
let n = 0;
function crd(spec: Record<string, unknown> = {}, name?: string): KubeObject {
  const plural = `widgets${++n}`;
  const full = { group: 'example.com', scope: 'Namespaced', names: { plural, kind: 'Widget' }, versions: [version('v1')], ...spec };
  const names = full.names as { plural: string };
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: name ?? `${names.plural}.${String(full.group)}` }, spec: full };
}

describe('create', () => {
  test('defaults names and conversion; status accepted and established; storedVersions', async () => {
    const out = await h.create(customResourceDefinitions, crd());
    expect(out.errors).toEqual([]);
    const stored = out.stored!;
    const names = { plural: (stored.spec as { names: { plural: string } }).names.plural, kind: 'Widget', singular: 'widget', listKind: 'WidgetList' };
    expect(stored.spec).toMatchObject({ names, conversion: { strategy: 'None' } });
    const time = `${NOW.toISOString().slice(0, 19)}Z`;
    expect(stored.status).toEqual({
      storedVersions: ['v1'],
      acceptedNames: names,
      conditions: [
        { type: 'NamesAccepted', status: 'True', lastTransitionTime: time, reason: 'NoConflicts', message: 'no conflicts found' },
        { type: 'Established', status: 'True', lastTransitionTime: time, reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
      ],
    });
    expect(stored.metadata.generation).toBe(1);
  });

  const cases: { name: string; obj: KubeObject; want: string[] }[] = [
    { name: 'valid: cluster scope, two versions, short names', obj: crd({ scope: 'Cluster', versions: [version('v1'), version('v2', { storage: false })] }), want: [] },
    {
      name: 'valid: a rich schema (defaults, enums, preserve-unknown-fields, int-or-string, printer columns, scale)',
      obj: crd({
        versions: [
          version('v1', {
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    default: {},
                    'x-kubernetes-validations': [{ rule: 'self.replicas >= 0', message: 'no negatives' }],
                    properties: {
                      replicas: { type: 'integer', default: 1, minimum: 0 },
                      mode: { type: 'string', enum: ['a', 'b'] },
                      port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
                      extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                      items: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
                    },
                  },
                  status: { type: 'object', properties: { replicas: { type: 'integer' } } },
                },
              },
            },
            subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
            additionalPrinterColumns: [{ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }],
          }),
        ],
      }),
      want: [],
    },
    { name: 'name not <plural>.<group>', obj: crd({}, 'other.example.com'), want: ['metadata.name: Invalid value: "other.example.com": must be spec.names.plural+"."+spec.group'] },
    { name: 'group without a dot', obj: crd({ group: 'example', names: { plural: 'things', kind: 'Thing' } }, 'things.example'), want: ['spec.group: Invalid value: "example": should be a domain with at least one dot'] },
    { name: 'no scope', obj: crd({ scope: '' }), want: ['spec.scope: Required value'] },
    { name: 'bad scope', obj: crd({ scope: 'Global' }), want: ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'] },
    {
      name: 'two storage versions',
      obj: crd({ versions: [version('v1'), version('v2')] }),
      want: ['spec.versions: Invalid value: [{"name":"v1","served":true,"storage":true},{"name":"v2","served":true,"storage":true}]: must have exactly one version marked as storage version'],
    },
    {
      name: 'no storage version',
      obj: crd({ versions: [version('v1', { storage: false })] }),
      want: ['spec.versions: Invalid value: [{"name":"v1","served":true,"storage":false}]: must have exactly one version marked as storage version'],
    },
    {
      name: 'duplicate version names',
      obj: crd({ versions: [version('v1'), version('v1', { storage: false })] }),
      want: ['spec.versions: Invalid value: [{"name":"v1","served":true,"storage":true},{"name":"v1","served":true,"storage":false}]: must contain unique version names'],
    },
    { name: 'no schema', obj: crd({ versions: [{ name: 'v1', served: true, storage: true }] }), want: ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required'] },
    { name: 'schema root not an object', obj: crd({ versions: [version('v1', { schema: { openAPIV3Schema: { type: 'string' } } })] }), want: ['spec.versions[0].schema.openAPIV3Schema.type: Invalid value: "string": must be object at the root'] },
    { name: 'no kind', obj: crd({ names: { plural: 'gadgets' } }, 'gadgets.example.com'), want: ['spec.names.singular: Required value', 'spec.names.kind: Required value', 'spec.names.listKind: Required value'] },
    { name: 'kind equal to listKind', obj: crd({ names: { plural: 'gizmos', kind: 'Gizmo', listKind: 'Gizmo' } }, 'gizmos.example.com'), want: ['spec.names.listKind: Invalid value: "Gizmo": kind and listKind may not be the same'] },
    { name: 'webhook conversion without webhook', obj: crd({ conversion: { strategy: 'Webhook' } }), want: ['spec.conversion.webhook: Required value: required when strategy is set to Webhook'] },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const out = await h.create(customResourceDefinitions, c.obj);
      expect(out.errors).toEqual(expect.arrayContaining(c.want));
      expect(out.errors, out.errors.join("\n")).toHaveLength(c.want.length);
      expect(out.stored === undefined).toBe(c.want.length > 0);
    });
  }
});

describe('update', () => {
  test('group and plural are immutable; scope and kind once established', async () => {
    const created = (await h.create(customResourceDefinitions, crd())).stored!;
    const spec = created.spec as Record<string, unknown>;
    const out = await h.update(customResourceDefinitions, { ...created, spec: { ...spec, scope: 'Cluster', names: { ...(spec.names as object), kind: 'Other', listKind: 'OtherList' } } });
    expect(out.errors).toEqual(['spec.scope: Invalid value: "Cluster": field is immutable', 'spec.names.kind: Invalid value: "Other": field is immutable']);
  });

  test('a new storage version joins storedVersions; generation moves', async () => {
    const created = (await h.create(customResourceDefinitions, crd())).stored!;
    const spec = created.spec as Record<string, unknown>;
    const out = await h.update(customResourceDefinitions, { ...created, spec: { ...spec, versions: [version('v1', { storage: false }), version('v2')] } });
    expect(out.errors).toEqual([]);
    expect(out.stored?.metadata.generation).toBe(2);
    expect((out.stored?.status as { storedVersions: string[] }).storedVersions).toEqual(['v1', 'v2']);
  });

  test('dropping a stored version from spec.versions is refused', async () => {
    const created = (await h.create(customResourceDefinitions, crd())).stored!;
    const spec = created.spec as Record<string, unknown>;
    const out = await h.update(customResourceDefinitions, { ...created, spec: { ...spec, versions: [version('v2')] } });
    expect(out.errors).toEqual(['status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions']);
  });

  test('/status writes are checked: accepted names', async () => {
    const created = (await h.create(customResourceDefinitions, crd())).stored!;
    const status = created.status as Record<string, unknown>;
    const out = await h.updateStatus(customResourceDefinitions, { ...created, status: { ...status, acceptedNames: { plural: 'Bad_Plural', kind: 'W' } } });
    expect(out.errors).toEqual([expect.stringMatching(/^status\.acceptedNames\.plural: Invalid value: "Bad_Plural": a DNS-1035 label/)]);
  });
});

describe('over HTTP', () => {
  // The generic resource tester names objects freely; a CRD's name is <plural>.<group>.
  let http: Harness;
  const url = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  beforeAll(async () => {
    http = await createBuiltinHttpHarness();
  });
  afterAll(() => http.close());

  test('create, get, list as the default table, status, update, dry run, delete', async () => {
    const body = crd();
    const name = body.metadata.name!;
    const created = await http.app.inject({ method: 'POST', url, payload: body as object });
    expect(created.statusCode).toBe(201);
    expect(created.json().status.conditions.map((c: { type: string }) => c.type)).toEqual(['NamesAccepted', 'Established']);
    expect((await http.app.inject({ method: 'GET', url: `${url}/${name}` })).json()).toEqual(created.json());
    const table = await http.app.inject({ method: 'GET', url, headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(table.json().columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Created At']);
    expect(table.json().rows.map((r: { cells: unknown[] }) => r.cells[0])).toContain(name);
    const status = await http.app.inject({ method: 'GET', url: `${url}/${name}/status` });
    expect(status.json().status.storedVersions).toEqual(['v1']);
    const bad = await http.app.inject({ method: 'PUT', url: `${url}/${name}`, payload: { ...objectOf(created), spec: { ...specOf(created), group: 'other.example.com' } } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details.causes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'spec.group', reason: 'FieldValueInvalid' })]));
    const dry = crd();
    expect((await http.app.inject({ method: 'POST', url: `${url}?dryRun=All`, payload: dry as object })).statusCode).toBe(201);
    expect((await http.app.inject({ method: 'GET', url: `${url}/${dry.metadata.name!}` })).statusCode).toBe(404);
    expect((await http.app.inject({ method: 'DELETE', url: `${url}/${name}` })).statusCode).toBe(200);
    expect((await http.app.inject({ method: 'GET', url: `${url}/${name}` })).statusCode).toBe(404);
  });
});
