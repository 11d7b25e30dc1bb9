import fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { registerDiscoveryRoutes } from '../../../src/endpoints/discovery/routes.js';
import { installErrorHandling, renderStatusAsJson } from '../../../src/server/error-handler.js';
import { createCatalog } from '../../../src/registry/catalog.js';
import { defineResource } from '../../../src/registry/define-resource.js';

const widgets = defineResource({
  group: 'example.test', version: 'v1', kind: 'Widget', plural: 'widgets', scope: 'Namespaced',
  shortNames: ['wd'], categories: ['all'],
  subresources: { status: { verbs: ['get', 'patch', 'update'] }, scale: { verbs: ['get', 'update'], responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' } } },
});
const gadgets = defineResource({ group: '', version: 'v1', kind: 'Gadget', plural: 'gadgets', scope: 'Cluster' });
const reviews = defineResource({
  group: 'example.test', version: 'v1beta1', kind: 'Review', plural: 'reviews', scope: 'Cluster',
  virtualCreate: (obj) => obj,
});

const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

const app = fastify();
beforeAll(async () => {
  installErrorHandling(app, renderStatusAsJson);
  registerDiscoveryRoutes(app, { catalog: createCatalog([gadgets, widgets, reviews]), serverAddress: '127.0.0.1:6443' });
  await app.ready();
});
afterAll(() => app.close());

describe('legacy discovery', () => {
  test('/api lists core versions with a server address', async () => {
    const res = await app.inject({ url: '/api', headers: { accept: 'application/json, */*' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }] });
  });

  test('/apis lists groups with the first version preferred', async () => {
    const res = await app.inject({ url: '/apis' });
    expect(res.json()).toEqual({
      kind: 'APIGroupList', apiVersion: 'v1',
      groups: [{ name: 'example.test', versions: [{ groupVersion: 'example.test/v1', version: 'v1' }, { groupVersion: 'example.test/v1beta1', version: 'v1beta1' }], preferredVersion: { groupVersion: 'example.test/v1', version: 'v1' } }],
    });
  });

  test('/apis/<g>/<v> lists resources and subresources', async () => {
    const res = await app.inject({ url: '/apis/example.test/v1' });
    const body = res.json();
    expect(body.groupVersion).toBe('example.test/v1');
    const names = body.resources.map((r: { name: string }) => r.name);
    expect(names).toEqual(['widgets', 'widgets/scale', 'widgets/status']);
    const main = body.resources[0];
    expect(main).toMatchObject({ singularName: 'widget', namespaced: true, kind: 'Widget', shortNames: ['wd'], categories: ['all'] });
    expect(main.verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    expect(typeof main.storageVersionHash).toBe('string');
    expect(body.resources[1]).toMatchObject({ kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'update'] });
  });

  test('/api/v1 has the core cluster-scoped resource', async () => {
    const body = (await app.inject({ url: '/api/v1' })).json();
    expect(body.resources).toEqual([expect.objectContaining({ name: 'gadgets', namespaced: false, kind: 'Gadget' })]);
  });

  test('a virtual resource offers only create and has no storage hash', async () => {
    const body = (await app.inject({ url: '/apis/example.test/v1beta1' })).json();
    expect(body.resources[0].verbs).toEqual(['create']);
    expect(body.resources[0].storageVersionHash).toBeUndefined();
  });

  test('unknown group version is a NotFound Status', async () => {
    const res = await app.inject({ url: '/apis/example.test/v9' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });
});

describe('aggregated discovery', () => {
  const cases = [
    { name: 'kubectl 1.30+ gets v2', accept: `${V2},${V2BETA1},application/json`, want: 'v2' },
    { name: 'kubectl 1.27-1.29 gets v2beta1', accept: `${V2BETA1},application/json`, want: 'v2beta1' },
    { name: 'parameter order does not matter', accept: 'application/json;as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io', want: 'v2' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await app.inject({ url: '/apis', headers: { accept: c.accept } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(`application/json;g=apidiscovery.k8s.io;v=${c.want};as=APIGroupDiscoveryList`);
      const body = res.json();
      expect(body.apiVersion).toBe(`apidiscovery.k8s.io/${c.want}`);
      const widget = body.items[0].versions[0].resources[0];
      expect(widget).toMatchObject({ resource: 'widgets', responseKind: { group: 'example.test', version: 'v1', kind: 'Widget' }, scope: 'Namespaced' });
      expect(widget.subresources.map((s: { subresource: string }) => s.subresource)).toEqual(['scale', 'status']);
      expect(widget.subresources[0].responseKind).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    });
  }

  test('/api answers aggregated core with an empty group name', async () => {
    const body = (await app.inject({ url: '/api', headers: { accept: V2 } })).json();
    expect(body.items[0].metadata.name).toBeUndefined();
    expect(body.items[0].versions[0].resources[0]).toMatchObject({ resource: 'gadgets', scope: 'Cluster' });
  });

  test('ETag and 304 on If-None-Match, Vary: Accept', async () => {
    const first = await app.inject({ url: '/apis', headers: { accept: V2 } });
    expect(first.headers.vary).toBe('Accept');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
    const again = await app.inject({ url: '/apis', headers: { accept: V2, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const legacy = await app.inject({ url: '/apis', headers: { 'if-none-match': etag } });
    expect(legacy.statusCode).toBe(200);
  });

  test('an Accept with nothing we serve is 406', async () => {
    const res = await app.inject({ url: '/apis', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(406);
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
  });
});
