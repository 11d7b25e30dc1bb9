import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { OpenApi } from '../../../src/endpoints/openapi/openapi.js';
import { appFor, BUILT_AT, openApiFor } from './support.js';

type Json = Record<string, any>;

let openapi: OpenApi;
let app: FastifyInstance;
let now = BUILT_AT;
beforeAll(async () => {
  openapi = openApiFor(() => now);
  app = await appFor(openapi);
});
afterAll(() => app.close());

const sha512 = (bytes: Buffer): string => createHash('sha512').update(bytes).digest('hex').toUpperCase();

async function index(): Promise<Record<string, { serverRelativeURL: string }>> {
  return (await app.inject({ method: 'GET', url: '/openapi/v3' })).json().paths;
}

async function docFor(key: string): Promise<Json> {
  const paths = await index();
  const res = await app.inject({ method: 'GET', url: paths[key]!.serverRelativeURL });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('/openapi/v3 index', () => {
  test('lists every served group version and the discovery roots with hash URLs', async () => {
    const paths = await index();
    expect(Object.keys(paths)).toEqual([
      'api', 'api/v1', 'apis', 'apis/example.test', 'apis/example.test/v1',
      'apis/rbac.authorization.k8s.io', 'apis/rbac.authorization.k8s.io/v1', 'version',
    ]);
    for (const [key, { serverRelativeURL }] of Object.entries(paths)) {
      expect(serverRelativeURL).toMatch(new RegExp(`^/openapi/v3/${key.replace(/\./g, '\\.')}\\?hash=[0-9A-F]{128}$`));
    }
  });

  test('carries a quoted SHA-512 ETag and answers If-None-Match with 304', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi/v3' });
    expect(res.headers.etag).toBe(`"${sha512(res.rawPayload)}"`);
    const again = await app.inject({ method: 'GET', url: '/openapi/v3', headers: { 'if-none-match': res.headers.etag as string } });
    expect(again.statusCode).toBe(304);
  });
});

describe('/openapi/v3/<gv> caching', () => {
  const url = (hash?: string): string => (hash === undefined ? '/openapi/v3/api/v1' : `/openapi/v3/api/v1?hash=${hash}`);
  const cases: {
    name: string;
    hash: (current: string) => string | undefined;
    headers?: Record<string, string>;
    want: { status: number; immutable: boolean; location?: (current: string) => string };
  }[] = [
    { name: 'matching hash is immutable for a year', hash: (h) => h, want: { status: 200, immutable: true } },
    { name: 'no hash is a plain response', hash: () => undefined, want: { status: 200, immutable: false } },
    { name: 'stale hash redirects to the current one', hash: () => 'ABC', want: { status: 301, immutable: false, location: (h) => url(h) } },
    { name: 'protobuf v3 is refused', hash: (h) => h, headers: { accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' }, want: { status: 406, immutable: false } },
    { name: '*/* is JSON', hash: () => undefined, headers: { accept: '*/*' }, want: { status: 200, immutable: false } },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const current = openapi.current().v3.get('api/v1')!.hash;
      const res = await app.inject({ method: 'GET', url: url(c.hash(current)), headers: c.headers ?? { accept: 'application/json' } });
      expect(res.statusCode).toBe(c.want.status);
      if (c.want.location !== undefined) expect(res.headers.location).toBe(c.want.location(current));
      if (c.want.immutable) {
        expect(res.headers['cache-control']).toBe('public, immutable');
        expect(res.headers.expires).toBe(new Date(now.getTime() + 365 * 24 * 3600 * 1000).toUTCString());
      } else {
        expect(res.headers['cache-control']).toBeUndefined();
      }
      if (res.statusCode === 200) {
        expect(res.headers['content-type']).toBe('application/json');
        expect(res.headers.etag).toBe(`"${sha512(res.rawPayload)}"`);
        expect(res.headers.vary).toBe('Accept');
        expect(sha512(res.rawPayload)).toBe(current);
      }
      if (res.statusCode === 406) expect(res.json()).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
    });
  }

  test('Expires follows the injected clock at request time', async () => {
    now = new Date('2030-06-01T00:00:00Z');
    const current = openapi.current().v3.get('api/v1')!.hash;
    const res = await app.inject({ method: 'GET', url: url(current) });
    expect(res.headers.expires).toBe('Sun, 01 Jun 2031 00:00:00 GMT');
    now = BUILT_AT;
  });

  test('If-None-Match gives 304', async () => {
    const doc = openapi.current().v3.get('api/v1')!;
    const res = await app.inject({ method: 'GET', url: url(doc.hash), headers: { 'if-none-match': doc.etag } });
    expect(res.statusCode).toBe(304);
  });

  test('unknown group versions are 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi/v3/apis/apps/v1' });
    expect(res.statusCode).toBe(404);
  });
});

