// The live resource catalog through HTTP (issue #9, item 3): a definition added
// while the app runs is served — its paths, legacy and aggregated discovery,
// OpenAPI v2 and v3 — and removed again, everything it added goes, with no
// restart. The catalog itself is test/registry/catalog.test.ts.
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { defineResource } from '../../src/registry/define-resource.js';
import { NAME_COLUMN, column, nameOf } from '../../src/registry/table.js';
import type { Definitions } from '../../src/schema/definitions.js';
import { createHarness, type Harness } from './harness.js';


// A kind the way a custom resource will arrive: its own group, its own schema table.
const gizmos = defineResource({ group: 'example.test', version: 'v1', kind: 'Gizmo', plural: 'gizmos', scope: 'Cluster' });
const SPROCKET = 'test.runtime.v1.Sprocket';
const sprocketTable: Definitions = {
  [SPROCKET]: {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
      spec: { type: 'object', properties: { teeth: { type: 'integer' } } },
    },
    'x-kubernetes-group-version-kind': [{ group: 'runtime.example.test', version: 'v1', kind: 'Sprocket' }],
  },
};
const sprockets = defineResource({
  group: 'runtime.example.test',
  version: 'v1',
  kind: 'Sprocket',
  plural: 'sprockets',
  scope: 'Namespaced',
  shortNames: ['spr'],
  schema: { name: SPROCKET, definitions: sprocketTable },
  table: {
    columns: [NAME_COLUMN, column({ name: 'Teeth', type: 'integer', description: 'How many teeth.' })],
    cells: (obj) => [nameOf(obj), (obj.spec as { teeth?: number } | undefined)?.teeth ?? null],
  },
});

const GV = '/apis/runtime.example.test/v1';
const COLLECTION = `${GV}/namespaces/default/sprockets`;
const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
const AGGREGATED = [
  { name: 'v2', accept: V2 },
  { name: 'v2beta1', accept: V2BETA1 },
] as const;

async function get(app: FastifyInstance, url: string, accept = 'application/json') {
  return app.inject({ method: 'GET', url, headers: { accept } });
}

/** Everything the catalog change shows over HTTP, read in one go. */
async function observe(app: FastifyInstance) {
  const groups = (await get(app, '/apis')).json() as { groups: { name: string }[] };
  const aggregated = await Promise.all(
    AGGREGATED.map(async ({ accept }) => {
      const res = await get(app, '/apis', accept);
      const items = (res.json() as { items: { metadata: { name: string }; versions: { version: string; resources: { resource: string }[] }[] }[] }).items;
      return { etag: res.headers.etag, items };
    }),
  );
  const v2 = await get(app, '/openapi/v2');
  const index = (await get(app, '/openapi/v3')).json() as { paths: Record<string, { serverRelativeURL: string }> };
  return {
    legacyGroups: groups.groups.map((g) => g.name),
    aggregated,
    v2: { etag: v2.headers.etag, doc: v2.json() as { paths: Record<string, unknown>; definitions: Record<string, unknown> } },
    v3Index: index.paths,
  };
}

