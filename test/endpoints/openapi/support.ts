// Shared by the OpenAPI tests: two made-up resource definitions over built-in
// schemas, a fixed clock, and a bare Fastify app with the routes and a minimal
// StatusError renderer standing in for the server's error handler.
import Fastify, { type FastifyInstance } from 'fastify';
import { createOpenApi, type OpenApi } from '../../../src/endpoints/openapi/openapi.js';
import { registerOpenApiRoutes } from '../../../src/endpoints/openapi/routes.js';
import { isStatusError } from '../../../src/errors/status-error.js';
import { createCatalog } from '../../../src/registry/catalog.js';
import { defineResource } from '../../../src/registry/define-resource.js';
import { builtinSchema } from '../../../src/schema/definitions.js';

export const configMaps = defineResource({
  group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', scope: 'Namespaced', schema: builtinSchema('io.k8s.api.core.v1.ConfigMap'),
});

export const pods = defineResource({
  group: '', version: 'v1', kind: 'Pod', plural: 'pods', scope: 'Namespaced',
  strategy: { returnDeletedObject: true },
  subresources: { status: { verbs: ['get', 'update', 'patch'], path: 'status' } },
});

/** A cluster-scoped kind in a non-core group whose derived schema name would be wrong (found by GVK). */
export const clusterRoles = defineResource({
  group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', plural: 'clusterroles', scope: 'Cluster',
});

/** A test-only group with no schema in its table. */
export const widgets = defineResource({
  group: 'example.test', version: 'v1', kind: 'Widget', plural: 'widgets', scope: 'Namespaced', schema: builtinSchema('test.example.v1.Widget'),
});

export const BUILT_AT = new Date('2025-01-02T03:04:05Z');

export function openApiFor(now: () => Date = () => BUILT_AT): OpenApi {
  return createOpenApi({ catalog: createCatalog([configMaps, pods, clusterRoles, widgets]), now });
}

export async function appFor(openapi: OpenApi): Promise<FastifyInstance> {
  const app = Fastify();
  app.setErrorHandler((err, _request, reply) => {
    if (!isStatusError(err)) throw err;
    return reply.code(err.code).header('Content-Type', 'application/json').send(JSON.stringify(err.toStatus()));
  });
  registerOpenApiRoutes(app, openapi);
  await app.ready();
  return app;
}