describe('/openapi/v3 documents', () => {
  test('every PATCH operation carries fieldValidation and its GVK', async () => {
    const paths = await index();
    let patches = 0;
    for (const key of Object.keys(paths)) {
      const doc = await docFor(key);
      for (const [path, item] of Object.entries<Json>(doc.paths)) {
        if (item.patch === undefined) continue;
        patches++;
        const names = (item.patch.parameters ?? []).map((p: Json) => p.name);
        expect(names, path).toContain('fieldValidation');
        expect(item.patch['x-kubernetes-group-version-kind'], path).toBeDefined();
        expect(Object.keys(item.patch.requestBody.content), path).toContain('application/apply-patch+yaml');
      }
    }
    // configmaps, pods, pods/status, clusterroles, widgets
    expect(patches).toBe(5);
  });

  test('core/v1 schemas use components refs, allOf wrappers and keep merge markers', async () => {
    const doc = await docFor('api/v1');
    expect(doc.openapi).toBe('3.0.0');
    const schemas = doc.components.schemas;
    const pod = schemas['io.k8s.api.core.v1.Pod'];
    expect(pod['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    expect(pod.properties.spec).toEqual({ allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodSpec' }] });
    const containers = schemas['io.k8s.api.core.v1.PodSpec'].properties.containers;
    expect(containers).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/io.k8s.api.core.v1.Container' },
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
    expect(JSON.stringify(doc)).not.toContain('#/definitions/');
    // Only core/v1 paths, and nothing from other groups' kinds.
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/v1/'))).toBe(true);
    expect(schemas['io.k8s.api.rbac.v1.ClusterRole']).toBeUndefined();
  });

  test('operations become requestBody and per-media-type responses', async () => {
    const doc = await docFor('api/v1');
    const create = doc.paths['/api/v1/namespaces/{namespace}/configmaps'].post;
    expect(create.operationId).toBe('createCoreV1NamespacedConfigMap');
    expect(create.requestBody).toEqual({
      content: { '*/*': { schema: { $ref: '#/components/schemas/io.k8s.api.core.v1.ConfigMap' } } },
      required: true,
    });
    expect(Object.keys(create.responses['201'].content)).toEqual(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
    expect(create.parameters.map((p: Json) => p.name)).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(create.parameters[0]).toEqual({ name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } });
  });

  test('a kind without a schema is published as an object that keeps unknown fields', async () => {
    const doc = await docFor('apis/example.test/v1');
    expect(doc.components.schemas['test.example.v1.Widget']).toMatchObject({
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-group-version-kind': [{ group: 'example.test', version: 'v1', kind: 'Widget' }],
    });
    expect(doc.components.schemas['test.example.v1.WidgetList'].properties.items.items).toEqual({
      $ref: '#/components/schemas/test.example.v1.Widget',
    });
  });

  test('discovery roots have their own documents', async () => {
    const api = await docFor('api');
    expect(api.paths['/api/'].get.operationId).toBe('getCoreAPIVersions');
    const version = await docFor('version');
    expect(version.components.schemas['io.k8s.apimachinery.pkg.version.Info']).toBeDefined();
  });
});