describe('a definition added and removed while the app runs', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  test('its paths, discovery and OpenAPI appear, then go', async () => {
    const { app } = h;
    const before = await observe(app);
    expect((await get(app, COLLECTION)).statusCode).toBe(404);
    expect((await get(app, GV)).statusCode).toBe(404);
    expect(before.legacyGroups).toEqual(['example.test']);
    expect(before.v3Index[`apis/runtime.example.test/v1`]).toBeUndefined();

    h.registry.catalog.add(sprockets);

    // Served: create, get, list; typed decoding reads the definition's own table.
    const created = await app.inject({ method: 'POST', url: COLLECTION, payload: { apiVersion: 'runtime.example.test/v1', kind: 'Sprocket', metadata: { name: 's1' }, spec: { teeth: 12 } } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ kind: 'Sprocket', metadata: { name: 's1', namespace: 'default' }, spec: { teeth: 12 } });
    const read = await get(app, `${COLLECTION}/s1`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ apiVersion: 'runtime.example.test/v1', kind: 'Sprocket', metadata: { name: 's1' } });
    const list = await get(app, COLLECTION);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ kind: 'SprocketList', items: [{ metadata: { name: 's1' } }] });
    // Table printing (`kubectl get`) uses the added definition's columns.
    const table = await get(app, COLLECTION, 'application/json;as=Table;v=v1;g=meta.k8s.io');
    expect(table.statusCode).toBe(200);
    expect(table.json()).toMatchObject({ kind: 'Table', columnDefinitions: [{ name: 'Name' }, { name: 'Teeth' }], rows: [{ cells: ['s1', 12] }] });
    const wrongType = await app.inject({ method: 'POST', url: COLLECTION, payload: { apiVersion: 'runtime.example.test/v1', kind: 'Sprocket', metadata: { name: 's2' }, spec: { teeth: 'many' } } });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toContain('spec.teeth');

    // Legacy discovery: the group list, the group, the group version's resources.
    const during = await observe(app);
    expect(during.legacyGroups).toEqual(['example.test', 'runtime.example.test']);
    const group = await get(app, '/apis/runtime.example.test');
    expect(group.statusCode).toBe(200);
    expect(group.json()).toMatchObject({ kind: 'APIGroup', name: 'runtime.example.test', preferredVersion: { groupVersion: 'runtime.example.test/v1', version: 'v1' } });
    const resources = await get(app, GV);
    expect(resources.statusCode).toBe(200);
    expect(resources.json()).toMatchObject({
      kind: 'APIResourceList',
      groupVersion: 'runtime.example.test/v1',
      resources: [{ name: 'sprockets', singularName: 'sprocket', namespaced: true, kind: 'Sprocket', shortNames: ['spr'] }],
    });

    // Aggregated discovery, both versions, with new ETags.
    for (const [i, { name }] of AGGREGATED.entries()) {
      const group = during.aggregated[i]!.items.find((g) => g.metadata.name === 'runtime.example.test');
      expect(group, name).toMatchObject({ versions: [{ version: 'v1', resources: [{ resource: 'sprockets' }] }] });
      expect(during.aggregated[i]!.etag, name).not.toBe(before.aggregated[i]!.etag);
    }

    // OpenAPI v2: the paths and the definition from the kind's own table, a new ETag.
    expect(during.v2.etag).not.toBe(before.v2.etag);
    expect(Object.keys(during.v2.doc.paths)).toEqual(expect.arrayContaining([COLLECTION.replace('/default/', '/{namespace}/'), `${GV}/sprockets`, `${GV}/`]));
    expect(during.v2.doc.definitions[SPROCKET]).toEqual(sprocketTable[SPROCKET]);

    // OpenAPI v3: the index names the group version, and its document is served.
    const url = during.v3Index['apis/runtime.example.test/v1']?.serverRelativeURL;
    expect(url).toMatch(/^\/openapi\/v3\/apis\/runtime\.example\.test\/v1\?hash=[0-9A-F]{128}$/);
    const v3 = await get(app, url!);
    expect(v3.statusCode).toBe(200);
    const v3doc = v3.json() as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    expect(Object.keys(v3doc.paths)).toContain(`${GV}/namespaces/{namespace}/sprockets/{name}`);
    expect(Object.keys(v3doc.components.schemas)).toContain(SPROCKET);

    expect(h.registry.catalog.remove(sprockets)).toBe(sprockets);

    // Gone: every path is 404, the stored object included.
    for (const [method, path] of [['GET', `${COLLECTION}/s1`], ['GET', COLLECTION], ['POST', COLLECTION], ['DELETE', `${COLLECTION}/s1`]] as const) {
      const res = await app.inject({ method, url: path, ...(method === 'POST' ? { payload: { metadata: { name: 's3' } } } : {}) });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json(), `${method} ${path}`).toMatchObject({ kind: 'Status', reason: 'NotFound' });
    }
    expect((await get(app, GV)).statusCode).toBe(404);
    expect((await get(app, '/apis/runtime.example.test')).statusCode).toBe(404);
    expect((await get(app, url!)).statusCode).toBe(404);

    // Discovery and OpenAPI are byte for byte what they were before the add.
    const after = await observe(app);
    expect(after.legacyGroups).toEqual(before.legacyGroups);
    expect(after.aggregated).toEqual(before.aggregated);
    expect(after.v2.etag).toBe(before.v2.etag);
    expect(after.v2.doc.definitions[SPROCKET]).toBeUndefined();
    expect(after.v3Index).toEqual(before.v3Index);
  });

  test('a kind added to a served group version joins its discovery list and leaves it', async () => {
    const { app } = h;
    const names = async () => ((await get(app, '/apis/example.test/v1')).json() as { resources: { name: string }[] }).resources.map((r) => r.name);
    expect(await names()).not.toContain('gizmos');
    h.registry.catalog.add(gizmos);
    expect(await names()).toContain('gizmos');
    expect((await app.inject({ method: 'POST', url: '/apis/example.test/v1/gizmos', payload: { metadata: { name: 'g' } } })).statusCode).toBe(201);
    h.registry.catalog.remove(gizmos);
    expect(await names()).not.toContain('gizmos');
    expect((await get(app, '/apis/example.test/v1/gizmos/g')).statusCode).toBe(404);
    // The group version itself is still served: widgets are untouched.
    expect((await get(app, '/apis/example.test/v1/namespaces/default/widgets')).statusCode).toBe(200);
  });
});
